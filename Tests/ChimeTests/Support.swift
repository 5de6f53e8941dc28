import Chime
import Clocks
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// A directory of its own per test, removed with the value.
final class ScratchDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// ALSA configurations for the tests: what a PCM would play lands in a file.
enum ALSA {
    /// The PCM name every test configuration defines.
    static let device = "trackdtest"

    /// A `file` PCM over a `null` slave, writing a WAV file to `path`.
    static func fileConfiguration(writingTo path: String) -> String {
        """
        pcm.\(device) {
            type file
            slave.pcm { type null }
            file "\(path)"
            format "wav"
        }
        """
    }
}

/// What `sox FILE -n [trim START LENGTH] stat` says about a recording.
struct SoxStat {
    var samples: Int
    var seconds: Double
    var roughHertz: Double
    var maximumAmplitude: Double

    /// Runs sox on `path`, over the whole file or the part `trim` (start, length in seconds).
    init(_ path: String, trim: (start: Double, length: Double)? = nil) throws {
        var arguments = [path, "-n"]
        if let trim { arguments += ["trim", String(trim.start), String(trim.length)] }
        arguments.append("stat")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SoxFailure(arguments: arguments, output: text) }
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[parts[0].split(separator: " ").joined(separator: " ")] = value
        }
        guard let samples = values["Samples read"], let seconds = values["Length (seconds)"],
              let hertz = values["Rough frequency"], let maximum = values["Maximum amplitude"]
        else { throw SoxFailure(arguments: arguments, output: text) }
        self.samples = Int(samples)
        self.seconds = seconds
        self.roughHertz = hertz
        self.maximumAmplitude = maximum
    }
}

struct SoxFailure: Error, CustomStringConvertible {
    var arguments: [String]
    var output: String
    var description: String { "sox \(arguments.joined(separator: " ")) failed: \(output)" }
}

/// A log handler that keeps what it is given, to count warnings.
struct RecordingLogHandler: LogHandler {
    final class Records: Sendable {
        private let entries = Mutex<[(level: Logger.Level, message: String)]>([])
        func append(_ level: Logger.Level, _ message: String) { entries.withLock { $0.append((level, message)) } }
        func messages(at level: Logger.Level) -> [String] {
            entries.withLock { $0.filter { $0.level == level }.map(\.message) }
        }
    }

    let records: Records
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(event.level, event.message.description)
    }
}

extension Logger {
    /// A logger whose records land in the returned value.
    static func recording() -> (Logger, RecordingLogHandler.Records) {
        let records = RecordingLogHandler.Records()
        return (Logger(label: "chime-test") { _ in RecordingLogHandler(records: records) }, records)
    }
}

/// Runs `player` in a service group while `body` runs, then shuts the group down gracefully
/// and waits for it, advancing `clock` while it waits (so the shutdown limit can pass).
func withRunningPlayer(
    _ player: ChimePlayer, clock: TestClock<Duration>, advancingOnShutdown: Bool = false,
    _ body: () async throws -> Void
) async throws {
    let (logger, _) = Logger.recording()
    let group = ServiceGroup(configuration: .init(services: [player], logger: logger))
    let running = Task { try await group.run() }
    try await body()
    await group.triggerGracefulShutdown()
    if advancingOnShutdown {
        let done = Atomic<Bool>(false)
        let waiter = Task {
            try await running.value
            done.store(true, ordering: .releasing)
        }
        while !done.load(ordering: .acquiring) {
            await clock.advance(by: .seconds(1))
            await Task.yield()
        }
        try await waiter.value
    } else {
        try await running.value
    }
}
