import Location
import Testing

@Suite("Fix time line")
struct FixTimelineTests {
    /// 2024-06-01T08:00:00Z.
    static let t0 = 1_717_228_800.0
    static let year = 365 * 86_400.0

    /// Feeds (time, clock) pairs, each fix named by its index; returns the indices taken, in
    /// order, the indices dropped, and the steps.
    static func run(
        _ times: [Double], clocks: [Double?]? = nil, systemTime: ((Int) -> Double?)? = nil
    ) -> (taken: [Int], dropped: [Int], steps: [FixTimeline<Int>.Step], repeats: [Int], corrected: Int, seconds: [Double]) {
        var timeline = FixTimeline<Int>()
        var taken: [Int] = [], dropped: [Int] = [], steps: [FixTimeline<Int>.Step] = [], repeats: [Int] = []
        var corrected = 0
        var seconds: [Double] = []
        for (index, time) in times.enumerated() {
            let clock = clocks.map { $0[index] } ?? Double(index)
            let outcome = timeline.take(index, seconds: time, clock: clock, systemTime: systemTime?(index))
            dropped += outcome.dropped
            if let step = outcome.step { steps.append(step) }
            if outcome.repeated { repeats.append(index) }
            taken += outcome.ready.map(\.element)
            seconds += outcome.ready.map(\.seconds)
            corrected += outcome.corrected
        }
        return (taken, dropped, steps, repeats, corrected, seconds)
    }

    /// Times one second apart from t0, `count` of them.
    static func walk(_ count: Int) -> [Double] { (0..<count).map { t0 + Double($0) } }

    @Test("one fix dated a year ahead is dropped when the next fix goes on from the track", arguments: [1.0, -1.0])
    func singleOutlier(direction: Double) {
        var times = Self.walk(10)
        times[4] += direction * Self.year
        let result = Self.run(times)
        #expect(result.taken == [0, 1, 2, 3, 5, 6, 7, 8, 9])
        #expect(result.dropped == [4])
        #expect(result.steps.isEmpty)
    }

    @Test("two bad fixes in a row, dated differently, are both dropped")
    func twoOutliers() {
        var times = Self.walk(10)
        times[4] += Self.year
        times[5] -= 3_600
        let result = Self.run(times)
        #expect(result.taken == [0, 1, 2, 3, 6, 7, 8, 9])
        #expect(result.dropped == [4, 5])
    }

    @Test("a step back that the next fixes keep is taken after three fixes, and none is lost")
    func sustainedStepBack() {
        let times = Self.walk(5) + (0..<5).map { Self.t0 - 600 + Double($0) }
        let result = Self.run(times)
        #expect(result.taken == Array(0..<10))
        #expect(result.dropped.isEmpty)
        #expect(result.steps == [FixTimeline<Int>.Step(fromSeconds: Self.t0 + 4, toSeconds: Self.t0 - 600)])
    }

    @Test("a fix a second or two behind the last is a late repeat, not a step")
    func lateRepeats() {
        let times = [Self.t0, Self.t0 + 1, Self.t0 + 1, Self.t0 - 0.5, Self.t0 + 2]
        let result = Self.run(times)
        #expect(result.taken == [0, 1, 4])
        #expect(result.repeats == [2, 3])
        #expect(result.dropped.isEmpty)
    }

    @Test("a live gap is in line when the clock moved as much: a tunnel is not a clock step")
    func liveGapFollowsTheClock() {
        let times = [Self.t0, Self.t0 + 1, Self.t0 + 7_200, Self.t0 + 7_201]
        let result = Self.run(times, clocks: [0, 1, 7_200.4, 7_201])
        #expect(result.taken == [0, 1, 2, 3])
        #expect(result.steps.isEmpty)
    }

    @Test("a jump ahead that the clock did not make is held; kept by the next fixes it is a step")
    func jumpAheadOfTheClock() {
        let times = [Self.t0, Self.t0 + 1, Self.t0 + 7_200, Self.t0 + 7_201, Self.t0 + 7_202, Self.t0 + 7_203]
        let result = Self.run(times)
        #expect(result.taken == [0, 1, 2, 3, 4, 5])
        #expect(result.steps.map(\.toSeconds) == [Self.t0 + 7_200])
    }

    @Test("without a clock, steps up to 60 s go on and longer ones need confirming")
    func withoutAClock() {
        let times = [Self.t0, Self.t0 + 60, Self.t0 + 200, Self.t0 + 61]
        let result = Self.run(times, clocks: [nil, nil, nil, nil])
        #expect(result.taken == [0, 1, 3])
        #expect(result.dropped == [2])
    }

    @Test("a date 1024 weeks behind the track is moved forward by the cycle and used")
    func weekRolloverAgainstTheTrack() {
        var times = Self.walk(6)
        for i in 3..<6 { times[i] -= FixTimeline<Int>.weekCycleSeconds }
        let result = Self.run(times)
        #expect(result.taken == Array(0..<6))
        #expect(result.corrected == 3)
        #expect(result.seconds == Self.walk(6))
        #expect(result.steps.isEmpty)
    }

    @Test("with a synchronised system clock, a first fix 1024 weeks behind it is corrected")
    func weekRolloverAgainstTheSystemClock() {
        let times = Self.walk(3).map { $0 - FixTimeline<Int>.weekCycleSeconds }
        let result = Self.run(times, systemTime: { Self.t0 + Double($0) + 0.3 })
        #expect(result.taken == [0, 1, 2])
        #expect(result.seconds == Self.walk(3))
        #expect(result.corrected == 3)
    }

    @Test("with a synchronised system clock, a first fix a year off is held and dropped")
    func firstFixAgainstTheSystemClock() {
        var times = Self.walk(5)
        times[0] += Self.year
        let result = Self.run(times, systemTime: { Self.t0 + Double($0) + 0.3 })
        #expect(result.taken == [1, 2, 3, 4])
        #expect(result.dropped == [0])
    }

    @Test("a receiver that keeps disagreeing with the system clock is followed after three fixes: never frozen")
    func persistentDisagreementIsFollowed() {
        let times = Self.walk(6).map { $0 + 3 * 86_400 }
        let result = Self.run(times, systemTime: { Self.t0 + Double($0) })
        #expect(result.taken == Array(0..<6))
        #expect(result.steps.count == 1)
        #expect(result.steps.first?.fromSeconds == nil)
    }

    @Test("whatever the times, at most two fixes in a row wait: random dates never freeze the time line")
    func neverFrozen() {
        var generator = SeededGenerator(seed: 11)
        var times = Self.walk(400)
        for i in stride(from: 7, to: 400, by: 13) {
            times[i] = Double.random(in: 0...(2 * Self.t0), using: &generator)
        }
        let result = Self.run(times)
        let bad = Set(stride(from: 7, to: 400, by: 13))
        #expect(result.taken == (0..<400).filter { !bad.contains($0) })
        #expect(Set(result.dropped) == bad)
    }
}
