import CALSAShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open ALSA playback PCM set to S16 mono. Blocking: use it on a thread of its own,
/// never on the concurrency pool. Not thread-safe; one owner.
package final class PCMOutput {
    /// ALSA buffer asked for: short, so a chime sounds when it is due, long enough for a
    /// Pi Zero's scheduler (ALSA rounds it to what the device offers).
    package static let latency = Duration.milliseconds(100)

    package let device: String
    package let sampleRate: Int
    private var pcm: OpaquePointer?

    /// Opens `device` for playback, from `configuration` (asoundrc text) when given, else
    /// from the system's configuration, and sets 16-bit mono at `sampleRate`. The open does
    /// not wait for a busy device; writes do wait for room in the buffer.
    ///
    /// - Throws: ``ChimeError/cannotOpen(device:code:)``,
    ///   ``ChimeError/cannotConfigure(device:sampleRate:code:)``.
    package init(device: String, configuration: String? = nil, sampleRate: Int) throws(ChimeError) {
        _ = Self.libraryMessagesSilenced
        self.device = device
        self.sampleRate = sampleRate
        var handle: OpaquePointer?
        let opened = if let configuration {
            trackd_alsa_open_with_configuration(&handle, device, configuration, true)
        } else {
            trackd_alsa_open(&handle, device, true)
        }
        guard opened >= 0, let handle else { throw ChimeError.cannotOpen(device: device, code: opened < 0 ? opened : -EINVAL) }
        pcm = handle
        let blocking = trackd_alsa_set_nonblocking(handle, false)
        guard blocking >= 0 else {
            close()
            throw ChimeError.cannotOpen(device: device, code: blocking)
        }
        let microseconds = UInt32(Self.latency / .microseconds(1))
        let configured = trackd_alsa_set_s16_mono(handle, UInt32(sampleRate), microseconds)
        guard configured >= 0 else {
            close()
            throw ChimeError.cannotConfigure(device: device, sampleRate: sampleRate, code: configured)
        }
    }

    deinit { close() }

    // libasound prints some failures on stderr itself ("ALSA lib pcm.c:2666:(…) Unknown PCM");
    // they come back as codes too, and trackd logs those.
    private static let libraryMessagesSilenced: Bool = {
        trackd_alsa_silence_library_messages()
        return true
    }()

    /// Plays `samples` to the end: writes them all (recovering from an underrun or a
    /// suspend), waits until they have sounded, and leaves the PCM ready for the next.
    ///
    /// - Throws: ``ChimeError/writeFailed(device:code:)``; the PCM is then of no more use.
    package func play(_ samples: [Int16]) throws(ChimeError) {
        guard let pcm else { throw ChimeError.writeFailed(device: device, code: -EBADFD) }
        var offset = 0
        while offset < samples.count {
            let written = samples.withUnsafeBufferPointer { buffer in
                trackd_alsa_write(pcm, buffer.baseAddress.map { $0 + offset }, UInt(samples.count - offset))
            }
            if written >= 0 {
                offset += written
                continue
            }
            // An underrun (EPIPE), a suspend (ESTRPIPE) or a signal (EINTR) can be recovered
            // from; anything else (ENODEV when unplugged, EIO, a file that cannot be written)
            // cannot.
            let code = Int32(truncatingIfNeeded: written)
            guard trackd_alsa_recover(pcm, code) >= 0 else { throw ChimeError.writeFailed(device: device, code: code) }
        }
        let drained = trackd_alsa_drain(pcm)
        guard drained >= 0 else { throw ChimeError.writeFailed(device: device, code: drained) }
        let prepared = trackd_alsa_prepare(pcm)
        guard prepared >= 0 else { throw ChimeError.writeFailed(device: device, code: prepared) }
    }

    /// Closes the PCM (the `file` plugin finishes its file here); later plays throw.
    package func close() {
        guard let pcm else { return }
        self.pcm = nil
        _ = trackd_alsa_close(pcm)
    }
}
