/// Whether a serial receiver that has worked still sends NMEA: the policy that turns a line
/// gone quiet, or gone to garbage, into a ``SourceEvent/lost(_:)``, without I/O or a clock.
///
/// A receiver sends sentences every second or so. When none has come for ``stallAfter`` the
/// line is stalled: silent (the receiver lost power on a header that has no hang-up signal)
/// or sending bytes that are not NMEA (it was switched to binary output or another rate).
/// The first sentence after that recovers it. Each change is reported once.
///
/// `now` is any monotonic time as an offset from a fixed start, in the caller's clock.
package struct SerialWatchdog: Sendable, Hashable {
    /// How long without a sentence before a line is stalled: 30 s, long past any receiver's
    /// reporting interval (0.1 to 5 s) and a cold start's silence at 4800 baud.
    package static let stallAfter = Duration.seconds(30)
    /// How long bytes may come without a sentence before it is worth a warning: 10 s, ten
    /// epochs of any receiver, before the line counts as stalled.
    package static let garbageWarningAfter = Duration.seconds(10)

    /// A change of the line's state.
    package enum Change: Sendable, Hashable {
        /// No sentence for ``stallAfter``; `bytes` arrived in that time (0: silent).
        case stalled(bytes: Int)
        /// A sentence came after a stall.
        case recovered
        /// Bytes but no sentence for ``garbageWarningAfter`` (`bytes` of them): worth a warning,
        /// once per spell; the line is not stalled yet.
        case garbled(bytes: Int)
    }

    private var lastSentence: Duration
    private var bytesSinceSentence = 0
    private var garbageReported = false
    package private(set) var isStalled = false

    /// A watchdog whose line has just shown a sentence (or just been opened) at `now`.
    package init(now: Duration) {
        lastSentence = now
    }

    /// Takes what one read gave at `now` (0 and 0 for a wait that timed out) and says what changed.
    package mutating func observe(bytes: Int, sentences: Int, now: Duration) -> Change? {
        if sentences > 0 {
            lastSentence = now
            bytesSinceSentence = 0
            garbageReported = false
            if isStalled {
                isStalled = false
                return .recovered
            }
            return nil
        }
        bytesSinceSentence += bytes
        if !isStalled && now - lastSentence >= SerialWatchdog.stallAfter {
            isStalled = true
            return .stalled(bytes: bytesSinceSentence)
        }
        if !isStalled, !garbageReported, bytesSinceSentence > 0, now - lastSentence >= SerialWatchdog.garbageWarningAfter {
            garbageReported = true
            return .garbled(bytes: bytesSinceSentence)
        }
        return nil
    }
}
