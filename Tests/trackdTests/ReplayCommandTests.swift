import Foundation
import Testing

/// `trackd replay` on logs from trackd's own simulator, whose true path is known.
@Suite("trackd replay")
struct ReplayCommandTests {
    /// Simulates `route` into `dir`, returns the log and the true distance in metres.
    func simulate(_ route: String, duration: String, seed: Int, in dir: URL) throws -> (log: URL, truthMeters: Double) {
        let log = dir.appendingPathComponent("\(route).nmea")
        let truth = dir.appendingPathComponent("\(route).csv")
        let result = try Support.trackd(["simulate", route, "--duration", duration, "--seed", "\(seed)",
                                         "-o", log.path, "--truth", truth.path, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOf: truth, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = rows.first?.split(separator: ",").map(String.init) ?? []
        let column = try #require(header.firstIndex(of: "distance_m"))
        let last = try #require(rows.last?.split(separator: ",", omittingEmptySubsequences: false))
        return (log, Double(last[column]) ?? -1)
    }

    func replay(_ arguments: [String]) throws -> [String: Any] {
        let result = try Support.trackd(["replay"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    @Test("a simulated hike replays to within 2 % of the true distance, as valid GPX")
    func hikeDistance() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, truth) = try simulate("hike", duration: "30m", seed: 3, in: dir)
        let gpx = dir.appendingPathComponent("kept.gpx")
        let summary = try replay([log.path, "--accuracy", "best", "--activity", "fitness", "-o", gpx.path])
        for key in ["fixes", "points", "distance_m", "moving_s", "elapsed_s", "max_speed_mps", "signal_changes", "rejected"] {
            #expect(summary[key] != nil, "summary lacks \(key)")
        }
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(abs(distance - truth) / truth < 0.02, "replayed \(distance) m, true \(truth) m")
        let points = try #require(summary["points"] as? Int)
        #expect(points > 0 && points <= summary["fixes"] as? Int ?? 0)
        #expect(try trackPoints(inGPX: gpx).count == points)
        let lint = try Support.run("/usr/bin/xmllint", ["--noout", "--schema", Support.gpxSchema.path, gpx.path])
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    @Test("two hours standing still add under 20 m of distance")
    func standingStill() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, truth) = try simulate("standing-still", duration: "2h", seed: 5, in: dir)
        #expect(truth == 0)
        let summary = try replay([log.path])
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(distance < 20, "phantom distance \(distance) m")
        let convert = try Support.trackd(["convert", log.path, "--json", "-o", "/dev/null"])
        let all = try JSONSerialization.jsonObject(with: convert.stdout) as? [String: Any] ?? [:]
        #expect((all["points"] as? Int ?? 0) > 7000, "every fix kept by convert, for comparison")
    }

    @Test("a distance filter keeps fewer points", arguments: ["5", "25"])
    func distanceFilter(metres: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try simulate("city-run", duration: "10m", seed: 2, in: dir)
        let none = try replay([log.path, "--distance-filter", "none"])
        let filtered = try replay([log.path, "--distance-filter", metres])
        let kept = try #require(filtered["points"] as? Int)
        let all = try #require(none["points"] as? Int)
        #expect(kept < all)
        // Points at least `metres` apart over the run's distance bound how many there can be.
        let distance = try #require(none["distance_m"] as? Double)
        #expect(Double(kept) <= distance / (Double(metres) ?? 1) + 2)
    }

    @Test("bad options say what to give", arguments: [
        (["--distance-filter", "far"], "--distance-filter takes a number of metres"),
        (["--accuracy", "perfect"], "best-for-navigation"),
        (["--activity", "swimming"], "automotive-navigation"),
    ])
    func badOptions(arguments: [String], message: String) throws {
        let result = try Support.trackd(["replay", Support.sample.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}

@Suite("help texts")
struct HelpTextTests {
    @Test("each command's help lists its options", arguments: [
        ("replay", ["<log>", "--accuracy <accuracy>", "--activity <activity>", "--distance-filter <metres|none>",
                    "-o, --output <output>", "--json", "--allow-missing-checksum"]),
        ("simulate", ["<route>", "--rate <rate>", "--duration <duration>", "--noise <noise>", "--seed <seed>",
                      "--truth <truth>", "--speed <n|max>", "city-run, city-bicycle-ride, freeway-drive, hike"]),
    ])
    func help(command: String, expected: [String]) throws {
        let result = try Support.trackd([command, "--help"])
        #expect(result.status == 0)
        let text = result.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in expected {
            #expect(text.contains(option), "\(command) --help lacks \(option):\n\(result.stdoutText)")
        }
    }

    @Test("trackd lists its commands")
    func topLevel() throws {
        let result = try Support.trackd(["--help"])
        #expect(result.status == 0)
        for command in ["convert", "replay", "simulate"] {
            #expect(result.stdoutText.contains(command))
        }
    }
}
