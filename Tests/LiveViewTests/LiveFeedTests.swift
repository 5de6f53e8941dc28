import Clocks
import Synchronization
import Testing
import TrackStore
@testable import LiveView

/// A ``LiveFeed`` running in a task of its own on a test clock, polling every second, and
/// what it sent.
final class RunningFeed {
    let clock: TestClock<Duration>
    private let sent: Sent
    private let task: Task<Void, any Error>

    final class Sent: Sendable {
        let texts = Mutex<[String]>([])
    }

    init(store: TrackStore, lastEventID: String? = nil) {
        let clock = TestClock()
        let sent = Sent()
        let feed = LiveFeed(store: store, track: .latest, clock: clock, pollInterval: .seconds(1))
        self.clock = clock
        self.sent = sent
        task = Task {
            try await feed.run(lastEventID: lastEventID) { text in sent.texts.withLock { $0.append(text) } }
        }
    }

    deinit {
        task.cancel()
    }

    /// The texts sent since the last call, once the feed sleeps on its clock: a round is done.
    /// Throws when it does not sleep (a test must not wait for ever).
    func round() async throws -> [String] {
        var asleep = false
        // TestClock's check yields; the bound turns a feed that never sleeps into an error.
        for _ in 0..<2_000 where !asleep {
            do { try await clock.checkSuspension() } catch { asleep = true }
        }
        guard asleep else { throw FeedDidNotSleep() }
        return sent.texts.withLock { texts in
            defer { texts.removeAll() }
            return texts
        }
    }

    struct FeedDidNotSleep: Error, CustomStringConvertible {
        var description: String { "the feed did not finish its round and sleep on its test clock" }
    }

    /// Advances the clock by the poll interval and returns what the next round sent.
    func poll() async throws -> [String] {
        await clock.advance(by: .seconds(1))
        return try await round()
    }

    /// Cancels the feed and returns how it ended.
    func stop() async -> Result<Void, any Error> {
        task.cancel()
        return await task.result
    }
}

/// A sent text's fields: `event`, `id` and the joined `data` lines; `retry` and comments
/// (`:`) become an event named `retry` or `comment`.
struct SentEvent {
    var event: String?
    var id: String?
    var data = ""

    init(_ text: String) {
        var data: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            if line.hasPrefix("retry: ") { event = "retry" }
            if line.hasPrefix(": ") { event = "comment" }
        }
        self.data = data.joined(separator: "\n")
    }
}

@Suite("Live feed", .timeLimit(.minutes(1)))
struct LiveFeedTests {
    @Test("the first round sends retry, the track, every point so far and the status")
    func firstRound() async throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(3)
        let feed = RunningFeed(store: try store.reader())
        let texts = try await feed.round()
        let events = texts.map(SentEvent.init)
        try #require(events.map(\.event) == ["retry", "track", "points", "status"])
        #expect(texts[0] == "retry: 2000\n\n")
        #expect(events[1].id == "\(track.id):0")
        #expect(events[2].id == "\(track.id):3")
        #expect(try decode(PointsData.self, from: events[2].data).numbers == [1, 2, 3])
        let status = try decode(StatusData.self, from: events[3].data)
        #expect(status.track == track.id)
        #expect(status.points == 3)
        #expect(status.accuracy_m == 4)
        #expect(await feed.stop().isCancelled)
    }

    @Test("after a poll interval only the points committed since are sent, with the new status")
    func newPointsOnly() async throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(3)
        let feed = RunningFeed(store: try store.reader())
        _ = try await feed.round()
        try track.appendPoints(2)
        try track.append([.event(kind: "stationary", detail: nil)])
        let events = try await feed.poll().map(SentEvent.init)
        try #require(events.map(\.event) == ["points", "status"])
        #expect(events[0].id == "\(track.id):5")
        #expect(try decode(PointsData.self, from: events[0].data).numbers == [4, 5])
        let status = try decode(StatusData.self, from: events[1].data)
        #expect(status.points == 5)
        #expect(status.speed_mps == 0)
        #expect(try await feed.poll().isEmpty)
        #expect(await feed.stop().isCancelled)
    }

    @Test("a browser that reconnects with TRACK:NUMBER is sent only the points after NUMBER")
    func resumes() async throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5)
        let feed = RunningFeed(store: try store.reader(), lastEventID: "\(track.id):3")
        let events = try await feed.round().map(SentEvent.init)
        try #require(events.map(\.event) == ["retry", "track", "points", "status"])
        #expect(events[1].id == "\(track.id):3")
        #expect(try decode(TrackData.self, from: events[1].data).resume_after == 3)
        #expect(try decode(PointsData.self, from: events[2].data).numbers == [4, 5])
        #expect(await feed.stop().isCancelled)
    }

    @Test("a reconnecting browser that has every point is sent the status of the last one, and no points")
    func resumesAtEnd() async throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(5, speed: 1.5)
        let feed = RunningFeed(store: try store.reader(), lastEventID: "\(track.id):5")
        let events = try await feed.round().map(SentEvent.init)
        try #require(events.map(\.event) == ["retry", "track", "status"])
        #expect(try decode(StatusData.self, from: events[2].data).speed_mps == 1.5)
        #expect(await feed.stop().isCancelled)
    }

    @Test("when a newer track starts, the feed following the latest sends it from its first point")
    func newerTrack() async throws {
        let store = try TemporaryStore()
        let older = try store.beginTrack()
        try older.appendPoints(3)
        let feed = RunningFeed(store: try store.reader())
        _ = try await feed.round()
        try older.close()
        let newer = try store.beginTrack()
        try newer.appendPoints(2)
        let events = try await feed.poll().map(SentEvent.init)
        try #require(events.map(\.event) == ["track", "points", "status"])
        #expect(events[0].id == "\(newer.id):0")
        #expect(events[1].id == "\(newer.id):2")
        #expect(try decode(PointsData.self, from: events[1].data).numbers == [1, 2])
        #expect(await feed.stop().isCancelled)
    }

    @Test("an empty store is told there is no track, once, and the first track is sent when it starts")
    func noTrackYet() async throws {
        let store = try TemporaryStore()
        let feed = RunningFeed(store: store.store)
        #expect(try await feed.round().map { SentEvent($0).event } == ["retry", "notrack"])
        #expect(try await feed.poll().isEmpty)
        let track = try store.beginTrack()
        try track.appendPoints(1)
        #expect(try await feed.poll().map { SentEvent($0).event } == ["track", "points", "status"])
        #expect(await feed.stop().isCancelled)
    }

    @Test("a quiet stream gets a heartbeat comment after 15 s on the feed's clock")
    func heartbeat() async throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(1)
        let feed = RunningFeed(store: try store.reader())
        _ = try await feed.round()
        for _ in 1..<15 { #expect(try await feed.poll().isEmpty) }
        #expect(try await feed.poll() == [": trackd\n\n"])
        #expect(await feed.stop().isCancelled)
    }
}

extension Result {
    /// Whether the task ended by cancellation.
    var isCancelled: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
