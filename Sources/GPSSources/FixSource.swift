/// A source of fixes: an asynchronous sequence of ``SourceEvent``s.
///
/// Three real kinds exist or will: recorded logs (``LogFileSource``), the simulator
/// (``SimulatorSource``), and later gpsd and serial ttys. A sequence ends when its source
/// has nothing more (the end of a log or simulation); it throws ``SourceError`` when the
/// source cannot be read, and `CancellationError` when the consuming task is cancelled
/// while the source waits.
public protocol FixSource: AsyncSequence, Sendable where Element == SourceEvent {
    /// What the source reads, for people (`log hike.nmea`).
    var description: String { get }
    /// The clock the location manager must run its timers on while it consumes this source.
    ///
    /// Recorded and simulated sources return a ``LogClock`` that the source advances to each
    /// fix's time, so that timers follow the log and not the wall; live sources return
    /// `ContinuousClock()`.
    var clock: any Clock<Duration> { get }
}
