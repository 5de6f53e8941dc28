@testable import GPSSources
import Testing

@Suite("Log clock", .timeLimit(.minutes(1)))
struct LogClockTests {
    /// Returns once `count` tasks sleep on `clock`.
    func waitForSleepers(_ clock: LogClock, count: Int = 1) async {
        while clock.sleeperCount < count { await Task.yield() }
    }

    @Test("a new clock stands at zero")
    func startsAtZero() {
        #expect(LogClock().now == LogClock.Instant(offset: .zero))
    }

    @Test("a sleeper wakes when the clock is advanced to its deadline, not before")
    func sleeperWakesAtDeadline() async throws {
        let clock = LogClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(5)), tolerance: nil) }
        await waitForSleepers(clock)
        clock.advance(to: .milliseconds(4_999))
        #expect(clock.sleeperCount == 1)
        clock.advance(to: .seconds(5))
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
    }

    @Test("an advance past the deadline wakes the sleeper too")
    func sleeperWakesPastDeadline() async throws {
        let clock = LogClock()
        let early = Task { try await clock.sleep(for: .seconds(2)) }
        let late = Task { try await clock.sleep(for: .seconds(20)) }
        await waitForSleepers(clock, count: 2)
        clock.advance(to: .seconds(7))
        try await early.value
        #expect(clock.sleeperCount == 1)
        late.cancel()
        await #expect(throws: CancellationError.self) { try await late.value }
    }

    @Test("sleeping until a time already passed returns at once")
    func pastDeadline() async throws {
        let clock = LogClock()
        clock.advance(to: .seconds(10))
        try await clock.sleep(until: .init(offset: .seconds(3)), tolerance: nil)
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a sleeping task ends it with CancellationError and forgets the sleeper")
    func cancelWhileSleeping() async throws {
        let clock = LogClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(5)), tolerance: nil) }
        await waitForSleepers(clock)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        clock.advance(to: .seconds(10))
    }

    @Test("a task cancelled before it sleeps gets CancellationError at once")
    func cancelledBeforeSleeping() async throws {
        let clock = LogClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(offset: .seconds(5)), tolerance: nil)
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("advancing to an earlier time leaves the clock where it is")
    func neverGoesBack() {
        let clock = LogClock()
        clock.advance(to: .seconds(10))
        clock.advance(to: .seconds(4))
        #expect(clock.now.offset == .seconds(10))
        clock.advance(to: .seconds(11))
        #expect(clock.now.offset == .seconds(11))
    }

    @Test("instants order and measure by their offset")
    func instants() {
        let a = LogClock.Instant(offset: .seconds(1))
        let b = a.advanced(by: .milliseconds(500))
        #expect(a < b)
        #expect(a.duration(to: b) == .milliseconds(500))
        #expect(b.offset == .milliseconds(1500))
    }
}
