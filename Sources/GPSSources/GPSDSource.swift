import GPSCore

/// Fixes from gpsd, over its JSON protocol (libgps).
///
/// Iterating connects to gpsd at ``address`` and yields `.connected("gpsd HOST:PORT")`,
/// then `.fix` for every TPV report that has a time (mode 1 is a no-fix with its time), with
/// the satellites and DOPs of the latest SKY report. gpsd sends several TPVs for one epoch
/// when a receiver sends several position sentences, each as complete as gpsd is so far.
///
/// When gpsd goes away (it closes the connection or the connection fails) the source
/// yields `.lost("gpsd at HOST:PORT went away")` once, then tries to reconnect, waiting
/// 0.5 s, 1 s, 2 s … up to 10 s between attempts (``ReconnectBackoff``), for as long as the
/// consumer keeps iterating; once back it yields `.resumed("gpsd HOST:PORT")` and fixes
/// again. Silence is not loss: gpsd sends nothing while its receiver sends nothing, so only
/// a closed or failed connection counts. Without `reconnect` the sequence ends after `.lost`.
///
/// The connection is read on a thread of its own (``ReaderThread``), never on the
/// concurrency pool. Stopping the iteration (cancelling the task, or dropping the iterator)
/// closes the connection within a quarter of a second (while it is connecting to a remote
/// host that does not answer, within the system's connect timeout).
///
/// Iteration throws ``SourceError/gpsdUnavailable(address:reason:)`` when the first
/// connection cannot be made, and `CancellationError` when the consuming task is cancelled.
///
/// ```swift
/// let source = GPSDSource(address: try GPSDAddress.parse("gpsd://localhost:2947"))
/// for try await event in source { … }
/// ```
public struct GPSDSource: FixSource {
    public let address: GPSDAddress
    /// The one device to watch (`/dev/ttyACM0`), or nil for all of gpsd's devices.
    public let device: String?
    /// Whether to reconnect after gpsd goes away, or end.
    public let reconnect: Bool

    /// - Parameters:
    ///   - address: where gpsd listens.
    ///   - device: watch only this device of gpsd's, by its path; nil watches all.
    ///   - reconnect: reconnect after gpsd goes away (the default), or end the sequence.
    public init(address: GPSDAddress, device: String? = nil, reconnect: Bool = true) {
        self.address = address
        self.device = device
        self.reconnect = reconnect
    }

    /// `gpsd HOST:PORT`.
    public var description: String { "gpsd \(address)" }

    /// Wall time: gpsd is live.
    public var clock: any Clock<Duration> { ContinuousClock() }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: GPSDReader(address: address, device: device, reconnect: reconnect))
    }

    /// Starts the reader thread at the first `next()` and hands on what it yields.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let reader: GPSDReader
        private var events: AsyncThrowingStream<SourceEvent, any Error>.AsyncIterator?
        private var finished = false

        init(reader: GPSDReader) {
            self.reader = reader
        }

        /// The next event; nil once the sequence has ended.
        ///
        /// - Throws: ``SourceError``, or `CancellationError`; after a throw the iterator is finished.
        public mutating func next() async throws -> SourceEvent? {
            if finished { return nil }
            if events == nil {
                let reader = reader
                events = ReaderThread.stream(of: SourceEvent.self, name: "gpsd \(reader.address)") { control in
                    try reader.run(control)
                }.makeAsyncIterator()
            }
            do {
                guard let event = try await events?.next() else {
                    finished = true
                    try Task.checkCancellation()
                    return nil
                }
                return event
            } catch {
                finished = true
                events = nil
                throw error
            }
        }
    }
}
