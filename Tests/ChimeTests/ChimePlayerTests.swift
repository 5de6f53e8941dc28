import Chime
import Clocks
import Foundation
import Logging
import Testing

/// The player against real ALSA: each test defines a `file` PCM writing a WAV file of its
/// own, and sox measures what would have been played.
@Suite("Chime player")
struct ChimePlayerTests {
    /// Pitch may be off by this fraction in sox's rough estimate.
    static let pitchTolerance = 0.03

    let scratch: ScratchDirectory
    let wav: String
    let clock = TestClock<Duration>()

    init() throws {
        scratch = try ScratchDirectory()
        wav = scratch.file("out.wav")
    }

    func player(
        enabled: ChimeSet = .all, device: String = ALSA.device, writingTo path: String? = nil,
        queueCapacity: Int = ChimePolicy.defaultCapacity, logger: Logger = Logger.recording().0
    ) -> ChimePlayer {
        ChimePlayer(
            device: device, alsaConfiguration: ALSA.fileConfiguration(writingTo: path ?? wav),
            volume: .full, enabled: enabled, queueCapacity: queueCapacity, clock: clock, logger: logger
        )
    }

    /// Checks that `notes` sound one after the other from `start` seconds in the file.
    func expectNotes(_ notes: [Note], from start: Double = 0, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var at = start
        for note in notes {
            let seconds = Double(note.duration.components.attoseconds) * 1e-18 + Double(note.duration.components.seconds)
            // Leave out the fades, where the pitch estimate wanders.
            let stat = try SoxStat(wav, trim: (at + 0.01, seconds - 0.02))
            let error = abs(stat.roughHertz - note.hertz) / note.hertz
            #expect(error < Self.pitchTolerance, "\(note.hertz) Hz at \(at) s measured \(stat.roughHertz) Hz", sourceLocation: sourceLocation)
            at += seconds
        }
    }

    @Test("each chime lands in the device's output with its length and each note's pitch", arguments: ChimeKind.allCases)
    func chimeIsPlayed(kind: ChimeKind) async throws {
        let player = player()
        try await withRunningPlayer(player, clock: clock) {
            player.play(kind)
        }
        let stat = try SoxStat(wav)
        #expect(stat.samples == ToneSynthesizer().samples(for: kind).count)
        let seconds = Double(kind.duration.components.attoseconds) * 1e-18
        #expect(abs(stat.seconds - seconds) / seconds < 0.01)
        #expect(stat.maximumAmplitude > 0.85)
        try expectNotes(kind.notes)
        #expect(player.statistics == ChimeStatistics(played: 1))
    }

    @Test("with chimes off nothing is written to the device")
    func chimesOff() async throws {
        let player = player(enabled: .none)
        try await withRunningPlayer(player, clock: clock) {
            for kind in ChimeKind.allCases { player.play(kind) }
        }
        #expect(!FileManager.default.fileExists(atPath: wav))
        #expect(player.statistics == ChimeStatistics())
    }

    @Test("only the chimes of enabled groups are played")
    func onlyEnabledGroups() async throws {
        let player = player(enabled: .signal)
        try await withRunningPlayer(player, clock: clock) {
            player.play(.update)
            player.play(.fixLost)
            player.play(.signalWeak)
            player.play(.recordingStopped)
        }
        let stat = try SoxStat(wav)
        #expect(abs(stat.seconds - 0.24) < 0.001)
        try expectNotes(ChimeKind.signalWeak.notes)
        #expect(player.statistics.played == 1)
    }

    @Test("a burst of 100 updates within one second plays one update chime")
    func burstOfUpdates() async throws {
        let player = player(enabled: .update)
        try await withRunningPlayer(player, clock: clock) {
            for _ in 0..<100 {
                player.play(.update)
                await clock.advance(by: .milliseconds(10))
            }
        }
        let stat = try SoxStat(wav)
        #expect(stat.samples == ToneSynthesizer().samples(for: .update).count)
        try expectNotes(ChimeKind.update.notes)
        #expect(player.statistics == ChimeStatistics(played: 1, coalesced: 99))
    }

    @Test("graceful shutdown plays the chimes still queued, the stop chime last")
    func shutdownPlaysQueue() async throws {
        let player = player()
        try await withRunningPlayer(player, clock: clock) {
            player.play(.recordingStarted)
            player.play(.recordingStopped)
        }
        let stat = try SoxStat(wav)
        #expect(abs(stat.seconds - 0.72) < 0.001)
        try expectNotes(ChimeKind.recordingStarted.notes + ChimeKind.recordingStopped.notes)
        #expect(player.statistics.played == 2)
    }

