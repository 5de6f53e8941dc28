#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks for a device node that went away (a receiver unplugged) to come back.
///
/// A path is present when it resolves to a file: a symbolic link that udev gives the
/// receiver (/dev/serial/by-id/…, /dev/gps0) is present only while it points at a device
/// that exists. The waits block the calling thread: call them on a reader thread, never on
/// the concurrency pool.
enum DeviceWatcher {
    /// How often to look for the device: 250 ms, quick enough that few fixes are lost after a
    /// replug, rare enough to cost nothing.
    static let pollInterval = Duration.milliseconds(250)

    /// Whether `path` resolves to an existing file (following symbolic links).
    static func isPresent(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Blocks until `path` is present or `stop` is set, looking every ``pollInterval``;
    /// returns whether it is present.
    static func waitUntilPresent(_ path: String, stop: StopFlag) -> Bool {
        while !stop.isSet {
            if isPresent(path) { return true }
            stop.sleep(pollInterval)
        }
        return false
    }
}
