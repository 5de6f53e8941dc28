import Clocks
import GPSCore
import GPSSources
import Simulation
import Testing

@Suite("Pacing on the pacing clock", .timeLimit(.minutes(1)))
struct PacingTests {
    @Test("at speed 10 the fix one second later waits until the pacing clock has advanced 100 ms")
    func secondFixWaits() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1, 2]))
        let clock = TestClock()
        let source = LogFileSource(path: file.path, speed: .times(10), pacingClock: clock)
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("log \(file.path)"))
        #expect(try await consumer.nextFixSecond() == 0)
        #expect(source.logClock?.now.offset == .zero)

        await clock.advance(by: .milliseconds(99))
        #expect(consumer.delivered.count == 2)
        // The source is asleep on the clock, waiting for the second fix's time.
        await #expect(throws: (any Error).self) { try await clock.checkSuspension() }
        await clock.advance(by: .milliseconds(1))
        #expect(try await consumer.nextFixSecond() == 1)
        #expect(source.logClock?.now.offset == .seconds(1))

        await clock.advance(by: .milliseconds(99))
        #expect(consumer.delivered.count == 3)
        await clock.advance(by: .milliseconds(1))
        #expect(try await consumer.nextFixSecond() == 2)
        #expect(try await consumer.events.next() == nil)
    }

    @Test("a two-hour gap in the log waits 6 s at speed 10 and moves no log time (a gap is not a journey)")
    func longGapIsCapped() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1, 7201]))
        let clock = TestClock()
        let source = LogFileSource(path: file.path, speed: .times(10), pacingClock: clock)
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        _ = try await consumer.events.next()
        #expect(try await consumer.nextFixSecond() == 0)
        await clock.advance(by: .milliseconds(100))
        #expect(try await consumer.nextFixSecond() == 1)

        await clock.advance(by: .milliseconds(5_999))
        #expect(consumer.delivered.count == 3)
        await #expect(throws: (any Error).self) { try await clock.checkSuspension() }
        await clock.advance(by: .milliseconds(1))
        #expect(try await consumer.nextFixSecond() == 7201)
        #expect(source.logClock?.now.offset == .seconds(1))
    }

    @Test("time going back in the log waits nothing and does not move the log clock back")
    func timeGoingBack() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 10, 5, 6]))
        let clock = TestClock()
        let source = LogFileSource(path: file.path, speed: .times(10), pacingClock: clock)
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        _ = try await consumer.events.next()
        #expect(try await consumer.nextFixSecond() == 0)
        await clock.advance(by: .seconds(1))
        #expect(try await consumer.nextFixSecond() == 10)
        #expect(source.logClock?.now.offset == .seconds(10))

        // No advance: the fix at 5 s comes at once.
        #expect(try await consumer.nextFixSecond() == 5)
        #expect(source.logClock?.now.offset == .seconds(10))

        // The schedule goes on from the fix at 5 s: 6 s is 100 ms later.
        await clock.advance(by: .milliseconds(99))
        #expect(consumer.delivered.count == 4)
        await clock.advance(by: .milliseconds(1))
        #expect(try await consumer.nextFixSecond() == 6)
        // Log time follows the step forward from 5 s to 6 s.
        #expect(source.logClock?.now.offset == .seconds(11))
    }

    @Test("at max speed the pacing clock is never read or slept on")
    func maxNeverSleeps() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1, 2, 600, 3]))
        let source = LogFileSource(path: file.path, speed: .max, pacingClock: UnimplementedClock())
        let (events, error) = await drain(source)
        #expect(error == nil)
        #expect(events.fixes.count == 5)
        // 600 s is a step beyond 60 s and 3 s one back: neither moves log time.
        #expect(source.logClock?.now.offset == .seconds(2))
    }

    @Test("cancelling the consumer while the source waits ends it with CancellationError")
    func cancelWhileWaiting() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 100]))
        let clock = TestClock()
        let source = LogFileSource(path: file.path, speed: .times(1), pacingClock: clock)
        var consumer = Consumer(source)
        _ = try await consumer.events.next()
        #expect(try await consumer.nextFixSecond() == 0)
        consumer.task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await consumer.events.next() }
        #expect(consumer.delivered.count == 2)
    }

    @Test("the simulator source at speed 10 delivers its 1 Hz epochs 100 ms apart")
    func simulatorPaced() async throws {
        let clock = TestClock()
        let settings = SimulationSettings(route: .hike, durationSeconds: 3)
        let source = SimulatorSource(settings: settings, speed: .times(10), pacingClock: clock)
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("simulated hike"))
        guard case .fix = try await consumer.events.next() else {
            Issue.record("no first fix")
            return
        }
        await clock.advance(by: .milliseconds(99))
        #expect(consumer.delivered.count == 2)
        await clock.advance(by: .milliseconds(1))
        guard case .fix = try await consumer.events.next() else {
            Issue.record("no second fix")
            return
        }
        #expect(source.logClock?.now.offset == .seconds(1))
    }
}
