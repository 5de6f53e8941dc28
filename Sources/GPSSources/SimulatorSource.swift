import GPSCore
import NMEA
import Simulation

/// The route simulator as a source: the simulator's NMEA sentences through the NMEA parser,
/// paced by the epochs' times.
///
/// Iterating yields `.connected("simulated <route>")`, then one `.fix` per epoch
/// (``SimulationSettings/epochCount`` in all, no-fix epochs included), then ends. The fixes
/// are what the parser makes of the simulated receiver's sentences, as they would be from a
/// real one, and are paced and advance ``clock`` as ``LogFileSource``'s do.
///
/// The ``clock`` is one per source value: iterate a source once.
///
/// ```swift
/// let source = SimulatorSource(settings: SimulationSettings(route: .hike, durationSeconds: 60), speed: .max)
/// for try await event in source { … }
/// ```
public struct SimulatorSource: FixSource {
    public let settings: SimulationSettings
    public let speed: ReplaySpeed
    private let pacingClock: any Clock<Duration>
    private let logClock = LogClock()

    /// - Parameters:
    ///   - settings: the route, rate, length, noise and seed of the simulation.
    ///   - speed: how fast to deliver the fixes.
    ///   - pacingClock: the clock waited on between fixes; tests pass a `TestClock`.
    public init(settings: SimulationSettings, speed: ReplaySpeed, pacingClock: any Clock<Duration> = ContinuousClock()) {
        self.settings = settings
        self.speed = speed
        self.pacingClock = pacingClock
    }

    /// `simulated <route>`, with the route's name as `trackd simulate` takes it.
    public var description: String { "simulated \(settings.route.rawValue)" }

    /// The ``LogClock`` the source advances to each fix's time.
    public var clock: any Clock<Duration> { logClock }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self, pacing: FixPacing(speed: speed, pacingClock: pacingClock, logClock: logClock))
    }

    /// Runs the simulator on demand, one epoch whenever no assembled fix is waiting.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let description: String
        private var simulator: Simulator
        private var parser = NMEAParser(allowMissingChecksum: false, satellites: true)
        private var pending = PendingFixes()
        private var pacing: FixPacing
        private var state = State.unconnected

        private enum State {
            case unconnected, running, draining, finished
        }

        init(source: SimulatorSource, pacing: FixPacing) {
            description = source.description
            simulator = Simulator(source.settings)
            self.pacing = pacing
        }

        /// The next event, or nil after the last epoch's fix.
        ///
        /// - Throws: `CancellationError` when the task is cancelled; the iterator is then finished.
        public mutating func next() async throws -> SourceEvent? {
            switch state {
            case .finished:
                return nil
            case .unconnected:
                state = .running
                return .connected(description)
            case .running, .draining:
                break
            }
            while true {
                if let fix = pending.removeFirst() {
                    do {
                        try await pacing.wait(for: fix)
                    } catch {
                        state = .finished
                        throw error
                    }
                    return .fix(fix)
                }
                if state == .draining {
                    state = .finished
                    return nil
                }
                simulateEpoch()
            }
        }

        /// Parses the next epoch's sentences into `pending`; after the last, flushes the parser.
        ///
        /// The parser completes an epoch's fix when the next epoch's time begins, so the fix of
        /// epoch k comes out while epoch k + 1 is parsed, and the last one at the flush.
        private mutating func simulateEpoch() {
            var fixes: [Fix] = []
            defer { pending.append(contentsOf: fixes) }
            guard let epoch = simulator.next() else {
                parser.finish { fixes.append($0) }
                state = .draining
                return
            }
            var text = epoch.text
            text.withUTF8 { bytes in
                parser.parse(UnsafeRawBufferPointer(bytes)) { fixes.append($0) }
            }
        }
    }
}
