import Clocks
import Foundation
import GPSCore
import Synchronization
import Testing
@testable import TrackStore

/// Waits, without a time assertion, until `condition` holds (at most about 10 s).
func eventually(_ condition: () throws -> Bool) async throws -> Bool {
    for _ in 0..<1000 {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

@Suite("Track recorder", .timeLimit(.minutes(1)))
struct TrackRecorderTests {
    @Test("points wait for the commit interval on the recorder's clock, then are committed together")
    func commitsOncePerInterval() async throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let clock = TestClock()
        let recorder = try TrackRecorder(
            store: store, name: "t", settings: settings, createdAtMicroseconds: 0, version: "test", clock: clock, logger: quietLogger)
        let running = Task { try await recorder.run() }
        for second in 0..<5 { recorder.record(.point(fix(at: second), speedMetersPerSecond: 1)) }
        await clock.advance(by: .milliseconds(900))
        #expect(try rowCount(dir.storePath, "point", track: recorder.trackID) == 0)
        await clock.advance(by: .milliseconds(100))
        #expect(try await eventually { try rowCount(dir.storePath, "point", track: recorder.trackID) == 5 })
        recorder.finishInput()
        try await running.value
    }

    @Test("the end of the input commits the rest and closes the track as finished")
    func finishes() async throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let recorder = try TrackRecorder(
            store: store, name: nil, settings: settings, createdAtMicroseconds: 0, version: "test",
            clock: TestClock(), logger: quietLogger)
        let running = Task { try await recorder.run() }
        for second in 0..<3 {
            recorder.record(.received(fix(at: second)))
            recorder.record(.point(fix(at: second), speedMetersPerSecond: 1))
        }
        recorder.record(.distance(2.5))
        recorder.record(.event(kind: "stationary", detail: nil))
        recorder.finishInput()
        try await running.value
        let track = try store.track(.id(recorder.trackID))
        #expect(track.state == .finished)
        #expect(track.points == 3)
        #expect(track.rawFixes == 3)
        #expect(track.distanceMeters == 2.5)
        #expect(try store.events(ofTrack: recorder.trackID).map(\.kind) == ["stationary"])
        // The log is copied into the file: the file alone holds the finished track.
        let copy = dir.storePath + ".copy"
        try FileManager.default.copyItem(atPath: dir.storePath, toPath: copy)
        let alone = try TrackStore.open(at: copy, access: .read).track(.id(recorder.trackID))
        #expect(alone.state == .finished)
        #expect(alone.points == 3)
    }

    @Test("cancelling the recorder's task does not cut the drain short")
    func cancellationDrains() async throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let recorder = try TrackRecorder(
            store: store, name: nil, settings: settings, createdAtMicroseconds: 0, version: "test",
            clock: TestClock(), logger: quietLogger)
        let running = Task { try await recorder.run() }
        for second in 0..<50 { recorder.record(.point(fix(at: second), speedMetersPerSecond: 1)) }
        running.cancel()
        recorder.finishInput()
        try await running.value
        #expect(try store.track(.id(recorder.trackID)).points == 50)
    }

    @Test("on a full disk the points wait in memory, what was committed stays intact, and the end reports it")
    func diskFull() async throws {
        let dir = try StoreDirectory()
        var options = StoreOptions()
        options.maximumPageCount = 40
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath, options: options)
        let clock = TestClock()
        let recorder = try TrackRecorder(
            store: store, name: nil, settings: settings, createdAtMicroseconds: 0, version: "test", clock: clock, logger: quietLogger)
        let running = Task { try await recorder.run() }
        recorder.record(.point(fix(at: 0), speedMetersPerSecond: 1))
        await clock.advance(by: .seconds(1))
        #expect(try await eventually { try rowCount(dir.storePath, "point", track: recorder.trackID) == 1 })
        for second in 1..<3000 {
            recorder.record(.received(fix(at: second)))
            recorder.record(.point(fix(at: second), speedMetersPerSecond: 1))
        }
        recorder.finishInput()
        await #expect {
            try await running.value
        } throws: { error in
            guard case StoreError.diskFull(let path, let pending) = error else { return false }
            return path == dir.storePath && pending > 0
        }
        let committed = try rowCount(dir.storePath, "point", track: recorder.trackID)
        #expect(committed >= 1)
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.track(.id(recorder.trackID)).state == .recording, "left for recovery")
    }

    @Test("a producer faster than the store waits for room, and goes on once the recorder has taken the backlog in")
    func backpressure() async throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let clock = TestClock()
        let recorder = try TrackRecorder(
            store: store, name: nil, settings: settings, createdAtMicroseconds: 0, version: "test", clock: clock, logger: quietLogger)
        for second in 0...TrackRecorder.backlogLimit { recorder.record(.point(fix(at: second), speedMetersPerSecond: 1)) }
        let wentOn = Mutex(false)
        let waiting = Task {
            await recorder.waitForRoom()
            wentOn.withLock { $0 = true }
        }
        for _ in 0..<10 { await clock.advance(by: .milliseconds(5)) }
        #expect(!wentOn.withLock { $0 }, "nothing takes the entries in yet: the producer waits")
        let running = Task { try await recorder.run() }
        let released = try await eventually {
            wentOn.withLock { $0 }
        } advancing: {
            await clock.advance(by: .milliseconds(5))
        }
        #expect(released, "the producer went on once the backlog was taken in")
        await waiting.value
        recorder.finishInput()
        try await running.value
        #expect(try store.track(.id(recorder.trackID)).points == TrackRecorder.backlogLimit + 1)
    }
}

/// Waits, without a time assertion, until `condition` holds, running `step` between looks
/// (at most about 10 s).
func eventually(_ condition: () throws -> Bool, advancing step: () async -> Void) async throws -> Bool {
    for _ in 0..<1000 {
        if try condition() { return true }
        await step()
        try await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
