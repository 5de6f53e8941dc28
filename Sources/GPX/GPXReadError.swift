/// Why a file could not be read as GPX by ``GPXTrackReader``.
public enum GPXReadError: Error, Hashable, CustomStringConvertible {
    /// The file does not start like XML (a binary file, an NMEA log, empty).
    case notXML(path: String, found: String)
    /// The file is XML, but its root element is not `<gpx>`.
    case notGPX(path: String, root: String)
    /// The XML is broken at `line`.
    case malformed(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .notXML(let path, let found):
            "\(path) is not a GPX file: \(found), not XML; give a GPX 1.1 file (such as `trackd export` writes), a track id or 'latest'"
        case .notGPX(let path, let root):
            "\(path) is not a GPX file: its root element is <\(root)>, not <gpx>; give a GPX 1.1 file (such as `trackd export` writes), a track id or 'latest'"
        case .malformed(let path, let line, let reason):
            "\(path) is not well-formed XML at line \(line): \(reason); is the file complete?"
        }
    }
}
