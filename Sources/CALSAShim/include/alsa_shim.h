// C marshalling over libasound (alsa-lib 1.2, Debian's libasound2-dev): playback of S16 mono
// frames on one PCM. No policy: what to play, when to retry and what an error means are
// decided in Swift (module Chime).
//
// Why a shim at all: <alsa/asoundlib.h> pulls thousands of declarations, alloca-based macros
// (snd_pcm_hw_params_alloca) and a global variadic error handler into any module that imports
// it. Swift sees only this header: an opaque PCM and one function per libasound call trackd
// makes, each saying what Swift could not do itself. Every `int`/`long` result below is
// libasound's: >= 0 on success, a negative errno (-ENOENT, -EPIPE, …) on failure.
#pragma once

#include <stdbool.h>
#include <stdint.h>

/// An open playback PCM: libasound's `snd_pcm_t` (same struct tag), opaque to Swift.
typedef struct _snd_pcm trackd_alsa_pcm;

/// Opens the playback PCM `name` ("default", "hw:1,0", "plughw:CARD=Device") from the
/// system's configuration. With `nonblocking`, a device that another program holds fails
/// with -EBUSY/-EAGAIN at once instead of waiting (SND_PCM_NONBLOCK is a macro).
int trackd_alsa_open(trackd_alsa_pcm **pcm, const char *name, bool nonblocking);

/// Opens the playback PCM `name` as defined by `configuration`, text in asoundrc syntax,
/// instead of the system's files: loading a configuration from a string takes an
/// `snd_input_t`, a `snd_config_t` tree and `snd_pcm_open_lconf`, three calls whose
/// intermediate objects Swift would otherwise have to own.
int trackd_alsa_open_with_configuration(trackd_alsa_pcm **pcm, const char *name,
                                        const char *configuration, bool nonblocking);

/// Switches the PCM between blocking (false) and non-blocking (true) reads, writes and drain.
int trackd_alsa_set_nonblocking(trackd_alsa_pcm *pcm, bool nonblocking);

/// Sets interleaved signed 16-bit little-endian mono at `rate` Hz, with ALSA's software
/// resampling allowed and `latency_microseconds` of buffer (the SND_PCM_FORMAT_* and
/// SND_PCM_ACCESS_* enumerations stay in C).
int trackd_alsa_set_s16_mono(trackd_alsa_pcm *pcm, unsigned rate, unsigned latency_microseconds);

/// Writes up to `count` mono frames; returns how many were written or a negative errno
/// (-EPIPE underrun, -ESTRPIPE suspended, -ENODEV unplugged, -EIO, …). One snd_pcm_writei.
long trackd_alsa_write(trackd_alsa_pcm *pcm, const int16_t *frames, unsigned long count);

/// Brings the PCM back after `error` from a write (-EPIPE, -ESTRPIPE, -EINTR) without
/// printing: 0 when it can be written again, otherwise the error. One snd_pcm_recover.
int trackd_alsa_recover(trackd_alsa_pcm *pcm, int error);

/// Waits until what was written has been played, leaving the PCM stopped.
int trackd_alsa_drain(trackd_alsa_pcm *pcm);

/// Makes a stopped (drained) PCM ready for the next write.
int trackd_alsa_prepare(trackd_alsa_pcm *pcm);

/// Closes the PCM and frees it; the `file` plugin finishes its output file here.
int trackd_alsa_close(trackd_alsa_pcm *pcm);

/// libasound's text for a negative error code ("No such file or directory", "Unknown PCM").
const char *trackd_alsa_error_text(int error);

/// Stops libasound from printing its own messages ("ALSA lib pcm.c:2666:(…) Unknown PCM x")
/// on stderr, process-wide: the handler is variadic, which Swift cannot write. Errors still
/// come back as codes, and trackd logs them.
void trackd_alsa_silence_library_messages(void);
