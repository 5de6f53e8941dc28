import GPSCore
import Testing
import TrackStore
@testable import LiveView

@Suite("Track progress")
struct TrackProgressTests {
    /// A recording track of 5 points, 12.5 m, whose last point has the smoothed speed 1.5 m/s.
    func recordedTrack(in store: TemporaryStore) throws -> (TrackSummary, StoredPoint) {
        let track = try store.beginTrack()
        try track.appendPoints(5, speed: 1.5)
        try track.append([.distance(12.5)])
        let last = try #require(try store.store.points(ofTrack: track.id, after: 4, limit: 1).first)
        return (try track.summary(), last)
    }

    @Test("the speed is the last point's smoothed speed while moving")
    func movingSpeed() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: "signal-strong", motionEvent: "moving", sourceEvent: nil)
        #expect(progress.speedMetersPerSecond == 1.5)
        #expect(progress.accuracyMeters == 4)
    }

    @Test("the speed is 0 once the manager found the receiver stationary")
    func stationary() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: "signal-strong", motionEvent: "stationary", sourceEvent: nil)
        #expect(progress.speedMetersPerSecond == 0)
    }

    @Test("there is no speed while the signal is invalid, even when stationary")
    func invalidSignal() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: "signal-invalid", motionEvent: "stationary", sourceEvent: nil)
        #expect(progress.speedMetersPerSecond == nil)
        #expect(progress.signal == "invalid")
    }

    @Test("there is no speed while the source is lost during a recording")
    func sourceLost() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: "signal-strong", motionEvent: "moving", sourceEvent: "source-lost")
        #expect(progress.sourceLost)
        #expect(progress.speedMetersPerSecond == nil)
        let back = TrackProgress(track: track, lastPoint: last, signalEvent: "signal-strong", motionEvent: "moving", sourceEvent: "source-resumed")
        #expect(!back.sourceLost)
        #expect(back.speedMetersPerSecond == 1.5)
    }

    @Test("a finished track whose source was lost last is not shown as lost")
    func finishedNotLost() throws {
        let store = try TemporaryStore()
        let track = try store.beginTrack()
        try track.appendPoints(2)
        try track.close(as: .finished)
        let progress = TrackProgress(track: try track.summary(), lastPoint: nil, signalEvent: nil, motionEvent: nil, sourceEvent: "source-lost")
        #expect(!progress.sourceLost)
        #expect(progress.state == .finished)
    }

    @Test(
        "the signal is named without its signal- prefix, and is nil before the first signal event",
        arguments: [("signal-strong", "strong"), ("signal-weak", "weak"), ("signal-invalid", "invalid"), (nil, nil)] as [(String?, String?)])
    func signalName(event: String?, name: String?) throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        #expect(TrackProgress(track: track, lastPoint: last, signalEvent: event, motionEvent: nil, sourceEvent: nil).signal == name)
    }

    @Test("the totals are the track's: points, segments, distance, and elapsed time from first to last point")
    func totals() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: nil, motionEvent: nil, sourceEvent: nil)
        #expect(progress.trackID == track.id)
        #expect(progress.points == 5)
        #expect(progress.segments == 1)
        #expect(progress.distanceMeters == 12.5)
        #expect(progress.elapsedSeconds == 4)
        #expect(progress.elapsedSeconds == track.durationSeconds)
    }

    @Test("the status JSON has every key, a missing value as null")
    func json() throws {
        let store = try TemporaryStore()
        let (track, last) = try recordedTrack(in: store)
        let progress = TrackProgress(track: track, lastPoint: last, signalEvent: nil, motionEvent: "moving", sourceEvent: nil)
        #expect(
            try jsonKeys(progress.json) == [
                "track", "state", "points", "segments", "distance_m", "elapsed_s", "signal", "speed_mps", "accuracy_m",
                "source_lost",
            ])
        #expect(progress.json.contains("\"signal\":null"))
        let status = try decode(StatusData.self, from: progress.json)
        #expect(status.track == track.id)
        #expect(status.state == "recording")
        #expect(status.points == 5)
        #expect(status.speed_mps == 1.5)
        #expect(status.accuracy_m == 4)
        #expect(!status.source_lost)
        #expect(progress.json.contains("\"distance_m\":12.5,\"elapsed_s\":4,"))
    }
}
