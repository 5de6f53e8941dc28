import Clocks
import GPSCore
import GPSSources
import Simulation
import Testing

@Suite("Simulator source", .timeLimit(.minutes(1)))
struct SimulatorSourceTests {
    @Test("a 30 s hike at 1 Hz yields connected, then 30 fixes close to the true path")
    func shortHike() async throws {
        let settings = SimulationSettings(route: .hike, rate: .hz1, durationSeconds: 30, noiseMeters: 3)
        let truth = Dictionary(Simulator(settings).map { ($0.truth.time, $0.truth) }, uniquingKeysWith: { a, _ in a })
        let source = SimulatorSource(settings: settings, speed: .max, pacingClock: UnimplementedClock())
        #expect(source.description == "simulated hike")
        let (events, error) = await drain(source)
        #expect(error == nil)
        #expect(events.first == .connected("simulated hike"))
        #expect(events.fixes.count == settings.epochCount)
        #expect(settings.epochCount == 30)

        var positioned = 0
        for fix in events.fixes {
            let time = try #require(fix.time)
            let true_ = try #require(truth[time], "fix at \(time) matches no epoch")
            guard let coordinate = fix.coordinate else {
                #expect(!true_.hasFix)
                continue
            }
            positioned += 1
            #expect(coordinate.distance(to: true_.coordinate) < 50, "fix at \(time)")
        }
        #expect(positioned >= 20)
        #expect(source.logClock?.now.offset == .seconds(29))
    }

    @Test("the same settings give the same fixes")
    func deterministic() async throws {
        let settings = SimulationSettings(route: .cityRun, rate: .hz5, durationSeconds: 4, seed: 7)
        let first = await drain(SimulatorSource(settings: settings, speed: .max)).events
        let second = await drain(SimulatorSource(settings: settings, speed: .max)).events
        #expect(first.fixes.count == 20)
        #expect(first == second)
        #expect(first.first == .connected("simulated city-run"))
    }
}
