import Foundation
import Testing
import TrackdTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What real receivers do wrong, through the built binary: bad dates, multipath jumps.
@Suite("trackd with receivers' bad times and multipath jumps", .serialized, .timeLimit(.minutes(4)))
struct ReceiverFaultTests {
    /// A simulated log (and its true path) written into `dir`.
    static func simulate(
        _ route: String, duration: String, seed: Int, multipathEvery: Int? = nil, in dir: URL
    ) throws -> (log: URL, truth: URL) {
        let log = dir.appendingPathComponent("\(route)-\(seed).nmea")
        let truth = dir.appendingPathComponent("\(route)-\(seed).csv")
        var arguments = ["simulate", route, "--duration", duration, "--seed", String(seed), "-o", log.path, "--truth", truth.path, "-q"]
        if let multipathEvery { arguments += ["--multipath-every", String(multipathEvery)] }
        let result = try Support.trackd(arguments)
        try #require(result.status == 0, "\(result.stderr)")
        return (log, truth)
    }

    /// `text` with the `index`th RMC's date (field 9, ddmmyy) moved by `days` days.
    static func redate(_ text: String, rmc index: Int, days: Int) -> String {
        rewriteRMC(text, { $0 == index }) { fields in
            let date = fields[9]
            var components = DateComponents()
            components.day = Int(date.prefix(2))
            components.month = Int(date.dropFirst(2).prefix(2))
            components.year = 2000 + (Int(date.suffix(2)) ?? 0)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let moved = calendar.date(byAdding: .day, value: days, to: calendar.date(from: components)!)!
            let parts = calendar.dateComponents([.day, .month, .year], from: moved)
            fields[9] = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
        }
    }

