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

    // Serial receivers; the descriptions are in SerialErrorText.swift.
    /// The serial device does not exist (ENOENT, ENXIO, ENODEV): not plugged in, or a wrong path.
    case noDevice(path: String)
    /// Another program has the serial device open for itself (EBUSY): gpsd, ModemManager.
    case deviceBusy(path: String)
    /// The serial device's permissions keep this user out (EACCES).
    case permissionDenied(path: String)
    /// The path is not a terminal device (ENOTTY from `tcgetattr`): a file, a pipe, a socket.
    case notATerminal(path: String)
    /// The serial device could not be opened or set to raw mode and a baud rate; `reason`
    /// is the system's.
    case cannotConfigure(path: String, reason: String)
    /// A baud rate that is not one of ``BaudRate``'s.
    case unsupportedBaud(Int)
    /// Baud detection found no NMEA sentence at any of the `rates` tried: `bytesSeen` bytes
    /// in all (0: the line was silent), `sample` the first bytes read, `checksumless` lines
    /// that were sentences but for their missing checksums.
    case noNMEAAtAnyBaud(device: String, rates: [Int], bytesSeen: Int, sample: [UInt8], checksumless: Int)
    /// No connection to gpsd could be made when the source started; `reason` is the system's
    /// or libgps's (`Connection refused`).
    case gpsdUnavailable(address: GPSDAddress, reason: String)
    /// A `--source` that looks like a gpsd address but is not one; `reason` says which part is wrong.
    case badGPSDAddress(String, reason: String)

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
        case .noDevice, .deviceBusy, .permissionDenied, .notATerminal, .cannotConfigure, .unsupportedBaud,
             .noNMEAAtAnyBaud:
            serialDescription
        case .gpsdUnavailable(let address, let reason):
            "cannot reach gpsd at \(address) (\(reason)); is gpsd running (systemctl status gpsd)? or give --source /dev/ttyACM0"
        case .badGPSDAddress(let text, let reason):
            "'\(text)' is not a gpsd address: \(reason); give gpsd, gpsd://HOST or gpsd://HOST:PORT (IPv6 in brackets: gpsd://[::1]:2947)"
        }
    }
}
