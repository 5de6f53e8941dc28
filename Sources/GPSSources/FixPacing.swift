import GPSCore

/// Delivers a recorded or simulated source's fixes at their times: waits on the pacing clock
/// as the ``Pacer`` decides, then advances the source's ``LogClock``.
///
/// The pacing clock is touched only at a ``ReplaySpeed/times(_:)`` speed: at
/// ``ReplaySpeed/max`` it is neither read nor slept on.
struct FixPacing {
    private var pacer: Pacer
    private let pacingClock: any Clock<Duration>
    private var timer: PacingTimer?
    /// The source's clock, advanced to each timed fix's log time.
    let logClock: LogClock

    init(speed: ReplaySpeed, pacingClock: any Clock<Duration>, logClock: LogClock) {
        pacer = Pacer(speed: speed)
        self.pacingClock = pacingClock
        self.logClock = logClock
    }

    /// Returns when `fix` is due, with the log clock at its time.
    ///
    /// A fix without a date and time is due at once and moves no clock.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (checked for every fix, so
    ///   cancellation ends a replay at ``ReplaySpeed/max`` too).
    mutating func wait(for fix: Fix) async throws {
        try Task.checkCancellation()
        guard let microseconds = fix.time?.microsecondsSinceEpoch else { return }
        let step = pacer.schedule(microseconds: microseconds)
        if let due = step.due {
            if let timer {
                try await timer.sleep(untilOffset: due)
            } else {
                timer = PacingTimer(clock: pacingClock)
            }
        }
        logClock.advance(to: step.logOffset)
    }
}
