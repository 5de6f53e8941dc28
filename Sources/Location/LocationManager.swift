import GPSCore

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
/// Feed fixes with ``process(_:)``; run ``run()`` for the timers, until cancelled.
public actor LocationManager {
    /// How often ``run()`` runs the policy's timers, on the injected clock. The ping and the
    /// refinement timeout fire at most this late.
    public static let tickInterval: Duration = .seconds(1)

    public nonisolated let configuration: LocationConfiguration

    /// The events, for one consumer.
    ///
    /// The buffer is unbounded: location updates are points of the track and are never
    /// dropped, so a slow consumer costs memory (about one event per fix), not points. The
    /// stream finishes when the manager is deinitialised.
    public nonisolated let events: AsyncStream<LocationEvent>

    private let continuation: AsyncStream<LocationEvent>.Continuation
    private let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration
    private var policy: LocationPolicy

    /// A manager that reads `clock` for timers and staleness.
    public init(configuration: LocationConfiguration = LocationConfiguration(), clock: any Clock<Duration>) {
        self.configuration = configuration
        self.clock = clock
        self.elapsed = Self.stopwatch(clock)
        self.policy = LocationPolicy(configuration: configuration)
        (events, continuation) = AsyncStream.makeStream(of: LocationEvent.self, bufferingPolicy: .unbounded)
    }

    deinit {
        continuation.finish()
    }

    /// Takes one fix, as it arrives from the source.
    public func process(_ fix: Fix) {
        send(policy.process(fix, now: elapsed()))
    }

    /// Runs the timers on the injected clock until the task is cancelled; then returns.
    public func run() async throws {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: Self.tickInterval)
            } catch is CancellationError {
                return
            }
            send(policy.tick(now: elapsed()))
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

    private func send(_ events: [LocationEvent]) {
        for event in events { continuation.yield(event) }
    }

    /// A function returning the time elapsed on `clock` since this call.
    private static func stopwatch<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
