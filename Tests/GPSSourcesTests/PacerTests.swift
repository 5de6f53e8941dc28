@testable import GPSSources
import Testing

@Suite("Pacer")
struct PacerTests {
    static let t0: Int64 = 1_726_300_800_000_000  // 2024-09-14T08:00:00Z
    static func at(_ seconds: Double) -> Int64 { t0 + Int64(seconds * 1e6) }

    @Test("the first fix is due at once and a fix 1 s later is due 100 ms later at speed 10")
    func basicSchedule() {
        var pacer = Pacer(speed: .times(10))
        #expect(pacer.schedule(microseconds: Self.at(0)) == .init(due: .zero, logOffset: .zero))
        #expect(pacer.schedule(microseconds: Self.at(1)) == .init(due: .milliseconds(100), logOffset: .seconds(1)))
        #expect(pacer.schedule(microseconds: Self.at(2.5)) == .init(due: .milliseconds(250), logOffset: .milliseconds(2500)))
    }

    @Test("at speed 0.5 a second of log takes two seconds")
    func slowerThanRealTime() {
        var pacer = Pacer(speed: .times(0.5))
        _ = pacer.schedule(microseconds: Self.at(0))
        #expect(pacer.schedule(microseconds: Self.at(1)).due == .seconds(2))
    }

    @Test("a gap longer than 60 s is paced as 60 s, moves no log time, and the schedule goes on from there")
    func longGap() {
        var pacer = Pacer(speed: .times(10))
        _ = pacer.schedule(microseconds: Self.at(0))
        _ = pacer.schedule(microseconds: Self.at(1))
        let afterGap = pacer.schedule(microseconds: Self.at(7201))
        #expect(afterGap == .init(due: .milliseconds(6100), logOffset: .seconds(1)))
        #expect(pacer.schedule(microseconds: Self.at(7202)).due == .milliseconds(6200))
    }

    @Test("a gap of exactly 60 s is replayed as it is")
    func gapAtTheLimit() {
        var pacer = Pacer(speed: .times(1))
        _ = pacer.schedule(microseconds: Self.at(0))
        #expect(pacer.schedule(microseconds: Self.at(60)).due == .seconds(60))
        #expect(pacer.schedule(microseconds: Self.at(121)).due == .seconds(120))
    }

    @Test("time going back is due with the previous fix; the log offset stays, then follows the steps forward")
    func timeGoingBack() {
        var pacer = Pacer(speed: .times(10))
        _ = pacer.schedule(microseconds: Self.at(0))
        _ = pacer.schedule(microseconds: Self.at(10))
        #expect(pacer.schedule(microseconds: Self.at(5)) == .init(due: .seconds(1), logOffset: .seconds(10)))
        #expect(pacer.schedule(microseconds: Self.at(6)) == .init(due: .milliseconds(1100), logOffset: .seconds(11)))
        #expect(pacer.schedule(microseconds: Self.at(12)) == .init(due: .milliseconds(1700), logOffset: .seconds(17)))
    }

    @Test("at max speed nothing is due later, but the log offset follows the fixes' steps up to 60 s")
    func maxSpeed() {
        var pacer = Pacer(speed: .max)
        #expect(pacer.schedule(microseconds: Self.at(0)) == .init(due: nil, logOffset: .zero))
        #expect(pacer.schedule(microseconds: Self.at(30)) == .init(due: nil, logOffset: .seconds(30)))
        #expect(pacer.schedule(microseconds: Self.at(3600)) == .init(due: nil, logOffset: .seconds(30)))
        #expect(pacer.schedule(microseconds: Self.at(3601)) == .init(due: nil, logOffset: .seconds(31)))
    }
}
