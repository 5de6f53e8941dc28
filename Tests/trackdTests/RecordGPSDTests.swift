import Foundation
import Testing
import TrackdTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `trackd record` and `trackd sources` against a real gpsd reading a pseudo-terminal (see
/// `GPSDHarness`), and `trackd sources` listening on ptys behind links in a directory that
/// stands in for /dev. One gpsd at a time: the suite is serialized.
@Suite("trackd record and sources with gpsd and receiver ttys", .serialized, .timeLimit(.minutes(2)))
struct RecordGPSDTests {
    /// The sample hike's epochs (1 Hz fix times), as text.
    static let epochs = Support.sampleEpochs

    /// The line `trackd sources` ends with when it found something to record from.
    static func autoLine(_ source: String) -> String {
        "to record: trackd record --source \(source)"
    }

    /// How many signal events of `kind` the store holds; nil when it cannot be read yet.
    static func events(_ kind: String, in store: URL) -> Int? {
        Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = '\(kind)'")?.first.flatMap { Int($0) }
    }

    /// Writes the sample's epochs from `next` on into `terminal`, `count` of them, 20 ms apart
    /// (a receiver at 50 Hz of fix time): what the pty does not take at once is dropped.
    static func feed(_ terminal: PseudoTerminal, from next: inout Int, epochs count: Int) {
        for _ in 0..<count where next < epochs.count {
            terminal.writeNow(epochs[next])
            next += 1
            usleep(20_000)
        }
    }

    @Test("gpsd restarted on its port with a new device: trackd notes the loss, keeps every point, resumes into a new segment and exits 0 on SIGTERM")
    func gpsdRestart() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let epochs = Self.epochs
        try #require(epochs.count > 400)

        let first = try GPSDHarness()
        defer { first.stop() }
        let source = "gpsd://127.0.0.1:\(first.port)"
        let recorder = try BackgroundProcess(["record", "--source", source, "--store", store.path], in: dir)
        defer { recorder.stop() }
        #expect(Support.waitUntil(atMost: 30) { Self.events("source-connected", in: store) == 1 }, "\(recorder.stderr)")

        var next = 0
        #expect(Support.waitUntil(atMost: 60) {
            Self.feed(first.terminal, from: &next, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= 100
        }, "\(recorder.stderr)\ngpsd: \(first.log)")
        let beforeRestart = Support.rowCount(store, "point", track: 1) ?? 0
        #expect(beforeRestart >= 100)

        // gpsd goes away, and its receiver with it; a new gpsd comes up on the same port
        // with a new device.
        first.stop()
        first.terminal.close()
        let second = try GPSDHarness(port: first.port)
        defer { second.stop() }
        #expect(Support.waitUntil(atMost: 30) { Self.events("source-lost", in: store) == 1 }, "\(recorder.stderr)")
        #expect(recorder.isRunning, "trackd waits for gpsd to come back: \(recorder.stderr)")

        #expect(Support.waitUntil(atMost: 60) {
            Self.feed(second.terminal, from: &next, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= beforeRestart + 50
        }, "\(recorder.stderr)\ngpsd: \(second.log)")

        recorder.send(SIGTERM)
        #expect(recorder.waitForEnd() == .exited(0), "\(recorder.stderr)")
        let track = try #require(try Support.tracks(store).first)
        #expect(track["state"] as? String == "finished")
        #expect((track["segments"] as? Int ?? 0) >= 2, "\(track)")
        #expect((track["points"] as? Int ?? 0) >= beforeRestart + 50, "\(track)")
        #expect(Self.events("source-resumed", in: store) == 1)
        // Every point from before the restart is still there, in the first segment.
        let firstSegment = Support.query(store, "SELECT COUNT(*) FROM point WHERE track_id = 1 AND segment = 1")?.first.flatMap { Int($0) } ?? 0
        #expect(firstSegment >= beforeRestart, "\(firstSegment) points in segment 1, \(beforeRestart) before the restart")
        let gpx = dir.appendingPathComponent("out.gpx")
        let export = try Support.trackd(["export", "1", "-o", gpx.path, "--store", store.path])
        #expect(export.status == 0, "\(export.stderr)")
        let validation = try Support.validateGPX(gpx)
        #expect(validation.status == 0, "\(validation.stderr)")
        #expect(try Support.count("<trkseg>", in: gpx) >= 2)
    }

    @Test("with no gpsd on the port, record exits 1 naming the address and keeps no track")
    func noGPSD() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let port = try GPSDHarness.freePort()

        let result = try Support.trackd(["record", "--source", "gpsd://127.0.0.1:\(port)", "--store", store.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(port)"), "\(result.stderr)")

        let tracks = try Support.trackd(["tracks", "--json", "--store", store.path])
        if FileManager.default.fileExists(atPath: store.path) {
            #expect(tracks.status == 0, "\(tracks.stderr)")
            let list = try JSONSerialization.jsonObject(with: tracks.stdout) as? [Any]
            #expect(list?.isEmpty == true, "\(tracks.stdoutText)")
        } else {
            #expect(tracks.status != 0)
            #expect(tracks.stderr.contains("no track store"), "\(tracks.stderr)")
        }
    }

    @Test("sources lists a running gpsd with its pty and names it for auto")
    func sourcesListsGPSD() throws {
        let gpsd = try GPSDHarness()
        defer { gpsd.stop() }
        // Some sentences, so that gpsd has a driver to report for the device.
        var next = 0
        Self.feed(gpsd.terminal, from: &next, epochs: 5)
        // An empty directory for device nodes: the host's /dev is not probed.
        let devices = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: devices) }

        let result = try Support.trackd(["sources", "--gpsd", "127.0.0.1:\(gpsd.port)", "--devices", devices.path])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("gpsd 127.0.0.1:\(gpsd.port): running") == true, "\(lines)")
        let device = lines.first { line in
            let entry = line.trimmingCharacters(in: .whitespaces)
            return entry.hasPrefix(gpsd.slavePath + ":") || entry.hasPrefix(gpsd.slavePath + ",")
        }
        #expect(device?.contains("active") == true, "\(lines)")
        #expect(lines.last == Self.autoLine("gpsd://127.0.0.1:\(gpsd.port)"), "\(lines)")
    }

    @Test("sources finds NMEA on a tty in the devices directory at the first rate tried, and names it for auto")
    func sourcesFindsTTY() throws {
        let devices = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: devices) }
        let pty = try PseudoTerminal()
        let link = devices.appendingPathComponent("ttyACM0").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.slavePath)
        let writer = pty.keepWriting(Self.epochs.prefix(200).map { Array($0.utf8) }, every: .milliseconds(50))
        defer { writer.stop() }
        let port = try GPSDHarness.freePort()

        let result = try Support.trackd(["sources", "--gpsd", "127.0.0.1:\(port)", "--devices", devices.path])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("gpsd 127.0.0.1:\(port): not answering") == true, "\(lines)")
        // A pty ignores the line rate: the first rate of BaudRate.detectionOrder() is accepted.
        let device = lines.first { $0.hasPrefix("\(link): NMEA at 9600 baud") }
        #expect(device != nil, "\(lines)")
        // The simulator's receiver talks GN, GP and GL and sends these sentences.
        #expect(device?.hasSuffix(", talkers GL GN GP, sentences GGA GSA GST GSV RMC VTG") == true, "\(lines)")
        #expect(lines.last == Self.autoLine(link), "\(lines)")
    }

    @Test("sources says a tty that sends only garbage has no NMEA, and exits 1 with nothing to record from")
    func sourcesGarbageTTY() throws {
        let devices = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: devices) }
        let pty = try PseudoTerminal()
        let link = devices.appendingPathComponent("ttyACM0").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.slavePath)
        let writer = pty.keepWriting(Self.garbage(200, seed: 3), every: .milliseconds(20))
        defer { writer.stop() }
        let port = try GPSDHarness.freePort()

        let result = try Support.trackd(["sources", "--gpsd", "127.0.0.1:\(port)", "--devices", devices.path])
        #expect(result.status == 1, "\(result.stdoutText)\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let device = lines.first { $0.hasPrefix(link + " ") }
        #expect(device?.contains("no NMEA") == true, "\(lines)")
        #expect(lines.last == "nothing to record from", "\(lines)")
    }

    /// Printable ASCII other than `$`, from a fixed seed: bytes in which no sentence can start.
    static func garbage(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let byte = UInt8(33 + (state >> 33) % 94)
            if byte != UInt8(ascii: "$") { bytes.append(byte) }
        }
        return bytes
    }
}
