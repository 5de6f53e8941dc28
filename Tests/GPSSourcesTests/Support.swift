import Foundation
import GPSCore
import GPSSources
import NMEA
import Synchronization

/// Files the tests read: the package's sample log and gpsd's corpus beside the repository.
enum Fixtures {
    /// The package root, three levels up from this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let hike = packageRoot.appendingPathComponent("sample-nmea/hike.nmea").path

    /// gpsd's regression logs in `../shared/nmea-corpus` (or `$TRACKD_CORPUS`).
    static let corpus: URL = {
        if let dir = ProcessInfo.processInfo.environment["TRACKD_CORPUS"] {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/nmea-corpus")
    }()

    /// The fixes `NMEAParser` makes of the whole file at once, as the source must deliver them.
    static func wholeFileFixes(_ path: String, allowMissingChecksum: Bool = false) throws -> [Fix] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: true)
        var fixes: [Fix] = []
        bytes.withUnsafeBytes { parser.parse($0) { fixes.append($0) } }
        parser.finish { fixes.append($0) }
        return fixes
    }
}

/// A temporary file that removes itself.
final class TemporaryFile {
    let path: String

    init(_ text: String, name: String = "log.nmea") throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpssources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
}

/// NMEA text for tests: RMC sentences at chosen times.
enum Log {
    /// A valid RMC sentence with CRLF at `seconds` after 2024-09-14T08:00:00Z, at a position
    /// that moves north one metre-ish per second.
    static func rmc(at seconds: Int) -> String {
        let day = 14 + seconds / 86_400
        let inDay = seconds % 86_400 + 8 * 3600
        let hhmmss = String(format: "%02d%02d%02d.00", inDay / 3600 % 24, inDay / 60 % 60, inDay % 60)
        let latitudeMinutes = String(format: "%07.4f", 10 + Double(seconds % 1000) * 0.0005)
        let body = "GPRMC,\(hhmmss),A,47\(latitudeMinutes),N,00800.0000,E,1.9,0.0,\(day)0924,,,A"
        return "$\(body)*\(checksum(body))\r\n"
    }

    /// A log of RMC sentences at `seconds` after the start.
    static func rmc(at seconds: [Int]) -> String {
        seconds.map { rmc(at: $0) }.joined()
    }

    static func checksum(_ body: String) -> String {
        String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
    }
}

/// A source consumed by a task of its own, as the location manager would consume it.
struct Consumer {
    /// The events, in order, as they arrive.
    var events: AsyncThrowingStream<SourceEvent, any Error>.Iterator
    /// How many events the source has yielded so far.
    let delivered: Counter
    let task: Task<Void, Never>

    init(_ source: some FixSource) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SourceEvent.self)
        let delivered = Counter()
        task = Task {
            do {
                for try await event in source {
                    delivered.increment()
                    continuation.yield(event)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        events = stream.makeAsyncIterator()
        self.delivered = delivered
    }

    /// The next fix's time in seconds after 2024-09-14T08:00:00Z, or nil when the next event is no fix.
    mutating func nextFixSecond() async throws -> Int? {
        guard case .fix(let fix) = try await events.next(),
              let micros = fix.time?.microsecondsSinceEpoch else { return nil }
        return Int((micros - Log.startMicroseconds) / 1_000_000)
    }
}

extension Log {
    /// 2024-09-14T08:00:00Z in microseconds since 1970.
    static let startMicroseconds = Int64(CalendarDate(year: 2024, month: 9, day: 14).daysSinceEpoch)
        * TimeOfDay.microsecondsPerDay + 8 * 3_600_000_000
}

/// A count shared between tasks.
final class Counter: Sendable {
    private let value = Mutex(0)

    func increment() { value.withLock { $0 += 1 } }

    var count: Int { value.withLock { $0 } }
}

/// All events of a source and the error that ended it, if any.
func drain(_ source: some FixSource) async -> (events: [SourceEvent], error: (any Error)?) {
    var events: [SourceEvent] = []
    do {
        for try await event in source { events.append(event) }
        return (events, nil)
    } catch {
        return (events, error)
    }
}

extension Array where Element == SourceEvent {
    var fixes: [Fix] {
        compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }
}

extension FixSource {
    /// The source's clock as the ``LogClock`` it is for recorded and simulated sources.
    var logClock: LogClock? { clock as? LogClock }
}
