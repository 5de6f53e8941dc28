/// Decides which requested chimes are queued, coalesced or dropped, and what plays next.
/// A value: time comes in as `now`, the time since some fixed start (a clock's reading),
/// so every rule is tested without a clock or a sound device.
///
/// - Chimes whose group is not in ``enabled`` are ignored.
/// - At most one ``ChimeKind/update`` is queued per ``updateInterval``: at 10 Hz input and
///   the default 5 s the user hears one chime, not fifty. The first update always plays;
///   later ones are coalesced until the interval since the last queued one has passed.
/// - The queue holds at most ``capacity`` chimes. A chime that finds it full is dropped,
///   unless it is a lifecycle chime (recording started or stopped, heard once per
///   recording): it takes the place of the oldest chime of another group, if there is one.
///
/// ```swift
/// var policy = ChimePolicy(enabled: .all)
/// policy.request(.update, now: .zero)            // .queued
/// policy.request(.update, now: .seconds(1))      // .coalesced
/// policy.next()?.kind                            // .update
/// ```
public struct ChimePolicy: Sendable, Hashable {
    /// One update chime per this long unless told otherwise (`--chime-every`).
    public static let defaultUpdateInterval = Duration.seconds(5)
    /// Chimes waiting at most unless told otherwise: a second or two of sound, enough for
    /// a signal change and a lifecycle chime during an update, too few to lag behind.
    public static let defaultCapacity = 4

    /// A chime waiting to play, and when it was asked for.
    public struct Request: Sendable, Hashable {
        public var kind: ChimeKind
        /// The `now` of the ``ChimePolicy/request(_:now:)`` that queued it.
        public var requestedAt: Duration
    }

    /// What became of a requested chime.
    public enum Decision: Sendable, Hashable {
        /// Queued; nothing else changed.
        case queued
        /// Queued in place of `evicted`, an older chime that will not play.
        case queuedEvicting(ChimeKind)
        /// Not in ``ChimePolicy/enabled``; nothing happens.
        case disabled
        /// An update within ``ChimePolicy/updateInterval`` of the last queued one.
        case coalesced
        /// The queue was full.
        case dropped
    }

    /// The groups that sound.
    public var enabled: ChimeSet
    /// At most one update chime per this long; zero lets every update through.
    public let updateInterval: Duration
    /// Chimes waiting at most, 1 or more.
    public let capacity: Int
    /// Waiting chimes, oldest first.
    public private(set) var queue: [Request] = []
    /// When the last update chime was queued.
    public private(set) var lastUpdateQueuedAt: Duration?

    /// - Precondition: `capacity >= 1` and `updateInterval >= .zero` (check user input with
    ///   ``ChimeError/negativeInterval(seconds:)`` first).
    public init(
        enabled: ChimeSet = .default,
        updateInterval: Duration = ChimePolicy.defaultUpdateInterval,
        capacity: Int = ChimePolicy.defaultCapacity
    ) {
        precondition(capacity >= 1, "a chime queue needs room for one chime, not \(capacity)")
        precondition(updateInterval >= .zero, "the update interval \(updateInterval) is negative")
        self.enabled = enabled
        self.updateInterval = updateInterval
        self.capacity = capacity
    }

    /// Asks for `kind` at `now` and says what became of it.
    public mutating func request(_ kind: ChimeKind, now: Duration) -> Decision {
        guard enabled.contains(kind) else { return .disabled }
        if kind == .update, let last = lastUpdateQueuedAt, now - last < updateInterval {
            return .coalesced
        }
        var decision = Decision.queued
        if queue.count >= capacity {
            guard kind.category == .lifecycle,
                  let victim = queue.firstIndex(where: { $0.kind.category != .lifecycle })
            else { return .dropped }
            decision = .queuedEvicting(queue.remove(at: victim).kind)
        }
        queue.append(Request(kind: kind, requestedAt: now))
        if kind == .update { lastUpdateQueuedAt = now }
        return decision
    }

    /// Takes the oldest waiting chime, if any.
    public mutating func next() -> Request? {
        queue.isEmpty ? nil : queue.removeFirst()
    }

    /// Empties the queue; returns how many chimes it held.
    public mutating func removeAll() -> Int {
        defer { queue.removeAll() }
        return queue.count
    }
}

extension ChimePolicy {
    /// The update interval for `--chime-every SECONDS`.
    ///
    /// - Throws: ``ChimeError/negativeInterval(seconds:)`` below zero (or not a number).
    public static func updateInterval(seconds: Double) throws(ChimeError) -> Duration {
        guard seconds >= 0, seconds.isFinite else { throw ChimeError.negativeInterval(seconds: seconds) }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
