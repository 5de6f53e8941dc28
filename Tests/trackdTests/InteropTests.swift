import Foundation
import GPSCore
import NMEA
import Testing

/// `trackd convert` on every log of gpsd's regression corpus writes GPX that validates
/// against the GPX 1.1 schema and that GPSBabel and Python's gpxpy read back point for point.
@Suite("GPX from real receivers, read by other tools", .serialized)
struct InteropTests {
    /// Logs whose receiver sends no checksums: converted with --allow-missing-checksum.
    static let noChecksumLogs: Set<String> = ["hp58534a.log"]

    struct Converted {
        var log: String
        var gpx: URL
        var expected: [Coordinate]
        var segments: Int
    }

    /// Converts every corpus log into `dir` and works out, independently of the GPX, the points it must hold.
    static func convertCorpus(into dir: URL) throws -> [Converted] {
        var out: [Converted] = []
        for log in Support.corpusLogs {
            let input = Support.corpus.appendingPathComponent(log)
            let gpx = dir.appendingPathComponent(log + ".gpx")
            let lenient = noChecksumLogs.contains(log)
            var args = ["convert", input.path, "-o", gpx.path, "--json"]
            if lenient { args.append("--allow-missing-checksum") }
            let result = try Support.trackd(args)
            #expect(result.status == 0, "\(log): \(result.stderr)")
            let summary = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]

            var parser = NMEAParser(allowMissingChecksum: lenient)
            var expected: [Coordinate] = []
            let bytes = try Data(contentsOf: input)
            bytes.withUnsafeBytes { raw in
                parser.parse(raw) { if let c = $0.coordinate { expected.append(c) } }
            }
            parser.finish { if let c = $0.coordinate { expected.append(c) } }
            #expect(summary["points"] as? Int == expected.count, "\(log): summary \(summary)")
            out.append(Converted(log: log, gpx: gpx, expected: expected, segments: summary["segments"] as? Int ?? -1))
        }
        return out
    }

    @Test("every corpus log converts to GPX that xmllint validates, GPSBabel and gpxpy read back identically")
    func corpusRoundTrip() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let converted = try InteropTests.convertCorpus(into: dir)
        #expect(converted.count >= 80)
        #expect(converted.reduce(0) { $0 + $1.expected.count } > 1500)

        // 1. The GPX 1.1 schema, all files in one xmllint run.
        let lint = try Support.run("/usr/bin/xmllint", ["--noout", "--schema", Support.gpxSchema.path] + converted.map(\.gpx.path))
        #expect(lint.status == 0, "xmllint: \(lint.stderr.split(separator: "\n").filter { !$0.hasSuffix("validates") }.prefix(10))")

        // 2. GPSBabel reads each file as a track and writes it again; its points must be ours.
        for c in converted {
            let again = c.gpx.deletingPathExtension().appendingPathExtension("babel.gpx")
            let babel = try Support.run("gpsbabel", ["-t", "-i", "gpx", "-f", c.gpx.path, "-o", "gpx,gpxver=1.1", "-F", again.path])
            #expect(babel.status == 0, "\(c.log): gpsbabel: \(babel.stderr)")
            let points = try trackPoints(inGPX: again)
            #expect(points.count == c.expected.count, "\(c.log): gpsbabel read \(points.count) points, trackd wrote \(c.expected.count)")
            for (p, e) in zip(points, c.expected) {
                #expect(abs(p.latitude - e.latitude) <= 2e-9 && abs(p.longitude - e.longitude) <= 2e-9,
                        "\(c.log): gpsbabel read \(p), the fix was \(e)")
            }
        }

        // 3. gpxpy reads every file: points per file, coordinates and segment counts.
        let script = """
            import gpxpy, json, sys
            out = {}
            for path in sys.argv[1:]:
                with open(path) as f:
                    g = gpxpy.parse(f)
                segs = [s for t in g.tracks for s in t.segments]
                out[path] = {"segments": len(segs), "points": [[p.latitude, p.longitude] for s in segs for p in s.points]}
            print(json.dumps(out))
            """
        let py = try Support.run(Support.python, ["-c", script] + converted.map(\.gpx.path))
        #expect(py.status == 0, "gpxpy (\(Support.python)): \(py.stderr); run .ci/run or make setup to install it")
        let read = try JSONSerialization.jsonObject(with: py.stdout) as? [String: [String: Any]] ?? [:]
        for c in converted {
            let entry = read[c.gpx.path] ?? [:]
            let points = (entry["points"] as? [[Double]]) ?? []
            #expect(points.count == c.expected.count, "\(c.log): gpxpy read \(points.count) points, trackd wrote \(c.expected.count)")
            #expect(entry["segments"] as? Int == c.segments, "\(c.log): gpxpy read \(entry["segments"] ?? "none") segments")
            for (p, e) in zip(points, c.expected) where p.count == 2 {
                #expect(abs(p[0] - e.latitude) <= 1e-9 && abs(p[1] - e.longitude) <= 1e-9,
                        "\(c.log): gpxpy read \(p), the fix was \(e)")
            }
        }
    }
}

/// The `lat`/`lon` of every `<trkpt>` in a GPX file, in order.
func trackPoints(inGPX url: URL) throws -> [Coordinate] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var points: [Coordinate] = []
    var rest = text[...]
    while let start = rest.range(of: "<trkpt ") {
        rest = rest[start.upperBound...]
        guard let end = rest.firstIndex(of: ">") else { break }
        let tag = rest[..<end]
        func attribute(_ name: String) -> Double? {
            guard let r = tag.range(of: name + "=\"") else { return nil }
            let value = tag[r.upperBound...].prefix { $0 != "\"" }
            return Double(value)
        }
        if let lat = attribute("lat"), let lon = attribute("lon") {
            points.append(Coordinate(latitude: lat, longitude: lon))
        }
    }
    return points
}
