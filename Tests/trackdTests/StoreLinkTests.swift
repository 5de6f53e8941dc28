import Foundation
import Testing

/// A store reached by another name while a recorder writes it: the one-recorder lock is the
/// file's, whatever its name, and the running track is never recovered or deleted under the
/// recorder.
@Suite("trackd with a store reached through a link")
struct StoreLinkTests {
    enum Link: String, CaseIterable, CustomTestStringConvertible {
        case symbolic, hard
        var testDescription: String { "a \(rawValue) link" }
    }

    @Test("through a symbolic or a hard link, a second recorder and a delete of the running track are refused; the track ends finished",
          arguments: Link.allCases)
    func linkedStore(link kind: Link) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["state", "elsewhere"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let store = dir.appendingPathComponent("state/tracks.sqlite")
        try RecordCommandTests.recordSample(into: store, ["--no-chime"])
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--no-chime", "--store", store.path], in: dir, label: "first")
        defer { recorder.stop() }
        try #require(Support.waitUntil(atMost: 60) { (Support.rowCount(store, "point", track: 2) ?? 0) > 0 }, "\(recorder.stderr)")

        let link = dir.appendingPathComponent("elsewhere/link.sqlite")
        switch kind {
        case .symbolic: try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store)
        case .hard: try FileManager.default.linkItem(at: store, to: link)
        }

        let second = try Support.trackd(["record", "--source", "simulate:city-run", "--duration", "10s", "--no-chime", "--store", link.path])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another trackd is recording into \(link.path) (pid \(recorder.pid))"), "\(second.stderr)")
        #expect(Support.newestTrackID(store) == 2, "the refused recorder began a track")

        let delete = try Support.trackd(["delete", "2", "--store", link.path])
        #expect(delete.status == 1)
        #expect(delete.stderr.contains("pid \(recorder.pid)") && delete.stderr.contains("stop the recorder first"), "\(delete.stderr)")
        switch kind {
        case .symbolic:
            #expect(delete.stderr.contains("track 2 in \(link.path) is being recorded right now (by trackd, pid \(recorder.pid))"),
                    "\(delete.stderr)")
            // Finished tracks are deleted as usual meanwhile.
            let other = try Support.trackd(["delete", "1", "--store", link.path])
            #expect(other.status == 0, "\(other.stderr)")
        case .hard:
            // Through a hard link SQLite reads another WAL, where the running track is not.
            #expect(delete.stderr.contains("is recording into the track store \(link.path) through another of its 2 names"),
                    "\(delete.stderr)")
            try FileManager.default.removeItem(at: link)
            let other = try Support.trackd(["delete", "1", "--store", store.path])
            #expect(other.status == 0, "\(other.stderr)")
        }
        #expect(Support.query(store, "SELECT id FROM track") == ["2"])
        #expect(Support.query(store, "SELECT state FROM track WHERE id = 2") == ["recording"])

        let seen = Support.rowCount(store, "point", track: 2) ?? 0
        #expect(Support.waitUntil(atMost: 30) { (Support.rowCount(store, "point", track: 2) ?? 0) > seen },
                "the recorder stopped committing: \(recorder.stderr)")
        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        #expect(try Support.tracks(store).first { $0["id"] as? Int == 2 }?["state"] as? String == "finished")
    }

    @Test("a store with a second hard link is not written: record and delete say why and change nothing")
    func hardLinkedStore() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store, ["--no-chime"])
        let link = dir.appendingPathComponent("copy.sqlite")
        try FileManager.default.linkItem(at: store, to: link)
        let bytes = try Data(contentsOf: store)
        for (path, command) in [(store, ["record", "--source", Support.sample.path, "--no-chime"]), (link, ["delete", "1"])] {
            let result = try Support.trackd(command + ["--store", path.path])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("the track store \(path.path) has 2 names (hard links)"), "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: store) == bytes, "\(command) changed the store")
        }
        let list = try Support.trackd(["tracks", "--store", link.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains("has 2 names (hard links)"), "\(list.stderr)")
    }
}