    @Test("a device that cannot be opened is logged once, tried again after 30 s, and its chimes dropped")
    func unopenableDevice() async throws {
        let (logger, records) = Logger.recording()
        let player = player(device: "nosuchpcm", logger: logger)
        try await withRunningPlayer(player, clock: clock) {
            player.play(.fixLost)
            await clock.advance(by: .seconds(10))
            player.play(.signalWeak)  // 10 s after the failure: not tried
            await clock.advance(by: .seconds(30))
            player.play(.signalStrong)  // 40 s: tried again, fails again
        }
        let warnings = records.messages(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("'nosuchpcm'") == true)
        #expect(warnings.first?.contains("aplay -L") == true)
        #expect(records.messages(at: .debug).filter { $0.contains("still failing") }.count == 1)
        #expect(player.statistics == ChimeStatistics(played: 0, dropped: 3))
        #expect(!FileManager.default.fileExists(atPath: wav))
    }

    @Test("a device whose writes fail is logged once, and plays again once it can be written")
    func failingWritesRecover() async throws {
        let (logger, records) = Logger.recording()
        let directory = scratch.file("later")
        let player = player(writingTo: directory + "/out.wav", logger: logger)
        try await withRunningPlayer(player, clock: clock) {
            player.play(.fixLost)
            player.play(.fixLost)
            try await waitUntil { player.statistics.dropped == 2 }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            await clock.advance(by: ChimePlayer.defaultRetryInterval)
            player.play(.signalStrong)
        }
        let warnings = records.messages(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("playing on sound device '\(ALSA.device)' failed") == true)
        #expect(records.messages(at: .notice).contains { $0.contains("works again") })
        #expect(player.statistics == ChimeStatistics(played: 1, dropped: 2))
        let stat = try SoxStat(directory + "/out.wav")
        #expect(abs(stat.seconds - 0.24) < 0.001)
    }

    @Test("a stalled device leaves play() returning at once and drops what does not fit the queue")
    func stalledDevice() async throws {
        // A `file` PCM writing into a FIFO nobody reads: the playback thread blocks in
        // libasound at the first chime, as on a wedged device.
        let fifo = scratch.file("stalled.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let player = player(writingTo: fifo)
        let frames = ToneSynthesizer().samples(for: .signalStrong).count
        try await withRunningPlayer(player, clock: clock, advancingOnShutdown: true) {
            player.play(.signalStrong)
            // Taken off the queue: the thread is in libasound, where it stays.
            try await waitUntil { player.statistics.queued == 0 }
            for _ in 0..<1000 { player.play(.signalStrong) }
            // One chime on the stalled thread, four queued, the rest dropped.
            #expect(player.statistics == ChimeStatistics(played: 0, dropped: 996, queued: 4))
        }
        // Graceful shutdown returned after its limit with the thread still stuck.
        #expect(player.statistics.played == 0)
        // Unstick it: it plays what it holds, then closes the FIFO.
        let bytes = await readToEnd(fifo)
        #expect(player.statistics == ChimeStatistics(played: 5, dropped: 996))
        #expect(bytes == wavHeaderBytes + 5 * frames * 2)
    }
}

extension ChimePlayerTests {
    @Test("cancelling run() returns at once, dropping the queue, even with the device stalled")
    func cancellation() async throws {
        let fifo = scratch.file("stalled.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let player = player(writingTo: fifo)
        let running = Task { try await player.run() }
        player.play(.fixLost)
        try await waitUntil { player.statistics.queued == 0 }
        for _ in 0..<4 { player.play(.signalWeak) }
        running.cancel()
        try await running.value
        #expect(player.statistics == ChimeStatistics(played: 0, dropped: 4))
        player.play(.recordingStopped)
        #expect(player.statistics == ChimeStatistics(played: 0, dropped: 5))
        _ = await readToEnd(fifo)
        #expect(player.statistics == ChimeStatistics(played: 1, dropped: 5))
    }
}

/// The size of the header ALSA's `file` plugin writes before the samples of a WAV file.
let wavHeaderBytes = 44

/// Polls `condition` until it holds; an issue after 10 s of real time (not a timing
/// assertion: only a guard against hanging).
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<2000 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("condition still false after 10 s", sourceLocation: sourceLocation)
}

/// Opens `fifo` for reading on a thread of its own and reads it until its writer closes it;
/// returns the bytes read.
func readToEnd(_ fifo: String) async -> Int {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let fd = open(fifo, O_RDONLY)
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while fd >= 0 {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 { total += count } else if count == 0 || errno != EINTR { break }
            }
            if fd >= 0 { close(fd) }
            continuation.resume(returning: total)
        }
        thread.start()
    }
}
