import GPSCore
import Location
import Testing

@Suite("Location policy: receiver times")
struct ReceiverTimeTests {
    /// A 1000-epoch walk north at 1.4 m/s, each fix received at its own time on the clock,
    /// with `alter` applied to the fix times (and, for glitched epochs, not to the clock).
    static func walk(
        _ count: Int = 1_000, _ alter: (Int, Double) -> Double = { $1 }
    ) -> Feeder {
        var feeder = Feeder()
        for second in 0..<count {
            let time = alter(second, Double(second))
            var f = fix(at: time, north: Double(second) * 1.4, speed: 1.4)
            f.speedMetersPerSecond = 1.4
            feeder.feed(f, receivedAt: Double(second))
        }
        return feeder
    }

    @Test("one RMC dated a year ahead is dropped and counted; the points keep coming and the track stays 1000 s long")
    func yearAheadDropped() {
        let feeder = Self.walk { second, time in second == 300 ? time + 365 * 86_400 : time }
        let statistics = feeder.policy.statistics
        #expect(feeder.events.locations.count == 999)
        #expect(statistics.rejected(.timeOutlier) == 1)
        #expect(statistics.elapsedTimeSeconds == 999)
        #expect(statistics.timeSteps == 0)
        #expect(feeder.policy.lastLocation?.time == fixTime(999))
    }

    @Test("a fix dated an hour back is dropped; the points keep coming")
    func hourBackDropped() {
        let feeder = Self.walk { second, time in second == 500 ? time - 3_600 : time }
        #expect(feeder.events.locations.count == 999)
        #expect(feeder.policy.statistics.rejected(.timeOutlier) == 1)
    }

    @Test("the receiver's clock stepping back 10 minutes for good: a time step, a new segment, every later fix kept")
    func sustainedStepBack() {
        let feeder = Self.walk { second, time in second >= 400 ? time - 600 : time }
        let steps = feeder.events.compactMap { event -> Double? in
            if case .timeStepped(_, let to) = event { to } else { nil }
        }
        #expect(steps == [fixTime(-200).secondsSinceEpoch])
        #expect(feeder.events.locations.count == 1_000)
        #expect(feeder.policy.statistics.rejected(.timeOutlier) == 0)
        #expect(feeder.policy.statistics.rejected(.notNewer) == 0)
        // Nothing is measured across the step: the elapsed time is the two runs' own.
        #expect(feeder.policy.statistics.elapsedTimeSeconds == 399 + 599)
    }

    @Test("a receiver whose week number rolled over: dates 1024 weeks back are corrected and every fix is a point")
    func weekRollover() {
        let cycle = FixTimeline<Int>.weekCycleSeconds
        let feeder = Self.walk(200) { second, time in second >= 100 ? time - cycle : time }
        let locations = feeder.events.locations
        #expect(locations.count == 200)
        #expect(locations.last?.time == fixTime(199))
        #expect(feeder.policy.statistics.timeCorrections == 100)
    }

    @Test("a synchronised system clock catches a first fix dated a year ahead")
    func systemClockCatchesTheFirstFix() {
        var policy = LocationPolicy()
        var events: [LocationEvent] = []
        for second in 0..<10 {
            let shifted = second == 0 ? Double(second) + 365 * 86_400 : Double(second)
            let system = startSeconds + Double(second) + 0.4
            events += policy.process(
                fix(at: shifted, north: Double(second) * 1.4, speed: 1.4), now: .seconds(second), systemTime: system)
        }
        #expect(events.locations.map(\.time) == (1..<10).map { fixTime(Double($0)) })
        #expect(events.rejections == [.timeOutlier])
    }
}
