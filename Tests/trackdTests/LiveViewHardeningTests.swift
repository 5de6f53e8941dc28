import Foundation
import Testing
import TrackdTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The live view against clients no browser would be: hundreds that connect and send half a
/// request or nothing, more than it serves at once, under a low descriptor limit, during a
/// recording whose receiver is unplugged and plugged in again; and tiles that are symbolic
/// links out of the tiles folder.
@Suite("the live view against slow and hostile clients", .serialized, .timeLimit(.minutes(3)))
struct LiveViewHardeningTests {
    /// `trackd ARGUMENTS` under `ulimit -n LIMIT` with `environment`, in the background; the
    /// shell execs trackd, so the process id is trackd's.
    static func trackd(_ arguments: [String], descriptors limit: Int, environment: [String: String], in dir: URL, label: String) throws -> BackgroundProcess {
        let quoted = ([Support.trackd.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let variables = environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        return try BackgroundProcess(
            ["-c", "ulimit -n \(limit) && exec env \(variables) \(quoted)"], executable: URL(fileURLWithPath: "/bin/sh"),
            in: dir, label: label)
    }

    /// The CPU time (user and system) process `pid` has used, in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `count` connections to `port`, every other one sending half a request line.
    static func slowClients(_ count: Int, port: Int) throws -> [TCPClient] {
        try (0..<count).map { index in
            let client = try TCPClient(port: port)
            if index % 2 == 0 { try client.send("GET / HT") }
            return client
        }
    }

    /// GET / until it answers 200, at most `seconds`; the last status (0: no answer).
    static func page(port: Int, atMost seconds: Double) -> Int {
        var status = 0
        _ = Support.waitUntil(atMost: seconds, every: 0.2) {
            status = (try? TCPClient.request("GET", "/", port: port, atMost: 2).status) ?? 0
            return status == 200
        }
        return status
    }

    @Test("serve under a 128-descriptor limit: 300 slow clients get 503 over the cap, spin no core, are closed after the request timeout, and the page is served again")
    func slowClientsUnderLowLimit() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let port = try GPSDHarness.freePort()
        let server = try Self.trackd(
            ["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)"], descriptors: 128,
            environment: ["TRACKD_LIVE_REQUEST_TIMEOUT": "2"], in: dir, label: "serve")
        defer { server.stop() }
        #expect(Support.waitUntil(atMost: 30) { server.stderr.contains("live view on") }, "\(server.stderr)")
        // 128 descriptors leave room for 64 connections beside the store and the rest.
        #expect(server.stderr.contains("serves at most 64 connections, not 128"), "\(server.stderr)")

        let slow = try Self.slowClients(300, port: port)
        let before = try #require(Self.cpuSeconds(server.pid))
        Thread.sleep(forTimeInterval: 1)
        let used = try #require(Self.cpuSeconds(server.pid)) - before
        // A server whose accept fails with EMFILE spins a whole core (seconds of CPU here).
        #expect(used < 0.5, "\(used) s of CPU while 300 slow clients were connected")
        // Over the cap: answered 503 and closed at once. Within it: closed after the 2 s request
        // timeout with no answer. Every one is closed well within 10 s (however slowly a loaded
        // machine lets the server accept them), and told which it was by what it received.
        let deadline = Date().addingTimeInterval(10)
        var refused = 0
        var open = 0
        for client in slow {
            switch client.readUntilClosed(atMost: max(0.01, deadline.timeIntervalSinceNow)) {
            case .closed(let bytes): if HTTPReply(bytes, head: false)?.status == 503 { refused += 1 }
            case .open: open += 1
            }
        }
        #expect(refused >= 300 - 64, "\(refused) of 300 refused")
        #expect(open == 0, "\(open) slow connections still open")
        #expect(Self.page(port: port, atMost: 10) == 200)
        server.send(SIGTERM)
        #expect(server.waitForEnd() == .exited(0), "\(server.stderr)")
    }

    @Test("record --serve: with 400 slow clients held on the live view, an unplugged receiver is opened again at once and points keep coming")
    func slowClientsDuringReplug() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let epochs = Support.sampleEpochs
        try #require(epochs.count > 400)
        let port = try GPSDHarness.freePort()

        let receiver = try PluggedReceiver(at: dir.appendingPathComponent("gps0").path)
        // 256 descriptors, as a unit with a low LimitNOFILE=; the slow clients are held for
        // two minutes, longer than the test.
        let recorder = try Self.trackd(
            ["record", "--source", receiver.link, "--store", store.path, "--no-chime", "--serve", "127.0.0.1:\(port)"],
            descriptors: 256, environment: ["TRACKD_LIVE_REQUEST_TIMEOUT": "120"], in: dir, label: "record")
        defer { recorder.stop() }
        var feed = EpochFeed(epochs)
        #expect(Support.waitUntil(atMost: 30) {
            feed.feed(receiver.terminal, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= 50
        }, "\(recorder.stderr)")

