/// Errors of the command-line tool, each with what went wrong, where, and what to do.
enum CLIError: Error, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case isDirectory(path: String)
    case emptyInput(path: String)
    case noNMEA(path: String, bytes: Int, rejected: Int)
    case readFailed(path: String, reason: String)
    case cannotCreateOutput(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason); check the path and its permissions"
        case .isDirectory(let path):
            "\(path) is a directory; give the NMEA log files inside it"
        case .emptyInput(let path):
            "\(path) is empty: there is nothing to convert"
        case .noNMEA(let path, let bytes, let rejected):
            rejected > 0
                ? "\(path) holds no valid NMEA 0183 sentence (\(bytes) bytes read, \(rejected) sentence-like lines rejected); if the receiver sends no checksums, try --allow-missing-checksum"
                : "\(path) holds no NMEA 0183 sentence (\(bytes) bytes read); is it a log of a GPS receiver's serial output?"
        case .readFailed(let path, let reason):
            "reading \(path) failed: \(reason)"
        case .cannotCreateOutput(let path, let reason):
            "cannot create \(path): \(reason); check that its directory exists and is writable"
        case .writeFailed(let path, let reason):
            "writing \(path) failed: \(reason); check the free space and permissions there (an unfinished file is removed)"
        }
    }
}
