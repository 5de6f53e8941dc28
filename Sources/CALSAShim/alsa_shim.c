// See alsa_shim.h: marshalling only.
#include "alsa_shim.h"

#include <alsa/asoundlib.h>

static int open_mode(bool nonblocking) { return nonblocking ? SND_PCM_NONBLOCK : 0; }

int trackd_alsa_open(trackd_alsa_pcm **pcm, const char *name, bool nonblocking) {
    return snd_pcm_open(pcm, name, SND_PCM_STREAM_PLAYBACK, open_mode(nonblocking));
}

int trackd_alsa_open_with_configuration(trackd_alsa_pcm **pcm, const char *name,
                                        const char *configuration, bool nonblocking) {
    snd_input_t *input = NULL;
    int err = snd_input_buffer_open(&input, configuration, -1);
    if (err < 0) return err;
    snd_config_t *top = NULL;
    err = snd_config_top(&top);
    if (err >= 0) err = snd_config_load(top, input);
    snd_input_close(input);
    if (err >= 0) err = snd_pcm_open_lconf(pcm, name, SND_PCM_STREAM_PLAYBACK, open_mode(nonblocking), top);
    // The opened PCM keeps no reference to the tree (snd_pcm_open unrefs its own likewise).
    if (top != NULL) snd_config_delete(top);
    return err;
}

int trackd_alsa_set_nonblocking(trackd_alsa_pcm *pcm, bool nonblocking) {
    return snd_pcm_nonblock(pcm, nonblocking ? 1 : 0);
}

int trackd_alsa_set_s16_mono(trackd_alsa_pcm *pcm, unsigned rate, unsigned latency_microseconds) {
    return snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                              1, rate, 1, latency_microseconds);
}

long trackd_alsa_write(trackd_alsa_pcm *pcm, const int16_t *frames, unsigned long count) {
    return snd_pcm_writei(pcm, frames, count);
}

int trackd_alsa_recover(trackd_alsa_pcm *pcm, int error) {
    return snd_pcm_recover(pcm, error, 1);
}

int trackd_alsa_drain(trackd_alsa_pcm *pcm) { return snd_pcm_drain(pcm); }

int trackd_alsa_prepare(trackd_alsa_pcm *pcm) { return snd_pcm_prepare(pcm); }

int trackd_alsa_close(trackd_alsa_pcm *pcm) { return snd_pcm_close(pcm); }

const char *trackd_alsa_error_text(int error) { return snd_strerror(error); }

static void discard_message(const char *file, int line, const char *function, int err,
                            const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void trackd_alsa_silence_library_messages(void) { snd_lib_error_set_handler(discard_message); }
