import Foundation
import Testing
import TrackdTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `trackd record` from a serial receiver, with a pseudo-terminal standing in for the puck and
/// a symbolic link standing in for udev's `/dev/gps0`.
@Suite("trackd record from a serial receiver", .serialized, .timeLimit(.minutes(2)))
struct RecordLiveTests {
    @Test("unplugging ends the segment, nothing before it is lost, and replugging resumes into a new segment")
    func unplugAndReplug() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let epochs = Support.sampleEpochs
        try #require(epochs.count > 400)

        let receiver = try PluggedReceiver(at: dir.appendingPathComponent("gps0").path)
        // Something to detect the baud rate on before trackd starts listening.
        let recorder = try BackgroundProcess(["record", "--source", receiver.link, "--store", store.path], in: dir)
        defer { recorder.stop() }
        var feed = EpochFeed(epochs)
        // Feed until trackd has committed points (bounded).
        #expect(Support.waitUntil(atMost: 30) {
            feed.feed(receiver.terminal, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= 100
        }, "\(recorder.stderr)")
        // Epochs written before trackd opened the tty are not all read (a slow start on a
        // loaded machine): count from what it has read so far.
        let readBefore = Support.rowCount(store, "raw_fix", track: 1) ?? 0
        feed.feed(receiver.terminal, epochs: 20)
        #expect(Support.waitUntil(atMost: 10) { (Support.rowCount(store, "raw_fix", track: 1) ?? 0) >= readBefore + 18 })
        let beforeUnplug = Support.rowCount(store, "point", track: 1) ?? 0

        // Unplug: the device goes away, and so does its link.
        try receiver.unplug()
        #expect(Support.waitUntil(atMost: 10) {
            (Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = 'source-lost'") ?? []) == ["1"]
        }, "\(recorder.stderr)")
        #expect(recorder.isRunning, "trackd waits for the receiver")

        // Replug: a new device behind the same link.
        try receiver.plugIn()
        #expect(Support.waitUntil(atMost: 30) {
            feed.feed(receiver.terminal, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= beforeUnplug + 50
        }, "\(recorder.stderr)")

        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let track = try #require(try Support.tracks(store).first)
        #expect(track["state"] as? String == "finished")
        #expect((track["segments"] as? Int ?? 0) >= 2, "\(track)")
        #expect((track["points"] as? Int ?? 0) >= beforeUnplug + 50)
        #expect(Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = 'source-resumed'") == ["1"])
        // Every point of the first segment is still there.
        let firstSegment = Int(Support.query(store, "SELECT COUNT(*) FROM point WHERE track_id = 1 AND segment = 1")?.first ?? "") ?? 0
        #expect(firstSegment >= beforeUnplug)
        let gpx = dir.appendingPathComponent("out.gpx")
        #expect(try Support.trackd(["export", "1", "-o", gpx.path, "--store", store.path]).status == 0)
        #expect(try Support.validateGPX(gpx).status == 0)
        #expect(try Support.count("<trkseg>", in: gpx) >= 2)
    }

    @Test("a device that sends only garbage stops the recorder with an error naming it, and leaves no track")
    func garbageDevice() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let terminal = try PseudoTerminal()
        let recorder = try BackgroundProcess(["record", "--source", terminal.slavePath, "--baud", "9600", "--store", store.path], in: dir)
        defer { recorder.stop() }
        var random = SystemRandomNumberGenerator()
        let ended = Support.waitUntil(atMost: 30) {
            terminal.writeNow(String((0..<200).map { _ in Character(UnicodeScalar(UInt8.random(in: 33...126, using: &random))) }))
            return !recorder.isRunning
        }
        #expect(ended)
        #expect(recorder.waitForEnd() == .exited(1), "\(recorder.stderr)")
        #expect(recorder.stderr.contains(terminal.slavePath), "\(recorder.stderr)")
        #expect(recorder.stderr.contains("no NMEA"), "\(recorder.stderr)")
        #expect(try Support.tracks(store).isEmpty)
    }
}
