import Foundation
import Testing

/// `trackd record` with chimes, through real ALSA with no sound card: a configuration whose
/// default PCM is ALSA's `file` plugin over a `null` slave, so what would have been played
/// lands in a WAV file that sox measures.
@Suite("trackd record with chimes", .serialized, .timeLimit(.minutes(2)))
struct RecordChimeTests {
    /// An ALSA configuration (it replaces the global one) whose default PCM writes to `file`.
    static func alsaConfiguration(in dir: URL, writingTo file: String) throws -> [String: String] {
        let config = dir.appendingPathComponent("asound.conf")
        try """
            pcm.!default {
                type file
                slave.pcm { type null }
                file "\(file)"
                format "wav"
            }
            """.write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = config.path
        return environment
    }

    /// `sox FILE -n stat`'s "Length (seconds)".
    static func seconds(of wav: URL) throws -> Double? {
        let stat = try Support.run("sox", [wav.path, "-n", "stat"])
        let line = stat.stderr.split(separator: "\n").first { $0.hasPrefix("Length (seconds)") }
        return line.flatMap { Double($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
    }

    /// The track's points as `lat,lon` lines.
    static func points(_ store: URL) -> [String] {
        Support.query(store, "SELECT latitude || ',' || longitude FROM point WHERE track_id = 1 ORDER BY number") ?? []
    }

    @Test("update and signal chimes of a simulated hike land in the sound device; --no-chime plays nothing")
    func chimesArePlayed() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("played.wav")
        let environment = try Self.alsaConfiguration(in: dir, writingTo: wav.path)
        let store = dir.appendingPathComponent("tracks.sqlite")
        let run = try Support.run(
            Support.trackd.path,
            ["record", "--source", "simulate:hike", "--speed", "50", "--duration", "2m", "--chime", "update,signal", "--store", store.path],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("cannot open sound device"), "\(run.stderr)")
        // The first update chime (80 ms) and the signal turning strong (2 × 120 ms) at least.
        let length = try #require(try Self.seconds(of: wav))
        #expect(length >= 0.30, "\(length) s played")

        let quiet = dir.appendingPathComponent("quiet.wav")
        let silentEnvironment = try Self.alsaConfiguration(in: dir, writingTo: quiet.path)
        let off = try Support.run(
            Support.trackd.path,
            ["record", "--source", "simulate:hike", "--speed", "max", "--duration", "2m", "--no-chime", "--store", store.path],
            environment: silentEnvironment)
        #expect(off.status == 0, "\(off.stderr)")
        #expect(!FileManager.default.fileExists(atPath: quiet.path))
    }

    @Test("a sound device that cannot be opened, or that blocks, costs a log line and leaves the recorded points unchanged")
    func brokenDevicesChangeNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["record", "--source", Support.sample.path, "--speed", "max", "--chime", "update,signal,fix,lifecycle"]

        let reference = dir.appendingPathComponent("reference.sqlite")
        let plain = try Support.trackd(arguments.dropLast(2) + ["--no-chime", "--store", reference.path])
        #expect(plain.status == 0, "\(plain.stderr)")
        let expected = Self.points(reference)
        #expect(expected.count > 1000)

        // A device that does not exist.
        let missing = dir.appendingPathComponent("missing.sqlite")
        let absent = try Support.trackd(arguments + ["--alsa-device", "no-such-device", "--store", missing.path])
        #expect(absent.status == 0, "\(absent.stderr)")
        #expect(absent.stderr.components(separatedBy: "cannot open sound device").count == 2, "logged once: \(absent.stderr)")
        #expect(Self.points(missing) == expected)

        // A device that blocks: the file plugin writes into a FIFO that nobody reads.
        let fifo = dir.appendingPathComponent("stuck.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let stuck = dir.appendingPathComponent("stuck.sqlite")
        let blocked = try Support.run(
            Support.trackd.path, arguments + ["--store", stuck.path],
            environment: try Self.alsaConfiguration(in: dir, writingTo: fifo))
        #expect(blocked.status == 0, "\(blocked.stderr)")
        #expect(Self.points(stuck) == expected)
    }
}
