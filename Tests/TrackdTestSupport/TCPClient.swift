import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a server on 127.0.0.1, for tests that play clients a browser
/// would never be: one that sends half a request and waits, one that sends nothing, or a
/// request written byte for byte. Reads wait in `poll` with a bound; nothing blocks for ever.
public final class TCPClient {
    public let fd: Int32

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw HarnessError("cannot connect to 127.0.0.1:\(port): errno \(code)")
        }
        self.fd = fd
    }

    deinit {
        Glibc.close(fd)
    }

    /// Sends `text` whole.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HarnessError("send failed: errno \(errno)") }
            bytes = bytes.dropFirst(n)
        }
    }

    /// What the connection did within `seconds`.
    public enum Outcome: Equatable, Sendable {
        /// The server closed it (EOF or reset), after sending these bytes.
        case closed(Data)
        /// Still open after the bound, with these bytes received.
        case open(Data)
    }

    /// Reads until the server closes the connection or `seconds` pass.
    public func readUntilClosed(atMost seconds: Double) -> Outcome {
        var received = Data()
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .open(received) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, min(left * 1000, 1000))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .closed(received) }
            received.append(contentsOf: buffer[0..<n])
        }
    }

    /// Reads until `received` holds a whole response to a request without a body (HEAD, or a
    /// response with Content-Length), or `seconds` pass.
    public func readResponse(atMost seconds: Double, head: Bool = false) throws -> HTTPReply {
        var received = Data()
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            if let reply = HTTPReply(received, head: head) { return reply }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            received.append(contentsOf: buffer[0..<n])
        }
        if let reply = HTTPReply(received, head: head) { return reply }
        throw HarnessError("no whole HTTP response within \(seconds) s; received \(String(decoding: received, as: UTF8.self).prefix(200))")
    }

    /// `METHOD path` on a new connection, and the response.
    public static func request(_ method: String = "GET", _ path: String, port: Int, atMost seconds: Double = 30) throws -> HTTPReply {
        let client = try TCPClient(port: port)
        try client.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return try client.readResponse(atMost: seconds, head: method == "HEAD")
    }
}

/// An HTTP/1.1 response: status, headers (names lowercased) and body.
public struct HTTPReply: Equatable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    /// The response in `data` once it is whole: a head, and as much body as Content-Length
    /// says (none for a response to HEAD). Nil while it is not.
    public init?(_ data: Data, head: Bool) {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = data[end.upperBound...]
        if !head, let length = headers["content-length"].flatMap(Int.init) {
            guard body.count >= length else { return nil }
        }
        self.status = status
        self.headers = headers
        self.body = Data(body)
    }
}

extension TCPClient {
    /// Closes the sending side (the client is done): the server reads EOF.
    public func send(shutdownWrite: Void) {
        shutdown(fd, Int32(SHUT_WR))
    }
}
