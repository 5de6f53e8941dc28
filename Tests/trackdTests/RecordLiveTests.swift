import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `trackd record` from a serial receiver, with a pseudo-terminal standing in for the puck and
/// a symbolic link standing in for udev's `/dev/gps0`.
@Suite("trackd record from a serial receiver", .serialized, .timeLimit(.minutes(2)))
struct RecordLiveTests {
    /// A pseudo-terminal pair; the test writes NMEA to `master`, trackd reads `slavePath`.
    final class Terminal {
        var master: Int32 = -1
        var slave: Int32 = -1
        let slavePath: String

        init() throws {
            var name = [CChar](repeating: 0, count: 128)
            guard openpty(&master, &slave, &name, nil, nil) == 0 else { throw POSIXError(.EIO) }
            // Writes never block the test when nobody reads: what does not fit is dropped.
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                offset += n
            }
        }

        /// Unplugs: both ends closed.
        func close() {
            if master >= 0 { Glibc.close(master) }
            if slave >= 0 { Glibc.close(slave) }
            master = -1
            slave = -1
        }

        deinit { close() }
    }

    /// The sample's epochs (each from its RMC up to the next), as text.
    static let epochs: [String] = {
        let text = (try? String(contentsOf: Support.sample, encoding: .utf8)) ?? ""
        var epochs: [String] = []
        var current = ""
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("$") {
            if line.hasPrefix("$GNRMC") || line.hasPrefix("$GPRMC"), !current.isEmpty {
                epochs.append(current)
                current = ""
            }
            current += line + "\r\n"
        }
        if !current.isEmpty { epochs.append(current) }
        return epochs
    }()

    @Test("unplugging ends the segment, nothing before it is lost, and replugging resumes into a new segment")
    func unplugAndReplug() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let link = dir.appendingPathComponent("gps0").path
        let epochs = Self.epochs
        try #require(epochs.count > 400)

        let first = try Terminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.slavePath)
        // Something to detect the baud rate on before trackd starts listening.
        let recorder = try BackgroundProcess(["record", "--source", link, "--store", store.path], in: dir)
        defer { recorder.stop() }
        var next = 0
        func feed(_ terminal: Terminal, epochs count: Int) {
            for _ in 0..<count where next < epochs.count {
                terminal.write(epochs[next])
                next += 1
                usleep(20_000)
            }
        }
        // Feed until trackd has committed points (bounded).
        #expect(Support.waitUntil(atMost: 30) {
            feed(first, epochs: 10)
            return (Support.rowCount(store, "point", track: 1) ?? 0) >= 100
        }, "\(recorder.stderr)")
        feed(first, epochs: 20)
        #expect(Support.waitUntil(atMost: 10) { (Support.rowCount(store, "raw_fix", track: 1) ?? 0) >= next - 2 })
        let beforeUnplug = Support.rowCount(store, "point", track: 1) ?? 0

        // Unplug: the device goes away, and so does its link.
        first.close()
        try FileManager.default.removeItem(atPath: link)
        #expect(Support.waitUntil(atMost: 10) {
            (Support.query(store, "SELECT COUNT(*) FROM signal_event WHERE kind = 'source-lost'") ?? []) == ["1"]
        }, "\(recorder.stderr)")
        #expect(recorder.isRunning, "trackd waits for the receiver")

        // Replug: a new device behind the same link.
        let second = try Terminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: second.slavePath)
        #expect(Support.waitUntil(atMost: 30) {
            feed(second, epochs: 10)
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
        let terminal = try Terminal()
        let recorder = try BackgroundProcess(["record", "--source", terminal.slavePath, "--baud", "9600", "--store", store.path], in: dir)
        defer { recorder.stop() }
        var random = SystemRandomNumberGenerator()
        let ended = Support.waitUntil(atMost: 30) {
            terminal.write(String((0..<200).map { _ in Character(UnicodeScalar(UInt8.random(in: 33...126, using: &random))) }))
            return !recorder.isRunning
        }
        #expect(ended)
        #expect(recorder.waitForEnd() == .exited(1), "\(recorder.stderr)")
        #expect(recorder.stderr.contains(terminal.slavePath), "\(recorder.stderr)")
        #expect(recorder.stderr.contains("no NMEA"), "\(recorder.stderr)")
        #expect(try Support.tracks(store).isEmpty)
    }
}
