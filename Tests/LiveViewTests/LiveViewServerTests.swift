import Foundation
import Logging
import ServiceLifecycle
import Testing
import TrackStore
import TrackdTestSupport
@testable import LiveView

/// A ``LiveViewServer`` listening on 127.0.0.1 on a port the system chose, over a store
/// with a recorded track; stopped at ``stop()``.
final class RunningServer {
    let temporary: TemporaryStore
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(limits: LiveViewLimits) async throws {
        temporary = try TemporaryStore()
        let writer = try temporary.beginTrack()
        try writer.appendPoints(30)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = LiveViewServer(
            store: try temporary.reader(), track: .latest, address: ListenAddress(host: "127.0.0.1", port: 0),
            limits: limits, logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: server)], logger: logger))
        self.group = group
        task = Task { try await group.run() }
        let url = try await server.listening.wait()
        guard let port = Int(url.split(separator: ":").last?.filter(\.isNumber) ?? "") else {
            throw HarnessError("no port in \(url)")
        }
        self.port = port
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// GET / until it answers 200, at most `seconds`: the status of each try.
    func getPage(atMost seconds: Double) -> [Int] {
        var statuses: [Int] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let status = (try? TCPClient.request("GET", "/", port: port, atMost: 2).status) ?? 0
            statuses.append(status)
            if status == 200 { break }
            usleep(100_000)
        }
        return statuses
    }
}

@Suite("the live view's server against real connections", .serialized, .timeLimit(.minutes(2)))
struct LiveViewServerTests {
    @Test("HEAD on each page, file and stream answers 200 with GET's headers and no body")
    func head() async throws {
        let server = try await RunningServer(limits: .production)
        for path in ["/", "/live.js", "/live.css", "/tiles.json"] {
            let get = try TCPClient.request("GET", path, port: server.port)
            let head = try TCPClient.request("HEAD", path, port: server.port)
            #expect(head.status == 200, "\(path)")
            #expect(head.body.isEmpty, "\(path): \(head.body.count) bytes")
            #expect(get.body.count > 0)
            for name in ["content-type", "content-length", "cache-control", "content-security-policy"] {
                #expect(head.headers[name] != nil && head.headers[name] == get.headers[name], "\(path) \(name)")
            }
        }
        // The stream: its headers, no body and no stream started (the connection closes).
        let client = try TCPClient(port: server.port)
        try client.send("HEAD /events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        guard case .closed(let bytes) = client.readUntilClosed(atMost: 5) else {
            Issue.record("HEAD /events left the connection open: a stream was started")
            await server.stop()
            return
        }
        let reply = try #require(HTTPReply(bytes, head: true))
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(reply.body.isEmpty, "\(String(decoding: reply.body, as: UTF8.self))")
        await server.stop()
    }

    @Test("connections that send half a request line, or nothing, are closed after the request timeout, and pages are served meanwhile")
    func slowClients() async throws {
        let server = try await RunningServer(limits: LiveViewLimits(maximumConnections: 1_000, requestTimeout: .seconds(2)))
        var slow: [TCPClient] = []
        for index in 0..<320 {
            let client = try TCPClient(port: server.port)
            if index % 2 == 0 { try client.send("GET /live.js HT") }
            slow.append(client)
        }
        // While all of them are open, a page is served at once.
        let page = try TCPClient.request("GET", "/", port: server.port, atMost: 5)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<html"))
        // Each slow connection is closed by the server, and nothing was answered to it.
        var stillOpen = 0
        var answered = 0
        let deadline = Date().addingTimeInterval(10)
        for client in slow {
            switch client.readUntilClosed(atMost: max(0.01, deadline.timeIntervalSinceNow)) {
            case .open: stillOpen += 1
            case .closed(let bytes): if !bytes.isEmpty { answered += 1 }
            }
        }
        #expect(stillOpen == 0, "\(stillOpen) of \(slow.count) slow connections still open")
        #expect(answered == 0)
        #expect(server.getPage(atMost: 5).last == 200)
        await server.stop()
    }

    @Test("over the cap, a connection gets 503 and is closed at once, the connections within it are served, and a freed place is taken again")
    func cap() async throws {
        let server = try await RunningServer(limits: LiveViewLimits(maximumConnections: 8, requestTimeout: .seconds(60)))
        let admitted = try (0..<8).map { _ in try TCPClient(port: server.port) }
        // Each is counted once it is set up; a request on the last one shows they all are.
        try admitted[7].send("GET /live.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try admitted[7].readResponse(atMost: 5).status == 200)
        let deadline = Date().addingTimeInterval(5)
        for _ in 0..<40 {
            let extra = try TCPClient(port: server.port)
            guard case .closed(let bytes) = extra.readUntilClosed(atMost: max(0.01, deadline.timeIntervalSinceNow)) else {
                Issue.record("a connection over the cap was left open")
                continue
            }
            #expect(HTTPReply(bytes, head: false)?.status == 503, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // The connections within the cap are still served, on the same connection.
        try admitted[0].send("GET /tiles.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try admitted[0].readResponse(atMost: 5).status == 200)
        // One goes away: its place is given to the next.
        admitted[1].send(shutdownWrite: ())
        #expect(server.getPage(atMost: 10).last == 200)
        await server.stop()
    }
}
