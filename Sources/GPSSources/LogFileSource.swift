import GPSCore
import NMEA

/// Replays an NMEA 0183 log file, paced by the log's own fix times.
///
/// Iterating yields `.connected("log <path>")`, then `.fix` for every fix the NMEA parser
/// assembles from the file (no-fix epochs included), then ends. The file is read lazily,
/// 64 KiB at a time, as the consumer asks for events. Before each fix with a time the
/// source advances ``clock`` to that time, so a location manager running its timers on it
/// sees the log's time pass. At a ``ReplaySpeed/times(_:)`` speed it also waits on the
/// pacing clock until the fix is due (see ``Pacer`` for long gaps and time going back).
///
/// The ``clock`` is one per source value and shared by its iterations: iterate a source
/// once. A second iteration would replay the log while the clock stays at the first's end.
///
/// Iteration throws ``SourceError``: ``SourceError/cannotOpen(path:reason:)``,
/// ``SourceError/isDirectory(path:)``, ``SourceError/emptyInput(path:)`` before anything
/// is yielded; ``SourceError/readFailed(path:reason:)`` part way; and
/// ``SourceError/noNMEA(path:bytes:rejected:)`` at the end when the parser accepted no
/// sentence at all. It throws `CancellationError` when the consuming task is cancelled.
///
/// ```swift
/// let source = LogFileSource(path: "sample-nmea/hike.nmea", speed: .times(10))
/// for try await event in source { … }
/// ```
public struct LogFileSource: FixSource {
    public let path: String
    public let speed: ReplaySpeed
    public let allowMissingChecksum: Bool
    private let pacingClock: any Clock<Duration>
    private let logClock = LogClock()

    /// - Parameters:
    ///   - path: the log to read; `-` (standard input) is refused with
    ///     ``SourceError/cannotOpen(path:reason:)``.
    ///   - speed: how fast to deliver the fixes.
    ///   - allowMissingChecksum: accept sentences without `*hh`, for receivers that send none.
    ///   - pacingClock: the clock waited on between fixes; tests pass a `TestClock`.
    public init(
        path: String, speed: ReplaySpeed, allowMissingChecksum: Bool = false,
        pacingClock: any Clock<Duration> = ContinuousClock()
    ) {
        self.path = path
        self.speed = speed
        self.allowMissingChecksum = allowMissingChecksum
        self.pacingClock = pacingClock
    }

    /// `log <path>`.
    public var description: String { "log \(path)" }

    /// The ``LogClock`` the source advances to each fix's time.
    public var clock: any Clock<Duration> { logClock }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self, pacing: FixPacing(speed: speed, pacingClock: pacingClock, logClock: logClock))
    }

    /// Reads the log on demand, one chunk whenever no assembled fix is waiting.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let path: String
        private let description: String
        private var reader: LogFileReader?
        private var parser: NMEAParser
        private var pending = PendingFixes()
        private var pacing: FixPacing
        private var state = State.unopened

        private enum State {
            case unopened, reading, draining, finished
        }

        init(source: LogFileSource, pacing: FixPacing) {
            path = source.path
            description = source.description
            parser = NMEAParser(allowMissingChecksum: source.allowMissingChecksum, satellites: true)
            self.pacing = pacing
        }

        /// The next event, or nil after the last fix.
        ///
        /// - Throws: ``SourceError``, or `CancellationError`; after a throw the iterator is finished.
        public mutating func next() async throws -> SourceEvent? {
            do {
                return try await advance()
            } catch {
                finish()
                throw error
            }
        }

        private mutating func advance() async throws -> SourceEvent? {
            switch state {
            case .finished:
                return nil
            case .unopened:
                reader = try LogFileReader.open(path)
                state = .reading
                return .connected(description)
            case .reading, .draining:
                break
            }
            while true {
                if let fix = pending.removeFirst() {
                    try await pacing.wait(for: fix)
                    return .fix(fix)
                }
                if state == .draining {
                    finish()
                    return nil
                }
                try readMore()
            }
        }

        /// Parses the next chunk into `pending`; at the end of the file flushes the parser.
        private mutating func readMore() throws(SourceError) {
            guard let reader else {
                state = .draining
                return
            }
            var fixes: [Fix] = []
            defer { pending.append(contentsOf: fixes) }
            let more = try reader.readChunk { chunk in
                parser.parse(chunk) { fixes.append($0) }
            }
            if more { return }
            parser.finish { fixes.append($0) }
            state = .draining
            if parser.statistics.sentences == 0 {
                throw .noNMEA(path: path, bytes: reader.bytesRead, rejected: parser.statistics.rejectedTotal)
            }
        }

        private mutating func finish() {
            reader?.close()
            reader = nil
            state = .finished
        }
    }
}
