import GPSCore
import Testing
import TrackStore
@testable import LiveView

@Suite("Live cursor")
struct LiveCursorTests {
    /// Points numbered `numbers`, as the store reads them.
    func points(_ numbers: ClosedRange<Int>) -> [StoredPoint] {
        numbers.map { StoredPoint(number: $0, segment: 1, fix: fix(at: $0)) }
    }

    @Test("a fresh page is sent one track event first, with the id TRACK:0 and nothing to skip")
    func freshTrackEvent() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack(name: "ridge walk", source: "simulated hike")
        try track.appendPoints(3)
        var cursor = LiveCursor(lastEventID: nil)
        let events = cursor.select(try track.summary())
        try #require(events.count == 1)
        #expect(events[0].event == "track")
        #expect(events[0].id == "\(track.id):0")
        let data = try decode(TrackData.self, from: events[0].data)
        #expect(data.id == track.id)
        #expect(data.name == "ridge walk")
        #expect(data.state == "recording")
        #expect(data.source == "simulated hike")
        #expect(data.start == "2024-06-01T08:00:00Z")
        #expect(data.resume_after == 0)
        #expect(cursor.trackID == track.id)
        #expect(cursor.lastNumber == 0)
    }

    @Test("selecting the track being sent again sends nothing")
    func sameTrackAgain() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        var cursor = LiveCursor(lastEventID: nil)
        _ = cursor.select(try track.summary())
        try track.appendPoints(2)
        let again = cursor.select(try track.summary())
        #expect(again.isEmpty)
    }

    @Test("points after the last one sent go out in one event whose id is TRACK:LAST; repeats are dropped")
    func takesNewPoints() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        var cursor = LiveCursor(lastEventID: nil)
        _ = cursor.select(try track.summary())
        let firstTaken = cursor.take(points(1...3))
        let first = try #require(firstTaken)
        #expect(first.event == "points")
        #expect(first.id == "\(track.id):3")
        #expect(try decode(PointsData.self, from: first.data).track == track.id)
        #expect(try decode(PointsData.self, from: first.data).numbers == [1, 2, 3])
        let secondTaken = cursor.take(points(2...5))
        let second = try #require(secondTaken)
        #expect(second.id == "\(track.id):5")
        #expect(try decode(PointsData.self, from: second.data).numbers == [4, 5])
        #expect(cursor.lastNumber == 5)
        #expect(cursor.lastPoint?.number == 5)
        let repeated = cursor.take(points(4...5))
        #expect(repeated == nil)
        let none = cursor.take([])
        #expect(none == nil)
    }

    @Test("a point is sent as number, segment, latitude, longitude, accuracy, speed, time in ms and elevation")
    func pointRow() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        var cursor = LiveCursor(lastEventID: nil)
        _ = cursor.select(try track.summary())
        let taken = cursor.take([StoredPoint(number: 1, segment: 2, fix: fix(at: 3))])
        let event = try #require(taken)
        #expect(event.data == "{\"track\":\(track.id),\"points\":[[1,2,47,8,4,1,\((startMicroseconds + 3_000_000) / 1000),500]]}")
    }

    @Test("no points are sent before a track is selected")
    func noPointsWithoutTrack() {
        var cursor = LiveCursor(lastEventID: nil)
        let taken = cursor.take(points(1...3))
        #expect(taken == nil)
        #expect(cursor.lastNumber == 0)
    }

    @Test("TRACK:NUMBER is read as a positive track and a point number", arguments: [("3:120", 3, 120), ("7:0", 7, 0)])
    func parsesEventID(text: String, track: Int64, number: Int) throws {
        let parsed = try #require(LiveCursor.parseEventID(text))
        #expect(parsed.track == track)
        #expect(parsed.number == number)
    }

    @Test("anything but TRACK:NUMBER is not an event id", arguments: ["x", "3", "-1:2", "3:-1", "0:5", "3:4:5", ":5", "3:", ""])
    func refusesEventID(text: String) {
        #expect(LiveCursor.parseEventID(text) == nil)
    }

    @Test("a browser that reconnects with TRACK:NUMBER is sent only the points after NUMBER")
    func resumes() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        var cursor = LiveCursor(lastEventID: "\(track.id):3")
        let events = cursor.select(try track.summary())
        try #require(events.count == 1)
        #expect(events[0].id == "\(track.id):3")
        #expect(try decode(TrackData.self, from: events[0].data).resume_after == 3)
        #expect(cursor.lastNumber == 3)
        let taken = cursor.take(points(1...5))
        let sent = try #require(taken)
        #expect(try decode(PointsData.self, from: sent.data).numbers == [4, 5])
    }

    @Test("a resume number past the track's last point is cut to the last point")
    func resumeClamped() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        var cursor = LiveCursor(lastEventID: "\(track.id):99")
        let events = cursor.select(try track.summary())
        #expect(events.first?.id == "\(track.id):5")
        #expect(try decode(TrackData.self, from: try #require(events.first).data).resume_after == 5)
        #expect(cursor.lastNumber == 5)
    }

    @Test("an event id of another track sends the track from its first point")
    func resumeOtherTrack() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        var cursor = LiveCursor(lastEventID: "\(track.id + 1):3")
        let events = cursor.select(try track.summary())
        #expect(events.first?.id == "\(track.id):0")
        #expect(cursor.lastNumber == 0)
    }

    @Test("following the latest track, a newer track gets a track event and is sent from its first point")
    func newerTrack() throws {
        let store = try TemporaryStore()
        let older = try store.beginTrack()
        try older.appendPoints(3)
        var cursor = LiveCursor(lastEventID: "\(older.id):1")
        _ = cursor.select(try older.summary())
        _ = cursor.take(points(1...3))
        try older.close()
        let newer = try store.beginTrack()
        try newer.appendPoints(2)
        let events = cursor.select(try newer.summary())
        try #require(events.count == 1)
        #expect(events[0].event == "track")
        #expect(events[0].id == "\(newer.id):0")
        #expect(cursor.trackID == newer.id)
        #expect(cursor.lastNumber == 0)
        #expect(cursor.lastPoint == nil)
        let newerTaken = cursor.take(points(1...2))
        let taken = try #require(newerTaken)
        #expect(try decode(PointsData.self, from: taken.data).numbers == [1, 2])
    }

    @Test("with no track in the store, one notrack event is sent, once")
    func noTrack() throws {
        var cursor = LiveCursor(lastEventID: nil)
        let events = cursor.select(nil)
        try #require(events.count == 1)
        #expect(events[0].event == "notrack")
        #expect(events[0].id == nil)
        #expect(try jsonKeys(events[0].data) == ["message"])
        let again = cursor.select(nil)
        #expect(again.isEmpty)
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        let later = cursor.select(try track.summary())
        #expect(later.map(\.event) == ["track"])
    }

    @Test("status is sent when it changes, and only for the track being sent")
    func status() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        let other = try store.beginTrack()
        try track.appendPoints(2)
        func progress(of writer: TrackWriter) throws -> TrackProgress {
            TrackProgress(track: try writer.summary(), lastPoint: nil, signalEvent: nil, motionEvent: nil, sourceEvent: nil)
        }
        var cursor = LiveCursor(lastEventID: nil)
        let beforeSelect = cursor.take(try progress(of: track))
        #expect(beforeSelect == nil)
        _ = cursor.select(try track.summary())
        let firstTaken = cursor.take(try progress(of: track))
        let first = try #require(firstTaken)
        #expect(first.event == "status")
        #expect(first.data == (try progress(of: track)).json)
        let unchanged = cursor.take(try progress(of: track))
        #expect(unchanged == nil)
        try track.appendPoints(1)
        let changed = cursor.take(try progress(of: track))
        #expect(try decode(StatusData.self, from: try #require(changed).data).points == 3)
        let otherTrack = cursor.take(try progress(of: other))
        #expect(otherTrack == nil)
    }

    @Test("a heartbeat comment goes out only after 15 s without events")
    func heartbeat() {
        var cursor = LiveCursor(lastEventID: nil)
        #expect(cursor.heartbeat(now: 100, sent: false) == nil)
        #expect(cursor.heartbeat(now: 114.9, sent: false) == nil)
        #expect(cursor.heartbeat(now: 115, sent: false) == ": trackd\n\n")
        #expect(cursor.heartbeat(now: 129, sent: false) == nil)
        #expect(cursor.heartbeat(now: 129.5, sent: true) == nil)
        #expect(cursor.heartbeat(now: 144, sent: false) == nil)
        #expect(cursor.heartbeat(now: 144.5, sent: false) == ": trackd\n\n")
    }
}
