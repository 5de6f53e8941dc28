/// The time of a recorded source's clock: how far a log has got, from its fix times.
///
/// Log time starts at zero at the first fix with a time and moves with each step forward of
/// the fix times up to ``maximumStep``. A step back (a receiver's clock re-sync, two logs
/// spliced), or forward by more (a bad date, a gap in the recording), moves it not at all: a
/// single fix dated a year ahead must not age every later fix by a year. The location manager
/// decides what such steps mean (``Location/FixTimeline``); the clock only runs its timers.
///
/// `trackd record` from a log and `trackd replay` both read this, so they give the same track.
public struct LogTime: Sendable, Hashable {
    /// The largest step of fix times, microseconds, that log time follows: 60 s. A longer
    /// one is a gap in the recording or a bad time, not a minute of the journey.
    public static let maximumStepMicroseconds: Int64 = 60_000_000

    private var previousMicroseconds: Int64?
    private var offsetMicroseconds: Int64 = 0

    public init() {}

    /// Log time after a fix dated `microseconds` since 1970 (never less than before).
    public mutating func advance(toFixAt microseconds: Int64) -> Duration {
        if let previous = previousMicroseconds {
            let step = microseconds.subtractingReportingOverflow(previous)
            if !step.overflow, step.partialValue > 0, step.partialValue <= Self.maximumStepMicroseconds {
                offsetMicroseconds += step.partialValue
            }
        }
        previousMicroseconds = microseconds
        return .microseconds(offsetMicroseconds)
    }
}
