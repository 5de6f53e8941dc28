/// How long to wait before each attempt to reconnect to a peer that went away.
///
/// The first wait is ``initialDelay``; each failed attempt doubles the next, up to
/// ``maximumDelay``; ``reset()`` after a connection succeeds starts again from the first.
/// A pure value: the reader that owns it does the waiting.
///
/// ```swift
/// var backoff = ReconnectBackoff()
/// backoff.nextDelay()   // 0.5 s
/// backoff.nextDelay()   // 1 s
/// backoff.reset()       // connected again: the next wait is 0.5 s
/// ```
package struct ReconnectBackoff: Sendable, Hashable {
    /// The first wait: short, so that a restarted gpsd (`systemctl restart gpsd`) is back
    /// within about a second.
    package static let defaultInitialDelay = Duration.milliseconds(500)
    /// The longest wait: a peer that stays away is still retried every 10 s, so a fix
    /// arrives at most about 10 s after it comes back.
    package static let defaultMaximumDelay = Duration.seconds(10)

    package let initialDelay: Duration
    package let maximumDelay: Duration
    private var next: Duration

    /// A policy starting at `initialDelay` (positive) and doubling up to `maximumDelay`
    /// (at least `initialDelay`).
    package init(initialDelay: Duration = defaultInitialDelay, maximumDelay: Duration = defaultMaximumDelay) {
        precondition(initialDelay > .zero && maximumDelay >= initialDelay, "backoff delays must be positive and ordered")
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        next = initialDelay
    }

    /// The wait before the next attempt; the one after it is twice as long, up to the maximum.
    package mutating func nextDelay() -> Duration {
        let delay = next
        next = min(next * 2, maximumDelay)
        return delay
    }

    /// A connection succeeded: the next wait is the initial delay again.
    package mutating func reset() {
        next = initialDelay
    }
}
