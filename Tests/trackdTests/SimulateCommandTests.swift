import Foundation
import Testing

/// `trackd simulate` as a user runs it: the built binary and real files.
@Suite("trackd simulate")
struct SimulateCommandTests {
    @Test("simulate hike writes the NMEA and the truth, and convert accepts every sentence")
    func hikeToFiles() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let nmea = dir.appendingPathComponent("hike.nmea")
        let truth = dir.appendingPathComponent("hike.csv")
        let result = try Support.trackd(["simulate", "hike", "--duration", "60", "-o", nmea.path, "--truth", truth.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)

        let text = try String(contentsOf: nmea, encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(text.hasSuffix("\r\n"))
        #expect(lines.filter { $0.hasPrefix("$GNRMC") }.count == 60)
        let rows = try String(contentsOf: truth, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "utc,lat,lon,alt_msl_m,speed_mps,course_deg,distance_m,fix")
        #expect(rows.count == 61)

        let convert = try Support.trackd(["convert", nmea.path, "-o", dir.appendingPathComponent("hike.gpx").path, "--json"])
        #expect(convert.status == 0, "\(convert.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: convert.stdout) as? [String: Any])
        #expect(summary["rejected_total"] as? Int == 0)
        #expect(summary["sentences"] as? Int == lines.count)
        #expect(summary["fixes"] as? Int == 60)
        let fixRows = rows.dropFirst().filter { $0.hasSuffix(",1") }.count
        #expect(summary["points"] as? Int == fixRows)
    }

    @Test("the same arguments give the same bytes, and standard output matches the file")
    func reproducible() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("run.nmea")
        let args = ["simulate", "city-run", "--duration", "30", "--seed", "9", "--noise", "4"]
        #expect(try Support.trackd(args + ["-o", file.path]).status == 0)
        let piped = try Support.trackd(args + ["--speed", "max"])
        #expect(piped.status == 0)
        #expect(try Data(contentsOf: file) == piped.stdout)
        #expect(!piped.stdout.isEmpty)
    }

    @Test("--speed says what to give when it is not a positive number or max", arguments: ["fast", "0", "-2", "nan"])
    func speedValidation(value: String) throws {
        let result = try Support.trackd(["simulate", "hike", "--speed=\(value)"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Please give --speed as a positive number (1 for real time, 10 for ten times faster) or 'max'."),
                "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("an unknown route lists the routes")
    func unknownRoute() throws {
        let result = try Support.trackd(["simulate", "moonwalk"])
        #expect(result.status != 0)
        for route in ["city-run", "city-bicycle-ride", "freeway-drive", "hike", "standing-still"] {
            #expect(result.stderr.contains(route), "\(result.stderr)")
        }
    }

    @Test("--duration and --noise say what to give")
    func otherValidation() throws {
        let duration = try Support.trackd(["simulate", "hike", "--duration", "soon"])
        #expect(duration.status != 0)
        #expect(duration.stderr.contains("Please give --duration as a positive number of seconds"), "\(duration.stderr)")
        let noise = try Support.trackd(["simulate", "hike", "--noise=-1", "-o", "/dev/null"])
        #expect(noise.status != 0)
        #expect(noise.stderr.contains("Please give --noise as metres between 0 and 100"), "\(noise.stderr)")
    }

    @Test("a failed run leaves no file behind")
    func noPartialFiles() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let nmea = dir.appendingPathComponent("out.nmea")
        let result = try Support.trackd(["simulate", "hike", "--duration", "5", "-o", nmea.path,
                                         "--truth", dir.appendingPathComponent("missing/truth.csv").path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot create"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
