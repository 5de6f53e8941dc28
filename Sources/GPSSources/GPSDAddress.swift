/// Where gpsd listens: a host name or IP address and a TCP port.
///
/// Parsed from a `--source` argument: `gpsd` (gpsd on this machine, port 2947),
/// `gpsd://HOST`, `gpsd://HOST:PORT`; an IPv6 address goes in brackets
/// (`gpsd://[::1]:2947`). `description` writes it back as `HOST:PORT` (`localhost:2947`,
/// `[::1]:2947`).
///
/// ```swift
/// let address = try GPSDAddress.parse("gpsd://pi.local:2948")   // pi.local:2948
/// ```
public struct GPSDAddress: Sendable, Hashable, CustomStringConvertible {
    /// gpsd's registered TCP port (IANA), where it listens unless told otherwise (`-S`).
    public static let defaultPort = 2947
    /// The host gpsd is looked for on when none is given.
    public static let defaultHost = "localhost"

    /// A host name, or an IPv4 or IPv6 address (IPv6 without brackets: `::1`).
    public var host: String
    /// TCP port, 1...65535.
    public var port: Int

    /// gpsd at `host`:`port`; by default gpsd on this machine.
    public init(host: String = GPSDAddress.defaultHost, port: Int = GPSDAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, with an IPv6 address in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether `text` names gpsd rather than a device or a log: `gpsd` or `gpsd://…`.
    public static func isGPSDAddress(_ text: String) -> Bool {
        text == "gpsd" || text.hasPrefix("gpsd://")
    }

    /// Parses `gpsd`, `gpsd://HOST`, `gpsd://HOST:PORT` or `gpsd://[IPv6]:PORT`.
    ///
    /// A missing host is `localhost`, a missing port 2947 (`gpsd://`, `gpsd://:2948`).
    ///
    /// - Throws: ``SourceError/badGPSDAddress(_:reason:)`` for anything else: another
    ///   scheme, a path, a port that is not a number in 1...65535, an unbracketed IPv6 address.
    public static func parse(_ text: String) throws(SourceError) -> GPSDAddress {
        if text == "gpsd" { return GPSDAddress() }
        let scheme = "gpsd://"
        guard text.hasPrefix(scheme) else {
            throw .badGPSDAddress(text, reason: "it does not start with gpsd://")
        }
        let rest = text.dropFirst(scheme.count)
        if rest.contains("/") {
            throw .badGPSDAddress(text, reason: "a gpsd address has no path")
        }
        let hostPart: Substring
        let portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw .badGPSDAddress(text, reason: "the IPv6 address has no closing ]")
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.isEmpty {
                portPart = nil
            } else if after.hasPrefix(":") {
                portPart = after.dropFirst()
            } else {
                throw .badGPSDAddress(text, reason: "only :PORT may follow the bracketed address")
            }
            if hostPart.isEmpty {
                throw .badGPSDAddress(text, reason: "the brackets hold no address")
            }
        } else {
            let colons = rest.filter { $0 == ":" }.count
            if colons > 1 {
                throw .badGPSDAddress(text, reason: "an IPv6 address must be in brackets")
            }
            if let colon = rest.firstIndex(of: ":") {
                hostPart = rest[..<colon]
                portPart = rest[rest.index(after: colon)...]
            } else {
                hostPart = rest
                portPart = nil
            }
        }
        var port = defaultPort
        if let portPart {
            guard !portPart.isEmpty, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(portPart), (1...65_535).contains(number)
            else {
                throw .badGPSDAddress(text, reason: "the port must be a number from 1 to 65535, not '\(portPart)'")
            }
            port = number
        }
        return GPSDAddress(host: hostPart.isEmpty ? defaultHost : String(hostPart), port: port)
    }
}
