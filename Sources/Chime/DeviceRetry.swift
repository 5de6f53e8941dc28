/// When to try the sound device again after it failed, and which failures to log.
/// A value on `now` readings like ``ChimePolicy``.
///
/// An outage starts at the first failure and ends at the next chime that plays. Only the
/// start is worth a warning (a missing sound card would otherwise log with every chime);
/// during an outage the device is tried again at most once per ``retryInterval``, and
/// chimes in between are dropped without touching it.
package struct DeviceRetry: Sendable, Hashable {
    /// Try a failed device again after this long unless told otherwise: often enough to
    /// pick up a USB sound card plugged in on the trail, rarely enough to cost nothing.
    package static let defaultRetryInterval = Duration.seconds(30)

    package let retryInterval: Duration
    /// When the last attempt failed; nil while the device works (or was never tried).
    package private(set) var lastFailureAt: Duration?

    package init(retryInterval: Duration = DeviceRetry.defaultRetryInterval) {
        self.retryInterval = retryInterval
    }

    /// Whether an outage is going on.
    package var isFailing: Bool { lastFailureAt != nil }

    /// Whether the device may be opened at `now`.
    package func mayTry(now: Duration) -> Bool {
        guard let last = lastFailureAt else { return true }
        return now - last >= retryInterval
    }

    /// Records a failed open or write at `now`; true when it starts an outage (log it).
    package mutating func failed(now: Duration) -> Bool {
        defer { lastFailureAt = now }
        return lastFailureAt == nil
    }

    /// Records a chime played; true when it ends an outage (log that the device is back).
    package mutating func succeeded() -> Bool {
        defer { lastFailureAt = nil }
        return lastFailureAt != nil
    }
}
