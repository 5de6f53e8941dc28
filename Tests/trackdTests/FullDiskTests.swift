import Foundation
import Testing
import TrackdTestSupport

/// A track store on a real ext4 disk that fills up, as an SD card does: every reading
/// command goes on and shows every commit, `record` is refused with the space it needs, and
/// nothing crashes (SQLite's shared memory, mapped on a full disk, used to end in SIGBUS) or
/// changes.
@Suite("trackd on a full ext4 disk")
struct FullDiskTests {
    /// Free space left after filling the disk, KiB: none, and the 9-11 KiB where SQLite's
    /// byte-per-page growth of a new `-shm` succeeds but the first write through its mapping
    /// gets SIGBUS (on 1 KiB blocks).
    static let leftFree = [0, 10]

    @Test("on a full ext4 disk tracks, export and serve show every commit, and record is refused naming the store and the space it needs",
          .enabled(if: Support.canMountExt4, "needs root, loop devices and mkfs.ext4"),
          arguments: leftFree, [false, true])
    func fullDisk(leaveKiB: Int, killedRecorder: Bool) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mountPoint = dir.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try #require(Support.mountExt4(on: mountPoint, megabytes: 8, imageIn: dir))
        defer { Support.unmount(mountPoint) }
        let store = mountPoint.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store, ["--no-chime"])
        var expected = [1: 1972]

        if killedRecorder {
            // A recorder killed mid-track: its commits are in the WAL only.
            expected[2] = try Support.killRecorderMidTrack(store: store, in: dir)
            let wal = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
            try #require(wal > 0, "the killed recorder's commits are not in the WAL")
        }
        // A -shm made anew on the full disk is what SIGBUS needs (after a reboot, or a crash
        // that left it sparse).
        try? FileManager.default.removeItem(atPath: store.path + "-shm")
        try Support.fillDisk(mountPoint, leaveKiB: leaveKiB)
        let files = ["", "-wal"].map { store.path + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }

        let list = try Support.trackd(["tracks", "--json", "--store", store.path])
        #expect(list.status == 0, "\(list.status): \(list.stderr)")
        #expect(list.stderr.contains("the disk holding the track store \(store.path) is full"), "\(list.stderr)")
        let listed = (try? JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]]) ?? []
        #expect(Dictionary(uniqueKeysWithValues: listed.compactMap { t in (t["id"] as? Int).map { ($0, t["points"] as? Int ?? -1) } })
            == expected, "\(list.stdoutText)")
        let table = try Support.trackd(["tracks", "--store", store.path])
        #expect(table.status == 0, "\(table.status): \(table.stderr)")
        #expect(table.stdoutText.contains("1972"), "\(table.stdoutText)")

        for (id, points) in expected {
            let out = dir.appendingPathComponent("track\(id).gpx")
            let export = try Support.trackd(["export", "\(id)", "-o", out.path, "--store", store.path])
            #expect(export.status == 0, "\(export.status): \(export.stderr)")
            #expect((try? Support.count("<trkpt ", in: out)) == points)
        }

        let port = try GPSDHarness.freePort()
        let last = expected.keys.max() ?? 1
        let serve = try BackgroundProcess(
            ["serve", "\(last)", "--bind", "127.0.0.1:\(port)", "--store", store.path], in: dir, label: "serve")
        defer { serve.stop() }
        #expect(Support.waitUntil(atMost: 30) { serve.stderr.contains("live view on") || !serve.isRunning }, "\(serve.stderr)")
        let events = try Support.run("/usr/bin/curl", ["-sN", "--max-time", "3", "http://127.0.0.1:\(port)/events"])
        #expect(events.stdoutText.contains("id: \(last):\(expected[last] ?? -1)\n"), "\(events.stdoutText.prefix(300)) \(serve.stderr)")
        serve.send(SIGTERM)
        #expect(serve.waitForEnd(atMost: 20) == .exited(0), "\(serve.stderr)")

        let record = try Support.trackd(["record", "--source", Support.sample.path, "--no-chime", "--store", store.path])
        #expect(record.status == 1, "\(record.status): \(record.stderr)")
        #expect(record.stderr.contains("the disk holding the track store \(store.path) is full: 0 KiB free, and trackd needs 1.1 MiB there"),
                "\(record.stderr)")
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before, "a command changed the store on the full disk")
    }
}
