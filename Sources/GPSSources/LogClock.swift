import Synchronization

/// A clock whose time is the time of the fixes a recorded source has delivered.
///
/// `now` starts at zero; the source advances it to (fix time − first fix time) before it
/// yields each fix with a time. It never goes back. Sleepers wake when an advance reaches
/// or passes their deadline, so the location manager's timers (the no-movement ping, the
/// refinement timeout) fire at the log's times however fast the log is replayed.
///
/// ```swift
/// let clock = LogClock()
/// clock.advance(to: .seconds(10))   // wakes everyone sleeping until 10 s or earlier
/// ```
public final class LogClock: Clock, Sendable {
    /// A point in log time: the offset from the first fix of the source.
    public struct Instant: InstantProtocol {
        /// Log time since the first fix.
        public var offset: Duration

        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (a: Instant, b: Instant) -> Bool {
            a.offset < b.offset
        }
    }

    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Duration.zero
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
    }

    private let state = Mutex(State())

    /// A clock at zero with no sleepers.
    public init() {}

    /// The log time of the latest fix delivered.
    public var now: Instant {
        Instant(offset: state.withLock { $0.now })
    }

    /// Log time moves in whatever steps the fixes make; any offset can be reached.
    public var minimumResolution: Duration { .zero }

    /// Suspends until an ``advance(to:)`` reaches `deadline`; returns at once when it already has.
    ///
    /// - Parameter tolerance: ignored; the sleeper wakes at the advance that reaches its deadline.
    /// - Throws: `CancellationError` when the task is cancelled before or while it sleeps
    ///   (the sleeper is then forgotten, its continuation resumed).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The cancelled flag is set before the handler below runs, so a cancellation
                // that comes before this registration is seen here, and one that comes after
                // finds the sleeper registered.
                let resume: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline.offset <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline.offset, continuation: continuation)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `offset` after the first fix and wakes the sleepers now due.
    ///
    /// An offset earlier than ``now`` leaves the clock where it is: log time never goes back.
    public func advance(to offset: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            guard offset > state.now else { return [] }
            state.now = offset
            let ids = state.sleepers.filter { $0.value.deadline <= offset }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }
        }
        for sleeper in due.sorted(by: { $0.deadline < $1.deadline }) {
            sleeper.continuation.resume()
        }
    }

    /// How many tasks are sleeping on the clock (for tests: a sleeper has registered).
    var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }
}
