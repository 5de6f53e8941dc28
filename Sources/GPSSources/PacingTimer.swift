/// The pacing clock, started: sleeps until an offset from the instant pacing began.
///
/// Type-erases the clock's `Instant`, which a source holding `any Clock<Duration>` cannot
/// name, by capturing it in the sleeping closure.
struct PacingTimer: Sendable {
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Starts pacing now on `clock`.
    init<C: Clock<Duration>>(clock: C) {
        let start = clock.now
        sleepUntil = { due in
            let deadline = start.advanced(by: due)
            if deadline > clock.now {
                try await clock.sleep(until: deadline, tolerance: nil)
            }
        }
    }

    /// Returns when `due` has passed since pacing began: at once if it already has.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it sleeps.
    func sleep(untilOffset due: Duration) async throws {
        try await sleepUntil(due)
    }
}
