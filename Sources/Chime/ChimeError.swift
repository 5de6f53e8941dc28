import CALSAShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong with a chime option or the sound device.
///
/// Option errors are thrown to the command line; device errors are only ever logged by
/// ``ChimePlayer`` (once per outage), never thrown to the recording.
public enum ChimeError: Error, Hashable, CustomStringConvertible {
    /// A name in `--chime` that is not a chime group.
    case unknownChime(name: String)
    /// `--chime` with an empty list or an empty name between commas.
    case emptyChimeList
    /// `--volume` that is not a whole number from 0 to 100 (the text as given).
    case volumeOutOfRange(String)
    /// `--chime-every` below zero (the value, in seconds).
    case negativeInterval(seconds: Double)
    /// libasound could not open the PCM `device`; `code` is its negative errno.
    case cannotOpen(device: String, code: Int32)
    /// The PCM opened but refused 16-bit mono at `sampleRate` Hz.
    case cannotConfigure(device: String, sampleRate: Int, code: Int32)
    /// A write (or the drain after it) failed and could not be recovered.
    case writeFailed(device: String, code: Int32)

    public var description: String {
        let names = ChimeCategory.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .unknownChime(let name):
            return "unknown chime '\(name)' in --chime; use a comma-separated list of \(names), or --no-chime for none"
        case .emptyChimeList:
            return "--chime needs a comma-separated list of \(names) without empty names; use --no-chime for none"
        case .volumeOutOfRange(let text):
            return "--volume must be a whole number from 0 (silent) to 100 (loudest), not '\(text)'"
        case .negativeInterval(let seconds):
            return "--chime-every must be zero (no coalescing) or more seconds, not \(seconds)"
        case .cannotOpen(let device, let code):
            let why = "cannot open sound device '\(device)': \(Self.text(code))"
            switch -code {
            case ENOENT, ENODEV, ENXIO:
                return "\(why); list devices with `aplay -L`, pick one with --alsa-device, or turn chimes off with --no-chime"
            case EBUSY, EAGAIN:
                return "\(why); another program holds it: use a shared device such as 'default' or 'plug:dmix' with --alsa-device, or --no-chime"
            case EACCES, EPERM:
                return "\(why); add the user running trackd to the 'audio' group, or --no-chime"
            default:
                return "\(why); check it with `aplay -D \(device) /usr/share/sounds/alsa/Front_Center.wav`, or --no-chime"
            }
        case .cannotConfigure(let device, let sampleRate, let code):
            return "sound device '\(device)' refuses 16-bit mono at \(sampleRate) Hz: \(Self.text(code)); use a converting device such as 'plughw:…' or 'default' with --alsa-device"
        case .writeFailed(let device, let code):
            if -code == ENODEV {
                return "sound device '\(device)' is gone (unplugged?): \(Self.text(code)); chimes resume when it can be opened again"
            }
            return "playing on sound device '\(device)' failed: \(Self.text(code)); chimes resume when it can be opened again"
        }
    }

    /// libasound's text for `code`, with the errno name when it is one (`No such device (ENODEV)`).
    static func text(_ code: Int32) -> String {
        let text = String(cString: trackd_alsa_error_text(code))
        let names: [Int32: String] = [
            ENOENT: "ENOENT", ENODEV: "ENODEV", ENXIO: "ENXIO", EBUSY: "EBUSY", EAGAIN: "EAGAIN",
            EACCES: "EACCES", EPERM: "EPERM", EIO: "EIO", EPIPE: "EPIPE", ESTRPIPE: "ESTRPIPE",
            EINVAL: "EINVAL", ENOSPC: "ENOSPC", EBADFD: "EBADFD",
        ]
        return names[-code].map { "\(text) (\($0))" } ?? text
    }
}
