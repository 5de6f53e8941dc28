import GPSCore
import Testing
import TrackStore

/// The store's two reads for the live view: ``TrackStore/points(ofTrack:after:limit:)`` and
/// ``TrackStore/latestEvent(ofTrack:among:)``, through a reader of its own.
@Suite("Track store reading for the live view")
struct TrackStoreReadingTests {
    @Test("the points after a number come in order, with their segment and the smoothed speed")
    func pointsAfter() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(3, speed: 1.5)
        try track.append([.segmentBreak(reason: "fix-lost")])
        try track.appendPoints(2, speed: 0.5)
        let reader = try store.reader()
        let all = try reader.points(ofTrack: track.id, after: 0, limit: 100)
        #expect(all.map(\.number) == [1, 2, 3, 4, 5])
        #expect(all.map(\.segment) == [1, 1, 1, 2, 2])
        #expect(all.map(\.fix.speedMetersPerSecond) == [1.5, 1.5, 1.5, 0.5, 0.5])
        #expect(all.map(\.fix.time) == (0..<5).map { fix(at: $0).time })
        #expect(try reader.points(ofTrack: track.id, after: 3, limit: 100).map(\.number) == [4, 5])
    }

    @Test("no more points than the limit are read", arguments: [(0, 2, [1, 2]), (1, 3, [2, 3, 4]), (4, 10, [5]), (0, 0, [])])
    func limit(after: Int, limit: Int, numbers: [Int]) throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        #expect(try store.reader().points(ofTrack: track.id, after: after, limit: limit).map(\.number) == numbers)
    }

    @Test("past the last point there are no points", arguments: [5, 6, 1_000, Int(UInt32.max) - 1, Int(UInt32.max), 1 << 40, Int.max])
    func pastTheEnd(after: Int) throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        #expect(try store.reader().points(ofTrack: track.id, after: after, limit: 100).isEmpty)
    }

    @Test("only the track asked for is read")
    func oneTrack() throws {
        let store = try TemporaryStore()
        let first = try store.beginTrack()
        try first.appendPoints(4)
        let second = try store.beginTrack()
        try second.appendPoints(2)
        let reader = try store.reader()
        #expect(try reader.points(ofTrack: second.id, after: 0, limit: 100).count == 2)
        #expect(try reader.points(ofTrack: first.id, after: 0, limit: 100).count == 4)
        #expect(try reader.points(ofTrack: second.id + 1, after: 0, limit: 100).isEmpty)
    }

    @Test("the latest event among the kinds given is found; other kinds and other tracks do not count")
    func latestEvent() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.append([
            .event(kind: "signal-weak", detail: nil), .event(kind: "stationary", detail: nil),
            .event(kind: "signal-strong", detail: "9 satellites"),
        ])
        try track.append([.event(kind: "moving", detail: nil), .event(kind: "source-lost", detail: nil)])
        let other = try store.beginTrack()
        try other.append([.event(kind: "signal-invalid", detail: nil), .event(kind: "stationary", detail: nil)])
        let reader = try store.reader()
        let signals = ["signal-strong", "signal-weak", "signal-invalid"]
        #expect(try reader.latestEvent(ofTrack: track.id, among: signals) == "signal-strong")
        #expect(try reader.latestEvent(ofTrack: track.id, among: ["stationary", "moving"]) == "moving")
        #expect(try reader.latestEvent(ofTrack: other.id, among: signals) == "signal-invalid")
        #expect(try reader.latestEvent(ofTrack: other.id, among: ["stationary", "moving"]) == "stationary")
    }

    @Test("without an event of the kinds given there is none")
    func noEvent() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.append([.event(kind: "stationary", detail: nil)])
        let reader = try store.reader()
        #expect(try reader.latestEvent(ofTrack: track.id, among: ["source-lost", "source-resumed"]) == nil)
        #expect(try reader.latestEvent(ofTrack: track.id, among: []) == nil)
        #expect(try reader.latestEvent(ofTrack: track.id + 1, among: ["stationary"]) == nil)
    }
}
