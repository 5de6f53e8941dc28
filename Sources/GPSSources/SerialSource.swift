import GPSCore
import NMEA
import Synchronization

/// A GPS receiver on a serial line (`/dev/ttyACM0`, `/dev/ttyUSB0`, a udev link such as
/// `/dev/gps0`), read as NMEA 0183 through the NMEA parser.
///
/// Iterating opens the device in raw mode and, unless a `baud` is given, detects its rate
/// (see ``BaudDetection``; the rates in ``BaudRate/detectionOrder(remembered:)``, each for up
/// to `detectionTimeout`). It then yields `.connected("serial /dev/ttyACM0 at 9600 baud")`
/// and a `.fix` for every fix the parser assembles, for as long as it is iterated. The bytes
/// are read on a thread of its own (``ReaderThread``), never on the concurrency pool.
/// Garbage, NUL bytes, cut-off and overlong lines are skipped by the parser and counted in
/// ``statistics``.
///
/// When the receiver goes away (unplugged: EIO, hang-up or end of file, or its path gone),
/// the epoch being assembled is dropped and the source yields `.lost("/dev/ttyUSB0 was
/// unplugged …")`, then looks for the path every 250 ms. When it is back (a symbolic link
/// is followed anew each time, so a udev link that now points at another node works), it is
/// reopened at the same rate (detected again if the receiver no longer talks at it) and the
/// source yields `.resumed("serial /dev/ttyUSB0 at 9600 baud")`. A line that stays open but
/// brings no sentence for 30 s (``SerialWatchdog``) also yields `.lost`, and its first
/// sentence again `.resumed`. `.lost` and `.resumed` alternate: an outage is reported once.
///
/// Iteration throws ``SourceError`` before anything is yielded:
/// ``SourceError/noDevice(path:)``, ``SourceError/deviceBusy(path:)``,
/// ``SourceError/permissionDenied(path:)``, ``SourceError/notATerminal(path:)``,
/// ``SourceError/cannotConfigure(path:reason:)``, ``SourceError/unsupportedBaud(_:)``, and
/// ``SourceError/noNMEAAtAnyBaud(device:rates:bytesSeen:sample:checksumless:)`` when no rate
/// brings NMEA (within `detectionTimeout` times the number of rates tried). Once connected it
/// does not throw: it waits for the receiver to come back until the consumer stops. When the
/// consuming task is cancelled, iteration throws `CancellationError` and the thread closes the
/// device within 250 ms.
///
/// ```swift
/// let source = SerialSource(path: "/dev/ttyACM0")
/// for try await event in source { … }
/// ```
///
/// The ``statistics`` are one per source value: iterate a source once.
public struct SerialSource: FixSource {
    /// The device, as given (a symbolic link stays one).
    public let path: String
    /// The rate to use without detection, if one was given.
    public let baud: Int?
    public let allowMissingChecksum: Bool
    /// How long each rate gets during detection.
    public let detectionTimeout: Duration
    /// The rate detection tries first: the one that worked last time.
    public let rememberedBaud: BaudRate?
    private let counters = SerialCounters()

    /// - Parameters:
    ///   - path: the receiver's tty, or a symbolic link to it.
    ///   - baud: the receiver's rate, one of ``BaudRate``'s; nil to detect it.
    ///   - allowMissingChecksum: accept sentences without `*hh`, for receivers that send none.
    ///   - detectionTimeout: how long each rate is given to bring two sentences; 4 s suits
    ///     receivers that report once a second.
    ///   - rememberedBaud: the rate to try first when detecting.
    public init(
        path: String, baud: Int? = nil, allowMissingChecksum: Bool = false,
        detectionTimeout: Duration = .seconds(4), rememberedBaud: BaudRate? = nil
    ) {
        self.path = path
        self.baud = baud
        self.allowMissingChecksum = allowMissingChecksum
        self.detectionTimeout = detectionTimeout
        self.rememberedBaud = rememberedBaud
    }

    /// `serial <path>`.
    public var description: String { "serial \(path)" }

    /// A live receiver's fixes come in wall time: `ContinuousClock()`.
    public var clock: any Clock<Duration> { ContinuousClock() }

    /// What the source has read so far, over all its connections; ``SerialStatistics/baud``
    /// is the rate in use once detected.
    public var statistics: SerialStatistics { counters.value }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }

    /// Opens `path`, detects the receiver's baud rate as the source does, and closes it: for
    /// `trackd sources`, and to remember the rate for next time.
    ///
    /// - Returns: the rate at which two checksummed sentences arrived.
    /// - Throws: the ``SourceError``s of the source's start; `CancellationError` when the task
    ///   is cancelled.
    public static func detectBaud(
        path: String, allowMissingChecksum: Bool = false, detectionTimeout: Duration = .seconds(4),
        rememberedBaud: BaudRate? = nil
    ) async throws -> BaudRate {
        try await probe(
            path: path, listening: .zero, allowMissingChecksum: allowMissingChecksum,
            detectionTimeout: detectionTimeout, rememberedBaud: rememberedBaud
        ).baud
    }

    /// Starts the reader thread at the first ``next()`` and hands on its events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let source: SerialSource
        private var events: AsyncThrowingStream<SourceEvent, any Error>.AsyncIterator?

        init(source: SerialSource) {
            self.source = source
        }

        /// The next event; nil only after the consumer stopped.
        ///
        /// - Throws: ``SourceError`` before the first event, or `CancellationError`.
        public mutating func next() async throws -> SourceEvent? {
            var iterator = events ?? source.start().makeAsyncIterator()
            let event = try await iterator.next()
            events = iterator
            if event == nil && Task.isCancelled { throw CancellationError() }
            return event
        }
    }

    private func start() -> AsyncThrowingStream<SourceEvent, any Error> {
        let fixed: BaudRate?
        if let baud {
            guard let rate = BaudRate(rawValue: baud) else {
                return AsyncThrowingStream { $0.finish(throwing: SourceError.unsupportedBaud(baud)) }
            }
            fixed = rate
        } else {
            fixed = nil
        }
        let settings = SerialSettings(
            path: path, fixedBaud: fixed, remembered: rememberedBaud,
            allowMissingChecksum: allowMissingChecksum, detectionTimeout: detectionTimeout)
        let counters = self.counters
        return ReaderThread.stream(of: SourceEvent.self, name: description) { control in
            try SerialSession(settings, counters: counters).run(control)
        }
    }
}

/// What a ``SerialSource`` has read, over all its connections.
public struct SerialStatistics: Sendable, Hashable {
    /// The baud rate in use (the last one detected or given); nil before the first connection.
    public var baud: Int?
    /// Bytes read from the device, those read during baud detection included.
    public var bytesRead = 0
    /// What the NMEA parser made of them: sentences, and rejections by reason (garbled and
    /// overlong lines, bad and missing checksums).
    public var nmea = NMEAStatistics()
    /// How many times the receiver came back after it was unplugged.
    public var reconnections = 0

    public init() {}
}

/// The source's statistics, written by its reader thread and read by anyone.
final class SerialCounters: Sendable {
    private let statistics = Mutex(SerialStatistics())

    var value: SerialStatistics { statistics.withLock { $0 } }

    func update(_ body: (inout SerialStatistics) -> Void) {
        statistics.withLock { body(&$0) }
    }
}
