/// Where the live view listens: a host (an IPv4 or IPv6 address, or a name) and a TCP port.
///
/// Written `HOST:PORT` (`127.0.0.1:8080`, `0.0.0.0:8080`, `[::]:8080`) or as a port alone,
/// which means the loopback address: the page is served to this machine only unless another
/// address is given explicitly. Port 0 asks the system for a free port.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// `127.0.0.1:8080`: this machine only.
    public static let `default` = ListenAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT` or `PORT`.
    public init(parsing text: String) throws(LiveViewError) {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .badAddress(text, reason: "it is empty") }
        var host = ListenAddress.default.host
        var portText = trimmed
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else {
                throw .badAddress(text, reason: "the IPv6 address has no closing ']'")
            }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badAddress(text, reason: "the port is missing after ']'") }
            portText = String(rest.dropFirst())
            guard host.contains(":") else { throw .badAddress(text, reason: "'\(host)' in brackets is not an IPv6 address") }
        } else if let colon = trimmed.lastIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = String(trimmed[trimmed.index(after: colon)...])
            guard !host.isEmpty else {
                throw .badAddress(text, reason: "the address before ':' is missing (0.0.0.0:PORT serves every interface)")
            }
            guard !host.contains(":") else {
                throw .badAddress(text, reason: "an IPv6 address is written in brackets, such as [::1]:8080")
            }
            try ListenAddress.checkHost(host, in: text)
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), portText.count <= 5,
            let port = Int(portText), port <= 65535
        else {
            throw .badAddress(text, reason: "the port must be a number from 0 to 65535, not '\(portText)'")
        }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can connect.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// An address made of digits and dots must be a dotted quad of octets; anything else is
    /// a host name, resolved when the server binds.
    private static func checkHost(_ host: String, in text: String) throws(LiveViewError) {
        guard host.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) else {
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
                throw .badAddress(text, reason: "'\(host)' is neither an IP address nor a host name")
            }
            return
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && (Int($0) ?? 256) <= 255 }) else {
            throw .badAddress(text, reason: "'\(host)' is not an IPv4 address")
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
