/// Why a source could not deliver its fixes, each with what went wrong, where, and what to do.
public enum SourceError: Error, Hashable, CustomStringConvertible {
    /// The log could not be opened; `reason` is the system's (`No such file or directory (ENOENT)`).
    case cannotOpen(path: String, reason: String)
    /// The path names a directory, not a log.
    case isDirectory(path: String)
    /// Reading the log failed part way; `reason` is the system's.
    case readFailed(path: String, reason: String)
    /// The log is an empty file.
    case emptyInput(path: String)
    /// The log ended without one NMEA sentence the parser accepted: `bytes` read in all,
    /// `rejected` sentence-like lines turned down (bad checksum, missing checksum, …).
    case noNMEA(path: String, bytes: Int, rejected: Int)
    /// A replay speed that is not a positive number or `max`.
    case badSpeed(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason); check the path and its permissions"
        case .isDirectory(let path):
            "\(path) is a directory; give one of the NMEA log files inside it"
        case .readFailed(let path, let reason):
            "reading \(path) failed: \(reason); check the file and the device it is on"
        case .emptyInput(let path):
            "\(path) is empty: there are no fixes to replay; give a log of a GPS receiver's NMEA output"
        case .noNMEA(let path, let bytes, let rejected):
            rejected > 0
                ? "\(path) holds no valid NMEA 0183 sentence (\(bytes) bytes read, \(rejected) sentence-like lines rejected); if the receiver sends no checksums, try --allow-missing-checksum"
                : "\(path) holds no NMEA 0183 sentence (\(bytes) bytes read); is it a log of a GPS receiver's serial output?"
        case .badSpeed(let text):
            "Please give --speed as a positive number (1 for real time, 10 for ten times faster) or 'max', not '\(text)'."
        }
    }
}
