import GPSCore
import Testing
@testable import TrackStore

@Suite("Recording session")
struct RecordingSessionTests {
    @Test("the first point opens segment 1; a break opens the next at the next point, with the first reason given")
    func segments() {
        var session = RecordingSession(trackID: 7)
        session.append(.segmentBreak(reason: "fix-lost"))  // before any point: nothing to end
        session.append(.point(fix(at: 0), speedMetersPerSecond: 0))
        session.append(.point(fix(at: 1), speedMetersPerSecond: 0))
        session.append(.segmentBreak(reason: "source-lost"))
        session.append(.segmentBreak(reason: "fix-lost"))
        session.append(.point(fix(at: 9), speedMetersPerSecond: 0))
        #expect(session.pending.segments.map(\.number) == [1, 2])
        #expect(session.pending.segments.map(\.reason) == ["start", "source-lost"])
        #expect(session.pending.points.map(\.segment) == [1, 1, 2])
        #expect(session.pending.points.allSatisfy { $0.trackId == 7 })
    }

    @Test("a break with no point after it opens no empty segment")
    func noEmptySegment() {
        var session = RecordingSession(trackID: 1)
        session.append(.point(fix(at: 0), speedMetersPerSecond: 0))
        session.append(.segmentBreak(reason: "fix-lost"))
        session.append(.received(Fix()))
        #expect(session.pending.segments.count == 1)
    }

    @Test("the first fix after a source gap is marked, and only that one")
    func gaps() {
        var session = RecordingSession(trackID: 1)
        session.append(.received(fix(at: 0)))
        session.append(.sourceGap)
        session.append(.received(fix(at: 30)))
        session.append(.received(fix(at: 31)))
        #expect(session.pending.rawFixes.map(\.afterGap) == [false, true, false])
    }

    @Test("events carry the time of the newest fix received before them")
    func eventTimes() {
        var session = RecordingSession(trackID: 1)
        session.append(.event(kind: "source-connected", detail: "log x"))
        session.append(.received(fix(at: 5)))
        session.append(.event(kind: "signal-strong", detail: nil))
        #expect(session.pending.events.map(\.timeUs) == [nil, startMicroseconds + 5_000_000])
    }

    @Test("a commit clears what was pending; the segment count goes on")
    func committed() {
        var session = RecordingSession(trackID: 1)
        session.append(.point(fix(at: 0), speedMetersPerSecond: 0))
        session.append(.distance(12))
        session.committed()
        #expect(session.pending.isEmpty)
        session.append(.segmentBreak(reason: "fix-lost"))
        session.append(.point(fix(at: 5), speedMetersPerSecond: 0))
        #expect(session.pending.segments.map(\.number) == [2])
    }
}
