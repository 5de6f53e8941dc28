import Foundation
import Testing
import TrackdTestSupport

/// `trackd render --tiles URL-TEMPLATE` against a real HTTP server (Python's http.server
/// serving a tile folder): tiles fetched once into the cache, then read from it offline.
@Suite("render with tiles from a server", .serialized)
struct RenderTileServerTests {
    /// Python's http.server on a free loopback port, serving `directory`; it logs each
    /// request to its standard error.
    static func httpServer(serving directory: URL, in dir: URL) throws -> (BackgroundProcess, Int) {
        let port = try GPSDHarness.freePort()
        let server = try BackgroundProcess(
            ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path],
            executable: URL(fileURLWithPath: "/usr/bin/python3"), in: dir, label: "http")
        let up = Support.waitUntil(atMost: 20) {
            (try? Support.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "http://127.0.0.1:\(port)/"]))?.status == 0
        }
        guard up else { throw Support.Failure("http.server did not start: \(server.stderr)") }
        return (server, port)
    }

    @Test("tiles from a URL template are fetched once into the cache, then drawn from it with the server gone")
    func fetchesOnceThenOffline() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let served = dir.appendingPathComponent("served")
        try RenderCommandTests.writeTiles(into: served)
        let cache = dir.appendingPathComponent("cache")
        let (server, port) = try Self.httpServer(serving: served, in: dir)
        defer { server.stop() }
        let template = "http://127.0.0.1:\(port)/{z}/{x}/{y}.png"

        let first = dir.appendingPathComponent("first.svg")
        let fetched = try Support.trackd(["render", "-o", first.path, "--tiles", template, "--tile-cache", cache.path, "--store", store.path])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let images = try Support.count("<image class=\"tile\"", in: first)
        #expect(images > 0)
        #expect(fetched.stderr.contains(", \(images) of \(images) tiles (\(images) fetched, 0 from the cache \(cache.path))"), "\(fetched.stderr)")
        let requests = server.stderr.components(separatedBy: ".png HTTP/").count - 1
        #expect(requests == images, "one request per tile: \(server.stderr)")
        let cachedFiles = FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") } ?? []
        #expect(cachedFiles.count == images, "the cache holds z/x/y.png")

        // The server goes away (a trail): the cache alone gives the same picture.
        server.stop()
        let second = dir.appendingPathComponent("second.svg")
        let offline = try Support.trackd(["render", "-o", second.path, "--tiles", template, "--tile-cache", cache.path, "--store", store.path])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stderr.contains("(0 fetched, \(images) from the cache"), "\(offline.stderr)")
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // And the cache is a tile folder --tiles reads as it is.
        let third = dir.appendingPathComponent("third.svg")
        #expect(try Support.trackd(["render", "-o", third.path, "--tiles", cache.path, "--store", store.path]).status == 0)
        #expect(try Data(contentsOf: first) == Data(contentsOf: third))
    }

    @Test("missing tiles (404) and an unreachable server leave the map blank with a warning, not an error")
    func missingAndUnreachable() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let (server, port) = try Self.httpServer(serving: empty, in: dir)
        defer { server.stop() }

        let out = dir.appendingPathComponent("blank.svg")
        let notFound = try Support.trackd([
            "render", "-o", out.path, "--tiles", "http://127.0.0.1:\(port)/{z}/{x}/{y}.png",
            "--tile-cache", dir.appendingPathComponent("c1").path, "--store", store.path,
        ])
        #expect(notFound.status == 0, "\(notFound.stderr)")
        #expect(notFound.stderr.contains("could not be fetched") && notFound.stderr.contains("HTTP error"), "\(notFound.stderr)")
        #expect(try Support.count("<g id=\"grid\"", in: out) == 1, "no tile: the grid")

        let closed = try GPSDHarness.freePort()
        let unreachable = try Support.trackd([
            "render", "-o", out.path, "--tiles", "http://127.0.0.1:\(closed)/{z}/{x}/{y}.png",
            "--tile-cache", dir.appendingPathComponent("c2").path, "--store", store.path,
        ])
        #expect(unreachable.status == 0, "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("cannot be reached"), "\(unreachable.stderr)")
    }

    @Test("a template without {z}, {x} or {y}, a folder that is not there, and --tile-cache alone are usage errors", arguments: [
        (["--tiles", "https://tile.example.org/{z}/{x}.png"], "has no {y}"),
        (["--tiles", "/nonexistent/tiles"], "neither a folder of z/x/y.png tiles nor an http:// or https:// URL template"),
        (["--tile-cache", "/tmp/cache"], "--tile-cache goes with --tiles URL-TEMPLATE"),
    ])
    func badTileOptions(arguments: [String], message: String) throws {
        let result = try Support.trackd(["render", "-o", "/tmp/never.svg"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
