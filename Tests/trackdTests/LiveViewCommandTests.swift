import Foundation
import Testing
import TrackdTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The live view in a real headless Chromium: `trackd record --serve` and `trackd serve`,
/// checked through the page's DOM against the store.
@Suite("live view in a headless browser", .serialized)
struct LiveViewCommandTests {
    /// Points drawn: the vertices of every segment's polyline.
    static let drawn = "[...document.querySelectorAll('#path polyline')].reduce((n, l) => n + l.points.numberOfItems, 0)"
    static let segmentsDrawn = "document.querySelectorAll('#path polyline').length"
    /// How far the current-position dot is from the map's centre, in CSS pixels.
    static let dotOffCentre = """
        (() => { const b = document.getElementById('map').getBoundingClientRect();
                 const d = document.getElementById('position');
                 return Math.hypot(d.cx.baseVal.value - b.width / 2, d.cy.baseVal.value - b.height / 2); })()
        """

    @Test("record --serve: the path grows in the page as points are committed, ends equal to the store, and a late page gets it all")
    func recordServe() throws {
        try #require(HeadlessChromium.isInstalled, "Debian's chromium is needed (scripts/bootstrap installs it)")
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let port = try GPSDHarness.freePort()
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--duration", "20m", "--no-chime",
             "--store", store.path, "--serve", "127.0.0.1:\(port)"], in: dir)
        defer { recorder.stop() }
        let url = "http://127.0.0.1:\(port)/"
        #expect(Support.waitUntil(atMost: 30) { recorder.stderr.contains("live view on \(url)") }, "\(recorder.stderr)")

        let browser = try HeadlessChromium(in: dir)
        defer { browser.close() }
        let first = try browser.open(url)
        #expect(try Support.waitUntil(atMost: 30) { try first.number(Self.drawn) >= 20 })
        // Never more than the store holds: what is drawn was committed.
        let early = try first.number(Self.drawn)
        let committed = Support.rowCount(store, "point", track: 1) ?? 0
        #expect(early <= Double(committed), "drawn \(early), committed \(committed)")
        #expect(try Support.waitUntil(atMost: 30) { try first.number(Self.drawn) >= early + 40 }, "the path grows")

        // A phone's screen: the panel fits its width, nothing came from elsewhere.
        #expect(try first.evaluate("document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        #expect(try first.evaluate("(() => { const r = document.getElementById('panel').getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight; })()") as? Bool == true)
        #expect(try first.evaluate("performance.getEntriesByType('resource').every(e => e.name.startsWith(location.origin))") as? Bool == true)
        #expect(try first.evaluate("document.getElementById('signal').dataset.signal") as? String == "strong")
        #expect(try first.evaluate("document.getElementById('position').getAttribute('visibility')") as? String == "visible")
        #expect(try first.evaluate("document.getElementById('accuracy').getAttribute('visibility')") as? String == "visible")

        let png = try first.screenshot()
        try png.write(to: dir.appendingPathComponent("live.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let size = Self.pngSize(png)
        #expect(size.0 == 824 && size.1 == 1830, "412 × 915 CSS pixels at a device scale of 2, not \(size)")

        // Following: the current position stays in the middle, until the user pans; 10 s later
        // the map follows again.
        #expect(try Support.waitUntil(atMost: 10) { try first.number(Self.dotOffCentre) < 2 })
        try first.drag(from: (200, 300), to: (120, 200))
        #expect(try first.evaluate("document.getElementById('map').dataset.following") as? String == "false")
        let grown = try first.number(Self.drawn)
        #expect(try Support.waitUntil(atMost: 8) { try first.number(Self.drawn) > grown + 5 })
        #expect(try first.evaluate("document.getElementById('map').dataset.following") as? String == "false", "still paused")
        #expect(try first.number(Self.dotOffCentre) > 20, "the map stays where the user put it")
        #expect(try Support.waitUntil(atMost: 15) { try first.evaluate("document.getElementById('map').dataset.following") as? String == "true" })
        #expect(try Support.waitUntil(atMost: 5) { try first.number(Self.dotOffCentre) < 2 })
        // A zoom (the wheel, here away from the position) pauses following the same way.
        let zoom = try first.number("Number(document.getElementById('map').dataset.zoom)")
        try first.wheel(at: (60, 120), deltaY: 300)
        #expect(try first.evaluate("document.getElementById('map').dataset.following") as? String == "false")
        #expect(try first.number("Number(document.getElementById('map').dataset.zoom)") < zoom, "zoomed out")
        #expect(try Support.waitUntil(atMost: 15) { try first.evaluate("document.getElementById('map').dataset.following") as? String == "true" })

        // A page opened late gets the whole track so far, from the first point.
        let before = Support.rowCount(store, "point", track: 1) ?? 0
        #expect(recorder.isRunning, "the late page opens during the recording")
        let late = try browser.open(url)
        #expect(try Support.waitUntil(atMost: 30) { try late.number(Self.drawn) >= Double(before) })
        #expect(try late.evaluate("document.querySelector('#path polyline').points.getItem(0).x") as? NSNumber == 0, "starts at the first point")

        // When the recording ends, both pages hold exactly the store's points and segments.
        #expect(recorder.waitForEnd(atMost: 90) == .exited(0), "\(recorder.stderr)")
        let track = try #require(Support.tracks(store).first)
        let points = try #require(track["points"] as? Int)
        let segments = try #require(track["segments"] as? Int)
        for page in [first, late] {
            #expect(try Support.waitUntil(atMost: 10) { try page.number(Self.drawn) == Double(points) }, "drawn \((try? page.number(Self.drawn)) ?? -1), stored \(points)")
            #expect(try page.number(Self.segmentsDrawn) == Double(segments))
            #expect(try page.evaluate("document.getElementById('map').dataset.state") as? String == "finished")
        }
        let last = try #require(Support.query(store, "SELECT latitude || ' ' || longitude FROM point WHERE track_id = 1 ORDER BY number DESC LIMIT 1")?.first)
        let shown = try #require(first.evaluate("(m => m.lastLatitude + ' ' + m.lastLongitude)(document.getElementById('map').dataset)") as? String)
        let (a, b) = (last.split(separator: " ").compactMap { Double($0) }, shown.split(separator: " ").compactMap { Double($0) })
        #expect(a.count == 2 && b.count == 2 && abs(a[0] - b[0]) < 1e-6 && abs(a[1] - b[1]) < 1e-6, "store \(last), page \(shown)")
    }

    @Test("trackd serve: a finished track from the store alone, then a recording in another process, across a server restart")
    func serveFromStore() throws {
        try #require(HeadlessChromium.isInstalled, "Debian's chromium is needed (scripts/bootstrap installs it)")
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let recorded = try Support.trackd(["record", "--source", Support.sample.path, "--no-chime", "--store", store.path])
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let summary = try #require(Support.tracks(store).first)
        let points = try #require(summary["points"] as? Int)
        let perSegment = (Support.query(store, "SELECT count(*) FROM point WHERE track_id = 1 GROUP BY segment ORDER BY segment") ?? [])
            .compactMap { Int($0) }

        let port = try GPSDHarness.freePort()
        let url = "http://127.0.0.1:\(port)/"
        var server = try BackgroundProcess(["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)"], in: dir, label: "serve1")
        defer { server.stop() }
        #expect(Support.waitUntil(atMost: 30) { server.stderr.contains("live view on \(url)") }, "\(server.stderr)")

        let browser = try HeadlessChromium(in: dir)
        defer { browser.close() }
        let page = try browser.open(url, width: 1280, height: 800, mobile: false)
        #expect(try Support.waitUntil(atMost: 30) { try page.number(Self.drawn) == Double(points) })
        let drawnPerSegment = try page.evaluate("[...document.querySelectorAll('#path polyline')].map(l => l.points.numberOfItems)") as? [Int]
        #expect(drawnPerSegment == perSegment, "one line per segment, each with the segment's points")
        #expect(try page.evaluate("document.getElementById('map').dataset.state") as? String == "finished")
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(try page.evaluate("document.getElementById('distance').textContent") as? String
            == String(format: "%.2f km", distance / 1000))

        // A recorder in another process starts a new track: the page, following the latest,
        // starts again with it and draws it as it grows.
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--duration", "4m", "--no-chime", "--store", store.path],
            in: dir, label: "record")
        defer { recorder.stop() }
        #expect(try Support.waitUntil(atMost: 30) {
            try page.evaluate("document.getElementById('map').dataset.track") as? String == "2" && page.number(Self.drawn) >= 10
        })

        // The server goes away and comes back: the page reconnects and carries on where it
        // was, with no point twice.
        server.send(SIGTERM)
        #expect(server.waitForEnd(atMost: 20) == .exited(0), "\(server.stderr)")
        #expect(try Support.waitUntil(atMost: 10) {
            try page.evaluate("document.getElementById('connection').dataset.state") as? String == "reconnecting"
        })
        server = try BackgroundProcess(["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)"], in: dir, label: "serve2")
        #expect(recorder.waitForEnd(atMost: 60) == .exited(0), "\(recorder.stderr)")
        let stored = Support.rowCount(store, "point", track: 2) ?? -1
        #expect(try Support.waitUntil(atMost: 30) { try page.number(Self.drawn) == Double(stored) }, "drawn \((try? page.number(Self.drawn)) ?? -1), stored \(stored)")
        #expect(try page.evaluate("document.getElementById('map').dataset.state") as? String == "finished")
        let numbers = try page.evaluate("document.getElementById('map').dataset.lastNumber") as? String
        #expect(numbers == String(stored))
    }

    @Test("serve --tiles draws the folder's tiles under the path, and serves nothing but DIR/z/x/y.png")
    func tiles() throws {
        try #require(HeadlessChromium.isInstalled, "Debian's chromium is needed (scripts/bootstrap installs it)")
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let tiles = dir.appendingPathComponent("tiles")
        try RenderCommandTests.writeTiles(into: tiles)
        try Data("secret".utf8).write(to: dir.appendingPathComponent("secret.png"))

        let port = try GPSDHarness.freePort()
        let server = try BackgroundProcess(
            ["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)", "--tiles", tiles.path], in: dir, label: "serve")
        defer { server.stop() }
        #expect(Support.waitUntil(atMost: 30) { server.stderr.contains("live view on") }, "\(server.stderr)")
        let browser = try HeadlessChromium(in: dir)
        defer { browser.close() }
        let page = try browser.open("http://127.0.0.1:\(port)/", width: 1280, height: 800, mobile: false)
        #expect(try Support.waitUntil(atMost: 30) { try page.number("document.querySelectorAll('#tiles image').length") > 0 })
        let loaded = "performance.getEntriesByType('resource').filter(e => e.name.includes('/tiles/') && e.name.endsWith('.png') && e.responseStatus === 200).length"
        let debug = "JSON.stringify({zoom: document.getElementById('map').dataset.zoom, images: [...document.querySelectorAll('#tiles image')].map(i => i.getAttribute('href')).slice(0, 5), entries: performance.getEntriesByType('resource').map(e => [e.name, e.responseStatus]).slice(0, 8)})"
        #expect(try Support.waitUntil(atMost: 10) { try page.number(loaded) > 0 }, "\(String(describing: try? page.evaluate(debug)))")
        #expect(try page.evaluate("document.getElementById('grid-fill').getAttribute('visibility')") as? String == "hidden")

        func status(_ path: String) throws -> String {
            try Support.run("/usr/bin/curl", ["-s", "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)\(path)"]).stdoutText
        }
        let zoom = 14
        let n = Double(1 << zoom)
        let x = Int(((8.04 + 180.0) / 360.0 * n).rounded(.down))
        let phi: Double = 46.62 * Double.pi / 180.0
        let mercator: Double = log(tan(phi) + 1.0 / cos(phi))
        let y = Int(((1.0 - mercator / Double.pi) / 2.0 * n).rounded(.down))
        #expect(try status("/tiles/\(zoom)/\(x)/\(y).png") == "200")
        #expect(try status("/tiles/\(zoom)/\(x)/\(y + 1000).png") == "404", "a tile that is not there")
        #expect(try status("/tiles/../secret.png") == "404")
        #expect(try status("/tiles/a/b/c.png") == "404")
        #expect(try status("/tiles/14/..%2F..%2Fsecret/1.png") == "404")
    }

    @Test("a track across the antimeridian is drawn the short way, not across the world")
    func antimeridian() throws {
        try #require(HeadlessChromium.isInstalled, "Debian's chromium is needed (scripts/bootstrap installs it)")
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("bering.nmea")
        try Self.antimeridianLog().write(to: log, atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("tracks.sqlite")
        let recorded = try Support.trackd(["record", "--source", log.path, "--no-chime", "--store", store.path])
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let points = try #require(Support.tracks(store).first?["points"] as? Int)
        let east = Support.query(store, "SELECT count(*) FROM point WHERE longitude > 0")?.first.flatMap { Int($0) } ?? 0
        #expect(east > 5 && east < points - 5, "the track has points on both sides of 180°")

        let port = try GPSDHarness.freePort()
        let server = try BackgroundProcess(["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)"], in: dir, label: "serve")
        defer { server.stop() }
        #expect(Support.waitUntil(atMost: 30) { server.stderr.contains("live view on") }, "\(server.stderr)")
        let browser = try HeadlessChromium(in: dir)
        defer { browser.close() }
        let page = try browser.open("http://127.0.0.1:\(port)/")
        #expect(try Support.waitUntil(atMost: 30) { try page.number(Self.drawn) == Double(points) })
        // Zoom-20 pixels from the first point: a few hundred metres is some thousands; a line
        // the long way round would be hundreds of millions.
        let widest = try page.number("Math.max(...[...document.querySelectorAll('#path polyline')].flatMap(l => Array.from({length: l.points.numberOfItems}, (_, i) => Math.abs(l.points.getItem(i).x))))")
        #expect(widest > 100 && widest < 100_000, "widest \(widest) pixels")
        #expect(try page.number(Self.dotOffCentre) < 2, "the position is in view")
    }

    /// One minute of 1 Hz GGA and RMC at 65.5° N, eastward across 180° at about 5 m/s.
    static func antimeridianLog() -> String {
        func sentence(_ body: String) -> String {
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
        }
        var text = "# Name: across the antimeridian, made by trackd's tests\n"
        for second in 0..<60 {
            var longitude = 179.9970 + Double(second) * 0.0001
            if longitude > 180 { longitude -= 360 }
            let degrees = Int(abs(longitude))
            let minutes = (abs(longitude) - Double(degrees)) * 60
            let lon = String(format: "%03d%07.4f", degrees, minutes) + (longitude < 0 ? ",W" : ",E")
            let lat = "6530.0000,N"
            let time = String(format: "1200%02d.00", second)
            text += sentence("GPGGA,\(time),\(lat),\(lon),1,09,0.8,12.0,M,0.0,M,,")
            text += sentence("GPRMC,\(time),A,\(lat),\(lon),9.0,90.0,140924,,,A")
        }
        return text
    }

    @Test("a port in use stops record --serve before anything is recorded, and serve, with an error naming the address")
    func portInUse() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let (socket, port) = try Self.listeningSocket()
        defer { close(socket) }

        let record = try Support.trackd([
            "record", "--source", "simulate:hike", "--speed", "20", "--duration", "2m", "--no-chime",
            "--store", store.path, "--serve", "127.0.0.1:\(port)",
        ])
        #expect(record.status == 1, "\(record.stderr)")
        #expect(record.stderr.contains("127.0.0.1:\(port)") && record.stderr.contains("already in use"), "\(record.stderr)")
        #expect(try Support.tracks(store).isEmpty, "no track was started")
        // A bad limit for the live view, from the environment: refused before a track is made.
        var environment = ProcessInfo.processInfo.environment
        environment["TRACKD_LIVE_CONNECTIONS"] = "0"
        let badLimit = try Support.run(Support.trackd.path, [
            "record", "--source", Support.sample.path, "--no-chime", "--store", store.path, "--serve", "127.0.0.1:0",
        ], environment: environment)
        #expect(badLimit.status != 0 && badLimit.stderr.contains("TRACKD_LIVE_CONNECTIONS must be"), "\(badLimit.stderr)")
        #expect(try Support.tracks(store).isEmpty, "no track was left behind")

        // The configuration file asks for a live view on that port; --serve none turns it off.
        let config = dir.appendingPathComponent("trackd.toml")
        try "serve = \"127.0.0.1:\(port)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try Support.trackd(["record", "--source", Support.sample.path, "--no-chime", "--store", store.path, "--config", config.path])
        #expect(fromFile.status == 1 && fromFile.stderr.contains("already in use"), "\(fromFile.stderr)")
        let recorded = try Support.trackd([
            "record", "--source", Support.sample.path, "--no-chime", "--store", store.path, "--config", config.path, "--serve", "none",
        ])
        try #require(recorded.status == 0, "\(recorded.stderr)")
        #expect(!recorded.stderr.contains("live view"), "\(recorded.stderr)")
        let serve = try Support.trackd(["serve", "--store", store.path, "--bind", "127.0.0.1:\(port)"])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("127.0.0.1:\(port)") && serve.stderr.contains("already in use"), "\(serve.stderr)")

        // An address of another machine (TEST-NET-1), and a name that does not resolve.
        let foreign = try Support.trackd(["serve", "--store", store.path, "--bind", "192.0.2.1:\(port)"])
        #expect(foreign.status == 1 && foreign.stderr.contains("'192.0.2.1' is not an address of this machine"), "\(foreign.stderr)")
        let unknown = try Support.trackd(["serve", "--store", store.path, "--bind", "nosuchhost.invalid:\(port)"])
        // (A resolver that answers for every name makes it "not an address of this machine".)
        #expect(unknown.status == 1 && unknown.stderr.contains("'nosuchhost.invalid'"), "\(unknown.stderr)")
    }

    @Test("bad addresses, tracks and stores are usage errors that say what to give", arguments: [
        (["record", "--source", "simulate:hike", "--serve", "127.0.0.1:99999"], "port must be a number from 0 to 65535"),
        (["record", "--source", "simulate:hike", "--serve", ":8080"], "0.0.0.0:PORT"),
        (["record", "--source", "simulate:hike", "--serve", "300.1.1.1:80"], "not an IPv4 address"),
        (["serve", "--bind", "[::1]"], "port is missing"),
        (["serve", "zero"], "'latest'"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let result = try Support.trackd(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("trackd's help lists serve; serve's and record's help give the address options")
    func help() throws {
        let top = try Support.trackd(["--help"])
        #expect(top.stdoutText.contains("serve") && top.stdoutText.contains("Serve the live view of a track"), "\(top.stdoutText)")
        let serve = try Support.trackd(["serve", "--help"])
        for part in ["USAGE: trackd serve [<id|latest>] [--bind <host:port>] [--tiles <dir>] [--store <path>]", "(default: 127.0.0.1:8080)", "0.0.0.0:8080 serves every network"] {
            #expect(serve.stdoutText.contains(part), "\(part) in \(serve.stdoutText)")
        }
        let record = try Support.trackd(["record", "--help"])
        #expect(record.stdoutText.contains("--serve <host:port>"), "\(record.stdoutText)")
        #expect(record.stdoutText.contains("--serve alone means 127.0.0.1:8080"), "\(record.stdoutText)")
    }

    @Test("serve without a store names the path and says how to make one")
    func serveWithoutStore() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("none.sqlite").path
        let result = try Support.trackd(["serve", "--store", missing, "--bind", "127.0.0.1:0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(missing), "\(result.stderr)")
    }

    /// A TCP socket listening on a free loopback port, and the port.
    static func listeningSocket() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw Support.Failure("cannot listen on a loopback port: errno \(errno)") }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ png: Data) -> (Int, Int) {
        guard png.count >= 24 else { return (0, 0) }
        let bytes = [UInt8](png[16..<24])
        func be(_ b: ArraySlice<UInt8>) -> Int { b.reduce(0) { $0 << 8 | Int($1) } }
        return (be(bytes[0..<4]), be(bytes[4..<8]))
    }
}