        let slow = try Self.slowClients(400, port: port)
        feed.feed(receiver.terminal, epochs: 20)
        let beforeUnplug = Support.rowCount(store, "point", track: 1) ?? 0

        try receiver.unplug()
        #expect(Support.waitUntil(atMost: 10) {
            (Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = 'source-lost'") ?? []) == ["1"]
        }, "\(recorder.stderr)")

        try receiver.plugIn()
        // The recorder looks for the receiver again every second or so: resumed within a few.
        #expect(Support.waitUntil(atMost: 10) {
            feed.feed(receiver.terminal, epochs: 5)
            return Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = 'source-resumed'") == ["1"]
        }, "\(recorder.stderr)")
        #expect(Support.waitUntil(atMost: 30) {
            feed.feed(receiver.terminal, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= beforeUnplug + 50
        }, "\(recorder.stderr)")
        // The slow clients within the cap are still connected, all through.
        let open = slow.filter { $0.readUntilClosed(atMost: 0.01) == .open(Data()) }.count
        #expect(open >= 100, "\(open) slow clients still connected")

        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let track = try #require(try Support.tracks(store).first)
        #expect((track["segments"] as? Int ?? 0) >= 2, "\(track)")
    }

    @Test("serve --tiles: a symbolic link out of the folder is not served, a link to another tile inside it is")
    func tileLinks() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let tiles = dir.appendingPathComponent("tiles")
        let outside = dir.appendingPathComponent("outside")
        let files = FileManager.default
        try files.createDirectory(at: tiles.appendingPathComponent("14/1"), withIntermediateDirectories: true)
        try files.createDirectory(at: outside.appendingPathComponent("1"), withIntermediateDirectories: true)
        let tile = Data("inside tile".utf8)
        let secret = Data("outside secret".utf8)
        try tile.write(to: tiles.appendingPathComponent("14/1/1.png"))
        try secret.write(to: outside.appendingPathComponent("secret.png"))
        try secret.write(to: outside.appendingPathComponent("1/1.png"))
        // A file link out (absolute), a file link out (relative), a directory link out, a link in.
        try files.createSymbolicLink(atPath: tiles.appendingPathComponent("14/1/2.png").path, withDestinationPath: outside.appendingPathComponent("secret.png").path)
        try files.createSymbolicLink(atPath: tiles.appendingPathComponent("14/1/3.png").path, withDestinationPath: "../../../outside/secret.png")
        try files.createSymbolicLink(atPath: tiles.appendingPathComponent("15").path, withDestinationPath: outside.path)
        try files.createSymbolicLink(atPath: tiles.appendingPathComponent("14/1/4.png").path, withDestinationPath: "1.png")
        try files.createSymbolicLink(atPath: tiles.appendingPathComponent("14/2").path, withDestinationPath: "1")

        let port = try GPSDHarness.freePort()
        let server = try BackgroundProcess(
            ["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)", "--tiles", tiles.path], in: dir, label: "serve")
        defer { server.stop() }
        #expect(Support.waitUntil(atMost: 30) { server.stderr.contains("live view on") }, "\(server.stderr)")

        for path in ["/tiles/14/1/2.png", "/tiles/14/1/3.png", "/tiles/15/1/1.png"] {
            let reply = try TCPClient.request("GET", path, port: port)
            #expect(reply.status == 404, "\(path)")
            #expect(reply.body.range(of: Data("secret".utf8)) == nil, "\(path) served the file outside")
        }
        for path in ["/tiles/14/1/1.png", "/tiles/14/1/4.png", "/tiles/14/2/1.png"] {
            let reply = try TCPClient.request("GET", path, port: port)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.body == tile, "\(path)")
        }
    }
}