    /// `text` with the fields of each RMC whose index passes `which` changed by `change`, its
    /// checksum made right again, and without VTG sentences when `dropVTG`.
    static func rewriteRMC(
        _ text: String, dropVTG: Bool = false, _ which: (Int) -> Bool, _ change: (inout [String]) -> Void
    ) -> String {
        var seen = 0
        // "\r\n" is one Character in Swift: split the normalised text.
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if dropVTG { lines.removeAll { $0.contains("VTG,") } }
        for (i, line) in lines.enumerated() where line.contains("RMC,") {
            defer { seen += 1 }
            guard which(seen), let star = line.lastIndex(of: "*") else { continue }
            var fields = line[line.index(after: line.startIndex)..<star].components(separatedBy: ",")
            change(&fields)
            let body = fields.joined(separator: ",")
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            lines[i] = "$" + body + String(format: "*%02X", sum)
        }
        return lines.joined(separator: "\r\n")
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(
        "one RMC dated a year ahead or a day back: replay, convert and record drop that fix and keep every other",
        arguments: [365, -1])
    func badDateInALog(days: Int) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (clean, _) = try Self.simulate("hike", duration: "1000s", seed: 4, in: dir)
        let glitched = dir.appendingPathComponent("glitched.nmea")
        let text = try String(contentsOf: clean, encoding: .utf8)
        try Self.redate(text, rmc: 300, days: days).write(to: glitched, atomically: true, encoding: .utf8)
        #expect(try String(contentsOf: glitched, encoding: .utf8) != text)

        // replay
        let replayClean = try Self.json(try Support.trackd(["replay", clean.path, "--json"]).stdout)
        let replayed = try Support.trackd(["replay", glitched.path, "--json"])
        let replay = try Self.json(replayed.stdout)
        let cleanPoints = try #require(replayClean["points"] as? Int)
        #expect((replay["points"] as? Int ?? 0) >= cleanPoints - 1, "\(replay)")
        #expect((replay["rejected"] as? [String: Int])?["time-outlier"] == 1, "\(replay)")
        #expect(replay["elapsed_s"] as? Double == replayClean["elapsed_s"] as? Double)

        // convert
        let convertClean = try Self.json(try Support.trackd(["convert", clean.path, "-o", "/dev/null", "--json"]).stdout)
        let convert = try Self.json(try Support.trackd(["convert", glitched.path, "-o", dir.appendingPathComponent("g.gpx").path, "--json"]).stdout)
        #expect(convert["points"] as? Int == (convertClean["points"] as? Int).map { $0 - 1 }, "\(convert)")
        #expect(convert["time_outliers"] as? Int == 1)
        #expect(convert["start"] as? String == convertClean["start"] as? String)
        #expect(convert["end"] as? String == convertClean["end"] as? String)
        #expect(try Support.validateGPX(dir.appendingPathComponent("g.gpx")).status == 0)

        // record
        let store = dir.appendingPathComponent("tracks.sqlite")
        for log in [clean, glitched] {
            let recorded = try Support.trackd(["record", "--source", log.path, "--store", store.path, "--no-chime"])
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let tracks = try Support.tracks(store)
        try #require(tracks.count == 2)
        #expect((tracks[1]["points"] as? Int ?? 0) >= (tracks[0]["points"] as? Int ?? 0) - 1, "\(tracks)")
        #expect((tracks[1]["duration_s"] as? Double ?? .infinity) <= (tracks[0]["duration_s"] as? Double ?? 0) + 1, "\(tracks)")
    }

    @Test("the receiver's date stepping back a day for good: record keeps every fix, in a new segment, with a time-step event")
    func sustainedStepRecorded() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (clean, _) = try Self.simulate("hike", duration: "1000s", seed: 4, in: dir)
        let stepped = dir.appendingPathComponent("stepped.nmea")
        let text = try String(contentsOf: clean, encoding: .utf8)
        try Self.rewriteRMC(text, { $0 >= 500 }) { fields in
            fields[9] = String(Int(fields[9].prefix(2))! - 1).leftPadded(2) + fields[9].dropFirst(2)
        }.write(to: stepped, atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("tracks.sqlite")
        for log in [clean, stepped] {
            #expect(try Support.trackd(["record", "--source", log.path, "--store", store.path, "--no-chime"]).status == 0)
        }
        let tracks = try Support.tracks(store)
        try #require(tracks.count == 2)
        #expect(tracks[1]["points"] as? Int == tracks[0]["points"] as? Int, "\(tracks)")
        #expect(tracks[1]["segments"] as? Int == (tracks[0]["segments"] as? Int).map { $0 + 1 }, "\(tracks)")
        #expect(Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE track_id = 2 AND kind = 'time-step'") == ["1"])
    }

    @Test("a receiver on a tty sends one fix dated a year ahead mid-recording: the points keep coming, and the log says what was dropped")
    func badDateLive() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try Self.simulate("hike", duration: "400s", seed: 5, in: dir)
        let text = Self.redate(try String(contentsOf: log, encoding: .utf8), rmc: 100, days: 365)
        let epochs = NMEAEpochs.split(text)
        try #require(epochs.count >= 400)
        let store = dir.appendingPathComponent("tracks.sqlite")
        let (terminal, recorder) = try Self.liveRecorder(in: dir, store: store)
        defer { recorder.stop() }
        var feed = EpochFeed(epochs)
        Self.feedUntilRead(&feed, to: terminal, store: store)
        try #require(feed.next < 100, "trackd took \(feed.next) epochs to start reading; \(recorder.stderr)")
        let skipped = feed.next - (Support.rowCount(store, "raw_fix", track: 1) ?? 0)
        #expect(Support.waitUntil(atMost: 60) {
            feed.feed(terminal, epochs: 10, pauseMicroseconds: 10_000)
            return feed.isFinished && (Support.rowCount(store, "raw_fix", track: 1) ?? 0) >= epochs.count - skipped - 2
        }, "\(recorder.stderr)")
        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let points = Support.rowCount(store, "point", track: 1) ?? 0
        let received = Support.rowCount(store, "raw_fix", track: 1) ?? 0
        // Before the fix, the track froze at the glitch (epoch 100 of 400).
        #expect(points >= received - 40, "\(points) points of \(received) fixes; \(recorder.stderr)")
        #expect(recorder.stderr.contains("dropped a fix dated"), "\(recorder.stderr)")
    }

    /// `trackd record` from a new pseudo-terminal into `store`, without chimes.
    static func liveRecorder(in dir: URL, store: URL) throws -> (PseudoTerminal, BackgroundProcess) {
        let terminal = try PseudoTerminal()
        let recorder = try BackgroundProcess(
            ["record", "--source", terminal.slavePath, "--baud", "9600", "--store", store.path, "--no-chime"], in: dir)
        return (terminal, recorder)
    }

    /// Writes epochs one at a time until trackd has committed one (it reads the tty). Epochs
    /// written before it opened the tty may be lost.
    static func feedUntilRead(_ feed: inout EpochFeed, to terminal: PseudoTerminal, store: URL) {
        _ = Support.waitUntil(atMost: 30) {
            feed.feed(terminal, epochs: 1, pauseMicroseconds: 0)
            return (Support.rowCount(store, "raw_fix", track: 1) ?? 0) > 0
        }
    }

    @Test("a receiver that sends garbage for over 10 s mid-recording is warned about once, and the recording goes on")
    func garbageMidRecording() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try Self.simulate("hike", duration: "200s", seed: 6, in: dir)
        let epochs = NMEAEpochs.split(try String(contentsOf: log, encoding: .utf8))
        let store = dir.appendingPathComponent("tracks.sqlite")
        let (terminal, recorder) = try Self.liveRecorder(in: dir, store: store)
        defer { recorder.stop() }
        var feed = EpochFeed(epochs)
        #expect(Support.waitUntil(atMost: 30) {
            feed.feed(terminal, epochs: 1, pauseMicroseconds: 0)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= 20
        }, "\(recorder.stderr)")
        let garbageUntil = Date().addingTimeInterval(12)
        var random = SystemRandomNumberGenerator()
        while Date() < garbageUntil {
            terminal.writeNow(String((0..<60).map { _ in Character(UnicodeScalar(UInt8.random(in: 48...90, using: &random))) }))
            usleep(100_000)
        }
        let before = Support.rowCount(store, "point", track: 1) ?? 0
        feed.feed(terminal, epochs: 30, pauseMicroseconds: 10_000)
        #expect(Support.waitUntil(atMost: 10) { (Support.rowCount(store, "point", track: 1) ?? 0) >= before + 20 }, "\(recorder.stderr)")
        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let warnings = recorder.stderr.components(separatedBy: "but no valid NMEA sentence").count - 1
        #expect(warnings == 1, "\(recorder.stderr)")
    }

    /// The distance, metres, from each point of `gpx` to the true polyline of `truth`.
    static func offPath(gpx: URL, truth: URL) throws -> (offsets: [Double], trueDistance: Double) {
        let rows = try String(contentsOf: truth, encoding: .utf8).split(separator: "\n").dropFirst()
        var path: [(Double, Double)] = []
        var trueDistance = 0.0
        for row in rows {
            let f = row.split(separator: ",")
            guard f.count >= 8, let lat = Double(f[1]), let lon = Double(f[2]) else { continue }
            trueDistance = Double(f[6]) ?? trueDistance
            if f[7] == "1" { path.append((lat, lon)) }
        }
        let gpxText = try String(contentsOf: gpx, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        let matches = regex.matches(in: gpxText, range: NSRange(gpxText.startIndex..., in: gpxText))
        let origin = path[0]
        let r = 6_371_008.8
        func xy(_ p: (Double, Double)) -> (Double, Double) {
            ((p.1 - origin.1) * .pi / 180 * r * cos(origin.0 * .pi / 180), (p.0 - origin.0) * .pi / 180 * r)
        }
        let projected = path.map(xy)
        var offsets: [Double] = []
        for m in matches {
            let lat = Double(gpxText[Range(m.range(at: 1), in: gpxText)!])!
            let lon = Double(gpxText[Range(m.range(at: 2), in: gpxText)!])!
            let p = xy((lat, lon))
            var best = Double.infinity
            for i in 0..<(projected.count - 1) {
                let a = projected[i], b = projected[i + 1]
                let dx = b.0 - a.0, dy = b.1 - a.1
                let length = dx * dx + dy * dy
                let t = length == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length))
                best = min(best, hypot(p.0 - a.0 - t * dx, p.1 - a.1 - t * dy))
            }
            offsets.append(best)
        }
        return (offsets, trueDistance)
    }

    @Test(
        "multipath jumps of 40-150 m every two minutes: no point more than 25 m from the true path, distance within 2 %",
        arguments: [("hike", 1), ("hike", 2), ("standing-still", 1)])
    func multipathJumps(route: String, seed: Int) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, truth) = try Self.simulate(route, duration: "1h", seed: seed, multipathEvery: 120, in: dir)
        let gpx = dir.appendingPathComponent("kept.gpx")
        let result = try Support.trackd(["replay", log.path, "-o", gpx.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try Self.json(result.stdout)
        let (offsets, trueDistance) = try Self.offPath(gpx: gpx, truth: truth)
        #expect(offsets.count > 3_000)
        let far = offsets.filter { $0 > 25 }
        #expect(far.isEmpty, "\(far.count) points more than 25 m off, the farthest \(offsets.max() ?? 0) m")
        let distance = try #require(summary["distance_m"] as? Double)
        if trueDistance > 0 {
            #expect(abs(distance - trueDistance) / trueDistance <= 0.02, "\(distance) m against \(trueDistance) m")
        } else {
            #expect(distance < 20, "\(distance) m of phantom distance standing still")
        }
        #expect(((summary["rejected"] as? [String: Int])?["impossible-jump"] ?? 0) > 0)
    }

    @Test(
        "a bad value for record's numeric options is a usage error (64) naming the option and the value, negative numbers too",
        arguments: [
            (["--distance-filter", "abc"], "--distance-filter takes a number of metres (like 5) or 'none', not 'abc'"),
            (["--distance-filter", "-5"], "--distance-filter takes a number of metres (like 5) or 'none', not '-5'"),
            (["--speed", "fast"], "Please give --speed as a positive number"),
            (["--speed", "-2"], "Please give --speed as a positive number"),
            (["--volume", "-3"], "--volume must be a whole number from 0"),
            (["--chime-every", "-1"], "--chime-every must be zero"),
        ])
    func badNumbers(arguments: [String], message: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let result = try Support.trackd(["record", "--source", Support.sample.path, "--store", store.path] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("CommandError"), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test("a car on a freeway recorded as fitness, by a receiver that sends no speed, keeps every fix and the whole distance")
    func carWithoutSpeed() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try Self.simulate("freeway-drive", duration: "10m", seed: 1, in: dir)
        let noSpeed = dir.appendingPathComponent("no-speed.nmea")
        let text = Self.rewriteRMC(try String(contentsOf: log, encoding: .utf8), dropVTG: true, { _ in true }) { fields in
            fields[7] = ""
            fields[8] = ""
        }
        try text.write(to: noSpeed, atomically: true, encoding: .utf8)
        let automotive = try Self.json(try Support.trackd(["replay", log.path, "--activity", "automotive-navigation", "--json"]).stdout)
        let fitness = try Self.json(try Support.trackd(["replay", noSpeed.path, "--activity", "fitness", "--json"]).stdout)
        #expect(fitness["points"] as? Int == automotive["points"] as? Int, "\(fitness)")
        let expected = try #require(automotive["distance_m"] as? Double)
        #expect(abs((fitness["distance_m"] as? Double ?? 0) - expected) / expected < 0.01, "\(fitness)")
    }

    @Test("SIGHUP (an SSH session that drops) ends a recording like SIGTERM: committed, closed, exit 0")
    func sighupEndsGracefully() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--store", store.path, "--no-chime"], in: dir)
        defer { recorder.stop() }
        #expect(Support.waitUntil(atMost: 30) { (Support.rowCount(store, "point", track: 1) ?? 0) >= 20 }, "\(recorder.stderr)")
        recorder.send(SIGHUP)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let track = try #require(try Support.tracks(store).first)
        #expect(track["state"] as? String == "finished", "\(track)")
        #expect((track["points"] as? Int ?? 0) >= 20)
    }

    @Test("a SIGTERM in the first milliseconds leaves no track open as 'recording'", arguments: [0, 2, 10, 40, 150, 300, 600])
    func earlySigterm(delayMilliseconds: Int) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--store", store.path, "--no-chime"], in: dir)
        defer { recorder.stop() }
        usleep(useconds_t(delayMilliseconds * 1_000))
        recorder.send(SIGTERM)
        let ending = recorder.waitForEnd()
        let tracks = (try? Support.tracks(store)) ?? []
        let states = tracks.compactMap { $0["state"] as? String }
        // Before trackd has set up anything (the process still starting), the default action
        // ends it, with nothing created; from then on, a graceful end.
        #expect(ending == .exited(0) || (ending == .signalled(SIGTERM) && tracks.isEmpty), "\(String(describing: ending)) \(recorder.stderr)")
        if delayMilliseconds >= 300 { #expect(ending == .exited(0), "\(recorder.stderr)") }
        #expect(!states.contains("recording"), "\(states)")
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
