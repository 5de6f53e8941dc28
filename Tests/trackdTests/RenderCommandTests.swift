import Foundation
import Testing

/// `trackd render` as a user runs it: the sample recorded into a store, drawn as SVG and
/// PNG, from the store and from its GPX export; bad input.
@Suite("trackd render")
struct RenderCommandTests {
    /// The text of the element with `id` in `svg`: `2.33 km` for `total-distance`.
    static func text(ofElementWithID id: String, in svg: String) -> String? {
        guard let start = svg.range(of: "id=\"\(id)\"") else { return nil }
        guard let open = svg[start.upperBound...].firstIndex(of: ">"),
              let close = svg[open...].range(of: "</text>") else { return nil }
        return String(svg[svg.index(after: open)..<close.lowerBound])
    }

    static let totalIDs = ["total-distance", "total-moving-time", "total-elevation-gain", "total-elevation-loss", "total-max-speed"]

    @Test("the sample renders as SVG that parses, with one group per segment and the distance of tracks --json within 1 %")
    func svgFromStore() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let track = try #require(try Support.tracks(store).first)
        let segments = try #require(track["segments"] as? Int)
        let listed = try #require(track["distance_m"] as? Double)

        let out = dir.appendingPathComponent("hike.svg")
        let render = try Support.trackd(["render", "latest", "-o", out.path, "--store", store.path])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("rendered track 1 'hike' -> \(out.path) (1200×900)"), "\(render.stderr)")
        let lint = try Support.run("/usr/bin/xmllint", ["--noout", out.path])
        #expect(lint.status == 0, "\(lint.stderr)")

        let svg = try String(contentsOf: out, encoding: .utf8)
        #expect(segments > 1, "the sample holds fix losses")
        #expect(try Support.count("<g class=\"segment\"", in: out) == segments)
        #expect(try Support.count("<circle id=\"start\"", in: out) == 1)
        #expect(try Support.count("<circle id=\"end\"", in: out) == 1)
        // The render's odometer (5 m steps, fix losses bridged) against the location
        // manager's: 2318 m and 2315 m for a true 2299 m.
        let distanceText = try #require(Self.text(ofElementWithID: "total-distance", in: svg))
        let kilometres = try #require(Double(distanceText.replacingOccurrences(of: " km", with: "")))
        #expect(abs(kilometres * 1000 - listed) <= listed * 0.01, "render \(distanceText), tracks \(listed) m")
        #expect(render.stderr.contains(distanceText), "the summary line differs from the picture: \(render.stderr)")
        // The sample climbs 163 m (its true path) and never descends.
        #expect(Self.text(ofElementWithID: "total-elevation-gain", in: svg) == "+163 m")
        #expect(Self.text(ofElementWithID: "total-elevation-loss", in: svg) == "0 m")
    }

    @Test("the GPX that export writes renders with the same totals and segments as the store")
    func gpxMatchesStore() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let gpx = dir.appendingPathComponent("hike.gpx")
        #expect(try Support.trackd(["export", "1", "-o", gpx.path, "--store", store.path]).status == 0)

        let fromStore = dir.appendingPathComponent("store.svg")
        let fromFile = dir.appendingPathComponent("file.svg")
        let a = try Support.trackd(["render", "1", "-o", fromStore.path, "--store", store.path])
        let b = try Support.trackd(["render", gpx.path, "-o", fromFile.path])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        let svgA = try String(contentsOf: fromStore, encoding: .utf8)
        let svgB = try String(contentsOf: fromFile, encoding: .utf8)
        for id in Self.totalIDs {
            let valueA = Self.text(ofElementWithID: id, in: svgA)
            #expect(valueA != nil, "\(id) missing")
            #expect(valueA == Self.text(ofElementWithID: id, in: svgB), "\(id)")
        }
        #expect(try Support.count("<g class=\"segment\"", in: fromFile) == Support.count("<trkseg>", in: gpx))
        #expect(svgB.contains("<title>hike</title>"), "the GPX's track name is the title")
    }

    @Test("PNG output has the requested size", arguments: [(640, 480), (1200, 900)])
    func pngSize(width: Int, height: Int) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let out = dir.appendingPathComponent("hike.png")
        let render = try Support.trackd(["render", "-o", out.path, "--width", "\(width)", "--height", "\(height)", "--store", store.path])
        #expect(render.status == 0, "\(render.stderr)")
        let png = try [UInt8](Data(contentsOf: out))
        try #require(png.count > 24, "no PNG written")
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        let be32 = { (at: Int) in png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == width)
        #expect(be32(20) == height)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    @Test("PNG without rsvg-convert is an error saying what to install, and writes nothing")
    func pngWithoutRasterizer() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let out = dir.appendingPathComponent("hike.png")
        let render = try Support.run(Support.trackd.path, ["render", "-o", out.path, "--store", store.path],
                                     environment: ["PATH": dir.path])
        #expect(render.status == 1)
        #expect(render.stderr.contains("install librsvg2-bin"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a file that is not GPX is an error naming it, exit 1, nothing written", arguments: [
        ("log.nmea", "$GNGGA,073000.00,4637.44265,N,00802.48276,E,1,12,0.87,1339.9,M,49.5,M,,*71\n", "is not a GPX file: it starts with"),
        ("places.kml", "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"></kml>\n", "is not a GPX file: its root element is <kml>, not <gpx>"),
        ("cut.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\">", "is not well-formed XML at line 3: the file ends inside <trkpt>"),
        ("empty.gpx", "", "is not a GPX file: it is empty"),
    ])
    func notGPX(name: String, content: String, message: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try content.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.svg")
        let render = try Support.trackd(["render", file.path, "-o", out.path])
        #expect(render.status == 1)
        #expect(render.stderr.contains("\(file.path) \(message)"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("an empty track, from the store or a GPX file, is an error: nothing to draw")
    func emptyTrack() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A receiver that never had a fix: the track is recorded, without points.
        let log = dir.appendingPathComponent("nofix.nmea")
        try "$GPGGA,073000.00,,,,,0,00,,,M,,M,,*4C\r\n$GPRMC,073000.00,V,,,,,,,140924,,,N*73\r\n"
            .write(to: log, atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("tracks.sqlite")
        let record = try Support.trackd(["record", "--source", log.path, "--no-chime", "--store", store.path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(try Support.tracks(store).first?["points"] as? Int == 0)

        let out = dir.appendingPathComponent("out.svg")
        let render = try Support.trackd(["render", "1", "-o", out.path, "--store", store.path])
        #expect(render.status == 1)
        #expect(render.stderr.contains("track 1 has no points; nothing to draw"), "\(render.stderr)")

        let gpx = dir.appendingPathComponent("empty-track.gpx")
        try "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg/></trk></gpx>".write(to: gpx, atomically: true, encoding: .utf8)
        let fromFile = try Support.trackd(["render", gpx.path, "-o", out.path])
        #expect(fromFile.status == 1)
        #expect(fromFile.stderr.contains("\(gpx.path) has no points; nothing to draw"), "\(fromFile.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a single point, and a track across the antimeridian, render as pictures")
    func oddTracks() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let single = dir.appendingPathComponent("single.gpx")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>one &amp; only</name><trkseg>
            <trkpt lat="46.6" lon="8.0"><ele>1200</ele><time>2024-09-14T07:30:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.write(to: single, atomically: true, encoding: .utf8)
        let dateline = dir.appendingPathComponent("dateline.gpx")
        let points = (0..<41).map { i -> String in
            var longitude = 179.99 + Double(i) * 0.0005
            if longitude > 180 { longitude -= 360 }
            return "<trkpt lat=\"-16.5\" lon=\"\(longitude)\"><time>2024-09-14T07:\(30 + i / 60):\(String(format: "%02d", i % 60))Z</time></trkpt>"
        }
        try ("<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>" + points.joined() + "</trkseg></trk></gpx>")
            .write(to: dateline, atomically: true, encoding: .utf8)
        for (file, pins) in [(single, 1), (dateline, 2)] {
            let out = dir.appendingPathComponent(file.lastPathComponent + ".svg")
            let render = try Support.trackd(["render", file.path, "-o", out.path])
            #expect(render.status == 0, "\(render.stderr)")
            #expect(try Support.run("/usr/bin/xmllint", ["--noout", out.path]).status == 0)
            #expect(try Support.count("class=\"pin\"", in: out) == pins)
        }
        let svg = try String(contentsOf: dir.appendingPathComponent("single.gpx.svg"), encoding: .utf8)
        #expect(svg.contains("<title>one &amp; only</title>"))
        let crossing = try String(contentsOf: dir.appendingPathComponent("dateline.gpx.svg"), encoding: .utf8)
        // 0.02° of longitude at 16.5° S: 2.13 km, not the 40 000 km the long way round.
        #expect(Self.text(ofElementWithID: "total-distance", in: crossing) == "2.13 km")
    }

    @Test("render's help lists its options, trackd's help lists render, and an unknown picture type is refused")
    func help() throws {
        let result = try Support.trackd(["render", "--help"])
        #expect(result.status == 0)
        let text = result.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ["<id|latest|file.gpx>", "-o, --output <file>", "--width <width>", "--height <height>", "--tiles <dir|url>", "--tile-cache <dir>", "--store <path>"] {
            #expect(text.contains(option), "render --help lacks \(option):\n\(result.stdoutText)")
        }
        #expect(try Support.trackd(["--help"]).stdoutText.contains("render"))
        let jpeg = try Support.trackd(["render", "-o", "/tmp/picture.jpg"])
        #expect(jpeg.status != 0)
        #expect(jpeg.stderr.contains("Please give the picture as a .svg or .png file"), "\(jpeg.stderr)")
        let tiny = try Support.trackd(["render", "-o", "/tmp/picture.svg", "--width", "100"])
        #expect(tiny.status != 0)
        #expect(tiny.stderr.contains("Please give a size from 480×400"), "\(tiny.stderr)")
    }

    @Test("--tiles draws the folder's z/x/y.png tiles under the path instead of the grid")
    func tiles() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        let tiles = dir.appendingPathComponent("tiles")
        try Self.writeTiles(into: tiles)
        let out = dir.appendingPathComponent("hike.svg")
        let render = try Support.trackd(["render", "-o", out.path, "--tiles", tiles.path, "--store", store.path])
        #expect(render.status == 0, "\(render.stderr)")
        let svg = try String(contentsOf: out, encoding: .utf8)
        let images = try Support.count("<image class=\"tile\"", in: out)
        #expect(images > 0)
        #expect(render.stderr.contains(", \(images) of \(images) tiles"), "\(render.stderr)")
        #expect(svg.contains("<g id=\"basemap\">") && !svg.contains("<g id=\"grid\""))
        #expect(try Support.run("/usr/bin/xmllint", ["--noout", out.path]).status == 0)

        let bare = dir.appendingPathComponent("bare.svg")
        let empty = dir.appendingPathComponent("no-tiles")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let without = try Support.trackd(["render", "-o", bare.path, "--tiles", empty.path, "--store", store.path])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stderr.contains(", 0 of \(images) tiles"), "\(without.stderr)")
        #expect(try Support.count("<g id=\"grid\"", in: bare) == 1, "no tiles found: the grid, not a blank map")
    }

    /// A 1×1 PNG as every tile around Grindelwald (the sample hike) at zoom 14 to 16, in
    /// `tiles/z/x/y.png`.
    static func writeTiles(into tiles: URL) throws {
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==") ?? Data()
        for zoom in 14...16 {
            let n = Double(1 << zoom)
            func tileX(_ lon: Double) -> Int { Int(((lon + 180) / 360 * n).rounded(.down)) }
            func tileY(_ lat: Double) -> Int {
                let phi = lat * .pi / 180
                return Int(((1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n).rounded(.down))
            }
            for x in tileX(7.95)...tileX(8.14) {
                let column = tiles.appendingPathComponent("\(zoom)/\(x)")
                try FileManager.default.createDirectory(at: column, withIntermediateDirectories: true)
                for y in tileY(46.66)...tileY(46.57) {
                    try png.write(to: column.appendingPathComponent("\(y).png"))
                }
            }
        }
    }
}
