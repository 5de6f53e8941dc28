import ServiceLifecycleTestKit
import Clocks
import GPSCore
import Location
import Testing

@Suite("Location manager", .timeLimit(.minutes(1)))
struct LocationManagerTests {
    /// The next event matching `predicate`, with the events skipped on the way.
    func next(
        _ iterator: inout AsyncStream<LocationEvent>.Iterator, where predicate: (LocationEvent) -> Bool
    ) async -> (LocationEvent?, [LocationEvent]) {
        var skipped: [LocationEvent] = []
        while let event = await iterator.next() {
            if predicate(event) { return (event, skipped) }
            skipped.append(event)
        }
        return (nil, skipped)
    }

    @Test("the ping timer reports stationary on the clock 10 s after the last location")
    func pingOnClock() async throws {
        let clock = TestClock()
        let manager = LocationManager(clock: clock)
        let timers = Task { try await manager.run() }
        defer { timers.cancel() }
        var events = manager.events.makeAsyncIterator()

        await manager.process(fix(at: 0))
        let (location, _) = await next(&events) { if case .locationUpdated = $0 { true } else { false } }
        #expect(location != nil)

        await clock.advance(by: .seconds(9))
        #expect(await manager.isStationary == false)
        await clock.advance(by: .seconds(1))
        let (stationary, skipped) = await next(&events) { $0 == .stationary }
        #expect(stationary == .stationary)
        #expect(skipped.isEmpty)
        #expect(await manager.isStationary)
    }

    @Test("the refinement timeout fires on the clock and then weak fixes are delivered")
    func refinementOnClock() async throws {
        let clock = TestClock()
        let manager = LocationManager(clock: clock)
        let timers = Task { try await manager.run() }
        defer { timers.cancel() }
        var events = manager.events.makeAsyncIterator()

        await manager.process(fix(at: 0, accuracy: 40))
        #expect(await manager.statistics.rejected(.tooInaccurate) == 1)
        await clock.advance(by: .seconds(14))
        #expect(await manager.statistics.consistentlyWeakSpells == 0)
        await clock.advance(by: .seconds(1))
        let (weak, skipped) = await next(&events) { $0 == .signalConsistentlyWeak }
        #expect(weak == .signalConsistentlyWeak)
        #expect(skipped.contains(.signalStrengthChanged(.weak)))

        await manager.process(fix(at: 15, accuracy: 40))
        let (location, _) = await next(&events) { if case .locationUpdated = $0 { true } else { false } }
        guard case .locationUpdated(let delivered) = location else {
            Issue.record("no location")
            return
        }
        #expect(delivered.horizontalAccuracyMeters == 40)
    }

    @Test("without time passing on the clock, fixes are delivered in order and no timer fires")
    func noTimePasses() async throws {
        let clock = TestClock()
        let manager = LocationManager(clock: clock)
        for second in 0..<5 {
            await manager.process(fix(at: Double(second), north: Double(second), speed: 1))
        }
        #expect(await manager.statistics.locationsDelivered == 5)
        #expect(await manager.isStationary == false)
        #expect(await manager.signalStrength == .strong)
        var events = manager.events.makeAsyncIterator()
        var seen: [LocationEvent] = []
        for _ in 0..<6 { if let event = await events.next() { seen.append(event) } }
        #expect(seen.first == .signalStrengthChanged(.strong))
        #expect(seen.locations.map(\.time) == (0..<5).map { fixTime(Double($0)) })
    }

    @Test("cancelling run returns")
    func runStopsWhenCancelled() async throws {
        let manager = LocationManager(clock: TestClock())
        let timers = Task { try await manager.run() }
        timers.cancel()
        try await timers.value
    }

    @Test("a graceful shutdown ends run")
    func runStopsOnGracefulShutdown() async throws {
        try await testGracefulShutdown { trigger in
            let manager = LocationManager(clock: TestClock())
            let timers = Task { try await manager.run() }
            trigger.triggerGracefulShutdown()
            try await timers.value
        }
    }

    @Test("a fix first runs the timers that fell due before it, so a late timer loop changes nothing")
    func fixesCatchUpTimers() async throws {
        let clock = TestClock()
        let manager = LocationManager(clock: clock)  // run() never started
        await manager.process(fix(at: 0))
        await clock.advance(by: .seconds(12))
        await manager.process(fix(at: 12))  // the ping fell due at 10 s, before this fix
        var events = manager.events.makeAsyncIterator()
        var seen: [LocationEvent] = []
        await manager.finish()
        while let event = await events.next() { seen.append(event) }
        #expect(seen.contains(.stationary))
    }

    @Test("finish ends the events after what was sent")
    func finishEndsEvents() async throws {
        let manager = LocationManager(clock: TestClock())
        await manager.process(fix(at: 0))
        await manager.finish()
        var count = 0
        for await _ in manager.events { count += 1 }
        #expect(count > 0)
    }

    @Test("a lost source makes the signal invalid")
    func sourceLost() async throws {
        let manager = LocationManager(clock: TestClock())
        await manager.process(fix(at: 0))
        #expect(await manager.signalStrength == .strong)
        await manager.sourceLost()
        #expect(await manager.signalStrength == .invalid)
    }
}
