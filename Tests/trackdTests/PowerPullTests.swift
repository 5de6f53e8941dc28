import Foundation
import Simulation
import Testing

/// A recorder SIGKILLed at random moments, as a power cut would stop it: nothing committed
/// is lost, the store stays sound, and the next recorder closes the track as recovered.
@Suite("trackd record survives SIGKILL")
struct PowerPullTests {
    @Test("eight kills at random moments lose no committed point, and each track is recovered by the next recorder")
    func killsAreRecovered() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        var random = RandomSource(seed: 20_240_914)
        let record = ["record", "--source", Support.sample.path, "--speed", "50", "--store", store.path]

        var killed: [(id: Int, points: Int)] = []
        for iteration in 0..<8 {
            let previous = Support.newestTrackID(store) ?? 0
            let recorder = try BackgroundProcess(record, in: dir, label: "record-\(iteration)")
            defer { recorder.stop() }
            // The recorder recovers the last killed track before it begins its own.
            let began = Support.waitUntil(atMost: 60) { (Support.newestTrackID(store) ?? 0) > previous }
            try #require(began, "iteration \(iteration): no new track in 60 s: \(recorder.stderr)")
            let id = previous + 1
            #expect(Support.newestTrackID(store) == id)

            if let last = killed.last {
                #expect(recorder.stderr.contains("track \(last.id) 'hike' was interrupted"),
                        "iteration \(iteration): \(recorder.stderr)")
                let listed = try Support.tracks(store).first { $0["id"] as? Int == last.id }
                #expect(listed?["state"] as? String == "recovered", "track \(last.id): \(listed ?? [:])")
                #expect(listed?["points"] as? Int == last.points, "track \(last.id): \(listed ?? [:])")
            }

            Thread.sleep(forTimeInterval: Double.random(in: 0.3...4, using: &random))
            let before = try #require(Support.rowCount(store, "point", track: id))
            #expect(recorder.isRunning, "iteration \(iteration): the replay ended before the kill; \(recorder.stderr)")
            recorder.send(SIGKILL)
            #expect(recorder.waitForEnd() == .signalled(SIGKILL))

            #expect(Support.query(store, "PRAGMA integrity_check") == ["ok"], "iteration \(iteration)")
            let after = try #require(Support.rowCount(store, "point", track: id))
            #expect(after >= before, "iteration \(iteration): \(before) points committed before the kill, \(after) after")
            let listed = try Support.tracks(store).first { $0["id"] as? Int == id }
            #expect(listed?["state"] as? String == "recording", "no recorder has recovered it yet: \(listed ?? [:])")
            killed.append((id, after))
        }

        #expect(killed.contains { $0.points > 0 }, "every kill came before the first commit")

        // A recorder that runs to the end recovers the last one.
        let last = try Support.trackd(record + ["--speed", "max"])
        #expect(last.status == 0, "\(last.stderr)")
        if let killedLast = killed.last {
            #expect(last.stderr.contains("track \(killedLast.id) 'hike' was interrupted"), "\(last.stderr)")
        }

        let tracks = try Support.tracks(store)
        #expect(tracks.count == killed.count + 1)
        for track in tracks {
            let state = track["state"] as? String
            #expect(state == "finished" || state == "recovered", "\(track)")
        }
        for (id, points) in killed {
            let listed = tracks.first { $0["id"] as? Int == id }
            #expect(listed?["state"] as? String == "recovered", "track \(id): \(listed ?? [:])")
            #expect(listed?["points"] as? Int == points, "track \(id): \(listed ?? [:])")
            let out = dir.appendingPathComponent("track-\(id).gpx")
            let export = try Support.trackd(["export", "\(id)", "-o", out.path, "--store", store.path])
            #expect(export.status == 0, "track \(id): \(export.stderr)")
            #expect(try Support.count("<trkpt ", in: out) == points, "track \(id)")
            let lint = try Support.validateGPX(out)
            #expect(lint.status == 0, "track \(id): \(lint.stderr)")
        }
    }
}
