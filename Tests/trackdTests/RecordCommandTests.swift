import Foundation
import Testing

/// `trackd record`, `tracks`, `export` and `delete` as a user runs them: the built binary, a
/// store in a temporary directory, signals sent to a running recorder.
@Suite("trackd record, tracks, export, delete")
struct RecordCommandTests {
    /// Records the sample hike into `store` at full speed; the result.
    @discardableResult
    static func recordSample(into store: URL, _ extra: [String] = []) throws -> Support.Result {
        let result = try Support.trackd(
            ["record", "--source", Support.sample.path, "--accuracy", "best", "--activity", "fitness",
             "--store", store.path] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    @Test("the recorded sample is the track replay keeps: points, segments and coordinates, as valid GPX")
    func recordMatchesReplay() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")

        let replayGPX = dir.appendingPathComponent("replay.gpx")
        let replay = try Support.trackd(["replay", Support.sample.path, "--accuracy", "best", "--activity", "fitness",
                                         "--json", "-o", replayGPX.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: replay.stdout) as? [String: Any])
        let points = try #require(summary["points"] as? Int)
        let segments = try Support.count("<trkseg>", in: replayGPX)
        #expect(segments > 1, "the sample holds fix losses")

        let record = try Self.recordSample(into: store)
        #expect(record.stderr.contains("recorded track 1 'hike': \(points) points in \(segments) segments"), "\(record.stderr)")

        let tracks = try Support.tracks(store)
        #expect(tracks.count == 1)
        let track = try #require(tracks.first)
        #expect(Set(track.keys) == ["id", "name", "start", "duration_s", "distance_m", "points", "segments", "state"])
        #expect(track["id"] as? Int == 1)
        #expect(track["name"] as? String == "hike")
        #expect(track["state"] as? String == "finished")
        #expect(track["points"] as? Int == points)
        #expect(track["segments"] as? Int == segments)

        let exported = dir.appendingPathComponent("out.gpx")
        let export = try Support.trackd(["export", "latest", "-o", exported.path, "--store", store.path])
        #expect(export.status == 0, "\(export.stderr)")
        let lint = try Support.validateGPX(exported)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(try Support.count("<trkpt ", in: exported) == Support.count("<trkpt ", in: replayGPX))
        #expect(try Support.count("<trkseg>", in: exported) == segments)
        let recorded = try trackPoints(inGPX: exported)
        let replayed = try trackPoints(inGPX: replayGPX)
        #expect(recorded.count == points)
        #expect(recorded == replayed, "the exported coordinates differ from the replay's")
    }

    @Test("exporting a track twice gives the same bytes, and 'latest' is the only track")
    func exportIsDeterministic() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try Self.recordSample(into: store)
        var files: [Data] = []
        for (name, selector) in [("a", "latest"), ("b", "latest"), ("c", "1")] {
            let out = dir.appendingPathComponent("\(name).gpx")
            let result = try Support.trackd(["export", selector, "-o", out.path, "--store", store.path])
            #expect(result.status == 0, "\(result.stderr)")
            files.append(try Data(contentsOf: out))
        }
        #expect(files[0].count > 1000)
        #expect(files[0] == files[1], "two exports of the same track differ")
        #expect(files[0] == files[2], "export 1 differs from export latest")
    }

    @Test("export --raw writes every fix with a position, the filtered points too, as valid GPX")
    func rawExport() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        // A distance filter keeps fewer points than fixes, so raw and accepted differ.
        try Self.recordSample(into: store, ["--distance-filter", "25"])

        let convert = try Support.trackd(["convert", Support.sample.path, "--json", "-o", "/dev/null"])
        #expect(convert.status == 0, "\(convert.stderr)")
        let all = try #require(try JSONSerialization.jsonObject(with: convert.stdout) as? [String: Any])
        let withPosition = try #require(all["points"] as? Int)

        let raw = dir.appendingPathComponent("raw.gpx")
        let result = try Support.trackd(["export", "--raw", "1", "-o", raw.path, "--store", store.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("every fix received"), "\(result.stderr)")
        let lint = try Support.validateGPX(raw)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(try Support.count("<trkpt ", in: raw) == withPosition)

        let kept = try #require(try Support.tracks(store).first?["points"] as? Int)
        #expect(kept < withPosition, "the distance filter dropped no point")
    }

    @Test("tracks lists id, name and state; with none left it prints [] or nothing, and a missing store is an error")
    func listing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")

