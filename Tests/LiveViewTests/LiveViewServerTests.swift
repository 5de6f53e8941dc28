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

    /// GET / until it answers 200, at most `seconds`: the status of each try. Blocks.
    static func getPage(port: Int, atMost seconds: Double) -> [Int] {
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

/// `body`'s result, run on a thread of its own: the clients' blocking reads and waits must not
/// hold a thread of the cooperative pool, which runs the server under test (and other suites).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

@Suite("the live view's server against real connections", .serialized, .timeLimit(.minutes(2)))
struct LiveViewServerTests {
    @Test("HEAD on each page, file and stream answers 200 with GET's headers and no body")
    func head() async throws {
        let server = try await RunningServer(limits: .production)
        let port = server.port
        let replies = try await onThread {
            try ["/", "/live.js", "/live.css", "/tiles.json"].map { path in
                (path, try TCPClient.request("GET", path, port: port), try TCPClient.request("HEAD", path, port: port))
            }
        }
        for (path, get, head) in replies {
            #expect(head.status == 200, "\(path)")
            #expect(head.body.isEmpty, "\(path): \(head.body.count) bytes")
            #expect(get.body.count > 0)
            for name in ["content-type", "content-length", "cache-control", "content-security-policy"] {
                #expect(head.headers[name] != nil && head.headers[name] == get.headers[name], "\(path) \(name)")
            }
        }
        // The stream: its headers, no body and no stream started (the connection closes).
        let stream = try await onThread {
            let client = try TCPClient(port: port)
            try client.send("HEAD /events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return client.readUntilClosed(atMost: 5)
        }
        await server.stop()
        guard case .closed(let bytes) = stream else {
            Issue.record("HEAD /events left the connection open: a stream was started")
            return
        }
        let reply = try #require(HTTPReply(bytes, head: true))
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(reply.body.isEmpty, "\(String(decoding: reply.body, as: UTF8.self))")
    }

    @Test("connections that send half a request line, or nothing, are closed after the request timeout, and pages are served meanwhile")
    func slowClients() async throws {
        let server = try await RunningServer(limits: LiveViewLimits(maximumConnections: 1_000, requestTimeout: .seconds(2)))
        let port = server.port
        let (page, stillOpen, answered, later) = try await onThread {
            var slow: [TCPClient] = []
            for index in 0..<320 {
                let client = try TCPClient(port: port)
                if index % 2 == 0 { try client.send("GET /live.js HT") }
                slow.append(client)
            }
            // While all of them are open, a page is served at once.
            let page = try TCPClient.request("GET", "/", port: port, atMost: 5)
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
            return (page, stillOpen, answered, RunningServer.getPage(port: port, atMost: 5).last)
        }
        await server.stop()
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<html"))
        #expect(stillOpen == 0, "\(stillOpen) of 320 slow connections still open")
        #expect(answered == 0)
        #expect(later == 200)
    }

    @Test("over the cap, a connection gets 503 and is closed at once, the connections within it are served, and a freed place is taken again")
    func cap() async throws {
        let server = try await RunningServer(limits: LiveViewLimits(maximumConnections: 8, requestTimeout: .seconds(60)))
        let port = server.port
        let (first, extras, again, later) = try await onThread {
            let admitted = try (0..<8).map { _ in try TCPClient(port: port) }
            // Each is counted once it is set up; a request on the last one shows they all are.
            try admitted[7].send("GET /live.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = try admitted[7].readResponse(atMost: 5).status
            let deadline = Date().addingTimeInterval(5)
            let extras = try (0..<40).map { _ in
                try TCPClient(port: port).readUntilClosed(atMost: max(0.01, deadline.timeIntervalSinceNow))
            }
            // The connections within the cap are still served, on the same connection.
            try admitted[0].send("GET /tiles.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let again = try admitted[0].readResponse(atMost: 5).status
            // One goes away: its place is given to the next.
            admitted[1].send(shutdownWrite: ())
            return (first, extras, again, RunningServer.getPage(port: port, atMost: 10).last)
        }
        await server.stop()
        #expect(first == 200)
        for extra in extras {
            guard case .closed(let bytes) = extra else {
                Issue.record("a connection over the cap was left open")
                continue
            }
            #expect(HTTPReply(bytes, head: false)?.status == 503, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(again == 200)
        #expect(later == 200)
    }
}
