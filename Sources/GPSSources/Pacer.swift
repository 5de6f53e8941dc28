/// When each fix of a recorded or simulated source is due: the pacing decision, without I/O
/// or a clock.
///
/// The first fix with a time is due at once (offset zero on the pacing clock); a later fix
/// with time `t` is due at `(t − t0) / n`, `n` the speed. A step in log time that goes back
/// or jumps more than ``maximumGap`` forward (concatenated logs, a receiver restart) re-anchors
/// the schedule: that fix is due at most `maximumGap / n` after the previous one, so a
/// replay never waits hours. At ``ReplaySpeed/max`` nothing is ever due later than now.
///
/// The pacer also gives the offset for the source's ``LogClock``: the ``LogTime`` of the fix.
struct Pacer: Sendable, Hashable {
    /// The largest step in log time replayed as it is, in microseconds: the step the log clock
    /// follows (``LogTime/maximumStepMicroseconds``, 60 s). A longer one is a gap in the
    /// recording, not a minute of the journey.
    static let maximumGapMicroseconds = LogTime.maximumStepMicroseconds
    /// ``maximumGapMicroseconds`` as a duration.
    static let maximumGap = Duration.microseconds(maximumGapMicroseconds)

    /// What to do with one fix.
    struct Step: Sendable, Hashable {
        /// When the fix is due, as an offset from the start of pacing on the pacing clock;
        /// nil at ``ReplaySpeed/max``, where nothing waits.
        var due: Duration?
        /// Where to advance the ``LogClock``: log time since the first fix, never going back.
        var logOffset: Duration
    }

    let speed: ReplaySpeed
    /// Whether a fix with a time has been scheduled.
    private var started = false
    /// Time of the previous fix with a time.
    private var previousMicroseconds: Int64 = 0
    /// Log time (microseconds since 1970) and pacing offset of the current anchor.
    private var anchorMicroseconds: Int64 = 0
    private var anchorDue = Duration.zero
    /// The due offset of the previous fix.
    private var previousDue = Duration.zero
    /// The log clock's time.
    private var logTime = LogTime()

    init(speed: ReplaySpeed) {
        self.speed = speed
    }

    /// The step for a fix with time `microseconds` since 1970 (``GPSCore/FixTime/microsecondsSinceEpoch``).
    mutating func schedule(microseconds t: Int64) -> Step {
        let logOffset = logTime.advance(toFixAt: t)
        guard started else {
            started = true
            previousMicroseconds = t
            anchorMicroseconds = t
            return Step(due: isPaced ? .zero : nil, logOffset: .zero)
        }
        let step = t.subtractingReportingOverflow(previousMicroseconds)
        if step.overflow || step.partialValue < 0 || step.partialValue > Pacer.maximumGapMicroseconds {
            // Re-anchor: a step back costs nothing, a long jump costs the largest step.
            let replayed = step.overflow || step.partialValue < 0 ? Int64(0) : Pacer.maximumGapMicroseconds
            anchorMicroseconds = t
            anchorDue = previousDue + scaled(replayed)
        }
        previousMicroseconds = t
        guard isPaced else { return Step(due: nil, logOffset: logOffset) }
        let due = anchorDue + scaled(t - anchorMicroseconds)
        previousDue = due
        return Step(due: due, logOffset: logOffset)
    }

    private var isPaced: Bool {
        if case .times = speed { return true }
        return false
    }

    /// `microseconds` of log time as wall time at the speed.
    private func scaled(_ microseconds: Int64) -> Duration {
        guard case .times(let n) = speed else { return .zero }
        return .microseconds(microseconds) / n
    }
}
