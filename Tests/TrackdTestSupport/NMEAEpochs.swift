import Foundation

/// NMEA log text cut into epochs, to be fed to a pty one reporting cycle at a time.
///
/// A new epoch starts at each sentence whose time (GGA, RMC, GLL, GNS, ZDA field 1; GLL field
/// 5) differs from the current epoch's. Comment lines (`#`) and blank lines are dropped, and
/// every line ends in CRLF.
///
/// ```swift
/// let epochs = NMEAEpochs.split(try String(contentsOf: log, encoding: .utf8))
/// ```
public enum NMEAEpochs {
    /// The epochs of `text`, in order, each the CRLF-terminated sentences of one time of fix.
    public static func split(_ text: String) -> [String] {
        var epochs: [String] = []
        var current = ""
        var currentTime: Substring?
        for raw in text.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count > 1, let type = fields.first?.suffix(3),
               ["GGA", "RMC", "GLL", "GNS", "ZDA"].contains(type), !fields[1].isEmpty {
                let time = type == "GLL" ? (fields.count > 5 ? fields[5] : fields[1]) : fields[1]
                if let currentTime, currentTime != time, !current.isEmpty {
                    epochs.append(current)
                    current = ""
                }
                currentTime = time
            }
            current += line + "\r\n"
        }
        if !current.isEmpty { epochs.append(current) }
        return epochs
    }

    /// The epochs of the log file at `url`; see ``split(_:)``.
    ///
    /// - Throws: when the file cannot be read as UTF-8.
    public static func split(contentsOf url: URL) throws -> [String] {
        split(try String(contentsOf: url, encoding: .utf8))
    }
}