        // No store: an error naming the path, nothing on standard output, nothing created.
        for arguments in [["tracks"], ["tracks", "--json"]] {
            let missing = try Support.trackd(arguments + ["--store", store.path])
            #expect(missing.status == 1, "\(arguments)")
            #expect(missing.stdout.isEmpty, "\(arguments): \(missing.stdoutText)")
            #expect(missing.stderr.contains("no track store at \(store.path)"), "\(missing.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: store.path), "reading created the store")

        try Self.recordSample(into: store, ["--name", "morning walk"])
        let text = try Support.trackd(["tracks", "--store", store.path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutText.split(whereSeparator: \.isNewline)
        #expect(lines.count == 2, "\(text.stdoutText)")
        #expect(lines.first?.split(separator: " ").first == "ID")
        let row = lines.last.map { $0.split(separator: " ", omittingEmptySubsequences: true) } ?? []
        #expect(row.first == "1", "\(text.stdoutText)")
        #expect(row.dropFirst().prefix(2) == ["morning", "walk"], "\(text.stdoutText)")
        #expect(row.last == "finished", "\(text.stdoutText)")
        #expect(try Support.tracks(store).first?["name"] as? String == "morning walk")

        // Every track deleted: an empty list, not an error.
        #expect(try Support.trackd(["delete", "1", "--store", store.path]).status == 0)
        let json = try Support.trackd(["tracks", "--json", "--store", store.path])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let empty = try Support.trackd(["tracks", "--store", store.path])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.isEmpty, "\(empty.stdoutText)")
        #expect(empty.stderr.contains("no tracks in \(store.path) yet"), "\(empty.stderr)")
    }

    @Test("delete removes a track for good; a missing id is an error naming it and the store")
    func delete() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try Self.recordSample(into: store)

        let deleted = try Support.trackd(["delete", "1", "--store", store.path])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stderr.contains("deleted track 1 'hike'"), "\(deleted.stderr)")
        #expect(try Support.tracks(store).isEmpty)
        #expect(Support.query(store, "SELECT count(*) FROM point") == ["0"], "the points outlived their track")
        #expect(Support.query(store, "SELECT count(*) FROM raw_fix") == ["0"], "the fixes outlived their track")

        let again = try Support.trackd(["delete", "99", "--store", store.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("there is no track 99 in \(store.path)"), "\(again.stderr)")

        let out = dir.appendingPathComponent("99.gpx")
        let export = try Support.trackd(["export", "99", "-o", out.path, "--store", store.path])
        #expect(export.status == 1)
        #expect(export.stderr.contains("there is no track 99 in \(store.path)"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "a failed export left a file")

        // The id of a deleted track is never given again.
        let next = try Self.recordSample(into: store)
        #expect(next.stderr.contains("recorded track 2 'hike'"), "\(next.stderr)")
    }

    @Test("SIGTERM or SIGINT closes the running track as finished with every committed point, and exits 0",
          arguments: [SIGTERM, SIGINT])
    func signalClosesTrack(signal: Int32) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--duration", "30m", "--store", store.path],
            in: dir)
        defer { recorder.stop() }

        let committed = Support.waitUntil(atMost: 60) { (Support.rowCount(store, "point", track: 1) ?? 0) >= 20 }
        try #require(committed, "the recorder committed fewer than 20 points in 60 s: \(recorder.stderr)")
        #expect(recorder.isRunning, "the 30 min simulation ended by itself")
        recorder.send(signal)
        let ending = recorder.waitForEnd()
        #expect(ending == .exited(0), "\(recorder.stderr)")
        #expect(recorder.stderr.contains("recorded track 1 'hike'"), "\(recorder.stderr)")

        let track = try #require(try Support.tracks(store).first)
        #expect(track["state"] as? String == "finished")
        let rows = try #require(Support.rowCount(store, "point", track: 1))
        #expect(rows >= 20)
        #expect(track["points"] as? Int == rows)

        let out = dir.appendingPathComponent("hike.gpx")
        let export = try Support.trackd(["export", "1", "-o", out.path, "--store", store.path])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Support.count("<trkpt ", in: out) == rows)
        let lint = try Support.validateGPX(out)
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    @Test("record --help lists its options, and trackd --help the store commands")
    func help() throws {
        let record = try Support.trackd(["record", "--help"])
        #expect(record.status == 0)
        let text = record.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ["--source <source>", "--accuracy <accuracy>", "--activity <activity>",
                       "--distance-filter <metres|none>", "--name <name>", "--store <path>", "--speed <n|max>",
                       "--duration <duration>"] {
            #expect(text.contains(option), "record --help lacks \(option):\n\(record.stdoutText)")
        }
        let top = try Support.trackd(["--help"])
        #expect(top.status == 0)
        let commands = Set(top.stdoutText.split(whereSeparator: \.isNewline).compactMap {
            $0.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init)
        })
        for command in ["record", "tracks", "export", "delete"] {
            #expect(commands.contains(command), "trackd --help lacks \(command):\n\(top.stdoutText)")
        }
    }
}
