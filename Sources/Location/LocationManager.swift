import GPSCore
import ServiceLifecycle

/// Turns raw fixes into a clean track, and publishes what happens as ``LocationEvent``s.
///
/// The decisions are made by a ``LocationPolicy`` value; the actor only reads the clock, feeds
/// the policy and sends its events. Fix times drive everything measured along the track; the
/// injected clock drives the timers (ping, refinement timeout, signal loss) and staleness.
///
/// ```swift
/// let manager = LocationManager(configuration: LocationConfiguration(), clock: ContinuousClock())
/// async let timers: Void = manager.run()
/// for await event in manager.events { … }
/// ```
///
/// Feed fixes with ``process(_:)``; run ``run()`` for the timers, until cancelled or until a
/// graceful shutdown; call ``finish()`` when the source has ended, to end ``events``.
///
/// The timers run at whole ``tickInterval``s of the clock since the manager was made. A fix
/// first runs every tick that fell due before it, so the result does not depend on whether
/// ``run()`` got to a tick first: a source on a clock of its own (a replayed log's fix times)
/// gives the same events at any replay speed.
public actor LocationManager: Service {
    /// How often the policy's timers run, on the injected clock. The ping and the refinement
    /// timeout fire at most this late.
    public static let tickInterval: Duration = .seconds(1)

    public nonisolated let configuration: LocationConfiguration

    /// The events, for one consumer.
    ///
    /// The buffer is unbounded: location updates are points of the track and are never
    /// dropped, so a slow consumer costs memory (about one event per fix), not points. The
    /// stream finishes on ``finish()`` or when the manager is deinitialised.
    public nonisolated let events: AsyncStream<LocationEvent>

    private let continuation: AsyncStream<LocationEvent>.Continuation
    private let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration
    private let systemTime: @Sendable () -> Double?
    private var policy: LocationPolicy
    private var nextTick = LocationManager.tickInterval

    /// A manager that reads `clock` for timers and staleness.
    ///
    /// `systemTime` gives the time of a synchronised system clock (seconds since 1970), or nil
    /// while it is not synchronised; pass it for live receivers only, never for a replayed log
    /// (see ``LocationPolicy/process(_:now:systemTime:)``).
    public init(
        configuration: LocationConfiguration = LocationConfiguration(), clock: any Clock<Duration>,
        systemTime: @escaping @Sendable () -> Double? = { nil }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.systemTime = systemTime
        self.elapsed = Self.stopwatch(clock)
        self.policy = LocationPolicy(configuration: configuration)
        (events, continuation) = AsyncStream.makeStream(of: LocationEvent.self, bufferingPolicy: .unbounded)
    }

    deinit {
        continuation.finish()
    }

    /// Takes one fix, as it arrives from the source.
    public func process(_ fix: Fix) {
        let now = elapsed()
        runTimers(upTo: now)
        send(policy.process(fix, now: now, systemTime: systemTime()))
    }

    /// The source went away: the signal becomes invalid, which ends the track segment.
    public func sourceLost() {
        let now = elapsed()
        runTimers(upTo: now)
        send(policy.sourceLost(now: now))
    }

    /// No more fixes will come: sends what the policy still held (see
    /// ``LocationPolicy/finish(now:)``), then ends ``events``.
    public func finish() {
        send(policy.finish(now: elapsed()))
        continuation.finish()
    }

    /// Runs the timers on the injected clock until the task is cancelled or the service
    /// group shuts down gracefully; then returns.
    public nonisolated func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.runTimerLoop()
        }
    }

    private func runTimerLoop() async {
        while !Task.isCancelled {
            let wait = nextTick - elapsed()
            if wait > .zero {
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    return
                }
            }
            runTimers(upTo: elapsed())
        }
    }

    /// The running counters.
    public var statistics: LocationStatistics { policy.statistics }
    /// The current signal strength.
    public var signalStrength: SignalStrength { policy.signalStrength }
    /// Whether ``LocationEvent/stationary`` is the last motion event sent.
    public var isStationary: Bool { policy.isStationary }
    /// The last delivered location.
    public var lastLocation: Location? { policy.lastLocation }
    /// The smoothed speed, m/s (0 while stationary).
    public var speedMetersPerSecond: Double { policy.speedMetersPerSecond }

    /// Runs every tick due at or before `now`, each at its own time.
    private func runTimers(upTo now: Duration) {
        while nextTick <= now {
            send(policy.tick(now: nextTick))
            nextTick += Self.tickInterval
        }
    }

    private func send(_ events: [LocationEvent]) {
        for event in events { continuation.yield(event) }
    }

    /// A function returning the time elapsed on `clock` since this call.
    private static func stopwatch<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
