import Foundation
import GPSCore
@testable import TrackStore

/// A fresh store in a directory of its own, removed at deinit; opened as a recorder opens it.
/// As in Tests/TrackStoreTests/Fixtures.swift.
final class TemporaryStore {
    let url: URL
    let store: TrackStore
    var path: String { url.appendingPathComponent("tracks.sqlite").path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("liveview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        store = try TrackStore.openForRecording(at: url.appendingPathComponent("tracks.sqlite").path).store
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Starts a track, as ``TrackRecorder`` does.
    func beginTrack(name: String? = "walk", source: String = "test") throws -> TrackWriter {
        let settings = TrackSettings(accuracy: "best", activity: "fitness", distanceFilterMeters: nil, source: source)
        let id = try store.beginTrack(name: name, settings: settings, createdAtMicroseconds: 1, version: "test")
        return TrackWriter(store: store, id: id)
    }

    /// A read-only connection of its own, as `trackd serve` opens the store.
    func reader() throws -> TrackStore {
        try TrackStore.open(at: path, access: .read)
    }
}

/// Commits entries to one track at once, numbering points and segments as the recorder does
/// (its ``RecordingSession``), without the recorder's commit timer.
final class TrackWriter {
    let store: TrackStore
    let id: Int64
    private var session: RecordingSession

    init(store: TrackStore, id: Int64) {
        self.store = store
        self.id = id
        session = RecordingSession(trackID: id)
    }

    /// The number of points committed so far.
    var points: Int { session.pointsRecorded }

    /// Commits `entries` in one transaction.
    func append(_ entries: [RecordingEntry]) throws {
        for entry in entries { session.append(entry) }
        try store.commit(session.pending, track: id)
        session.committed()
    }

    /// Commits `count` points one second apart after the last, each `speed` m/s.
    func appendPoints(_ count: Int, speed: Double = 1) throws {
        let first = session.pointsRecorded
        try append(
            (first..<(first + count)).flatMap { second -> [RecordingEntry] in
                let point = fix(at: second, north: Double(second))
                return [.received(point), .point(point, speedMetersPerSecond: speed)]
            })
    }

    func close(as state: TrackState = .finished) throws {
        try store.closeTrack(id, as: state)
    }

    /// The track as the store lists it.
    func summary() throws -> TrackSummary {
        try store.track(.id(id))
    }
}

/// Fix times start at 2024-06-01T08:00:00Z.
let startMicroseconds: Int64 = (19_875 * 86_400 + 8 * 3_600) * 1_000_000

/// A 3D fix `seconds` into the test track, `north` metres north of 47 N 8 E, 4 m accurate.
func fix(at seconds: Int, north: Double = 0) -> Fix {
    Fix(
        time: FixTime(microsecondsSinceEpoch: startMicroseconds + Int64(seconds) * 1_000_000), mode: .threeD, quality: .gps,
        coordinate: Coordinate(latitude: 47 + north / 111_195, longitude: 8),
        altitudeMSLMeters: 500, speedMetersPerSecond: 1, courseDegrees: 0, hdop: 0.9, satellitesUsed: 9,
        accuracy: PositionAccuracy(horizontalMeters: 4, verticalMeters: 6, source: .gst))
}

/// The payload of a `track` event.
struct TrackData: Decodable {
    var id: Int64
    var name: String?
    var state: String
    var source: String
    var start: String?
    var resume_after: Int
}

/// The payload of a `points` event.
struct PointsData: Decodable {
    var track: Int64
    /// `[number, segment, latitude, longitude, accuracy_m, speed_mps, time_ms, elevation_m]`
    var points: [[Double?]]

    var numbers: [Int] { points.map { row in row.first.flatMap { $0 }.map { Int($0) } ?? -1 } }
}

/// The payload of a `status` event.
struct StatusData: Decodable {
    var track: Int64
    var state: String
    var points: Int
    var segments: Int
    var signal: String?
    var speed_mps: Double?
    var accuracy_m: Double?
    var source_lost: Bool
}

/// `data` decoded as JSON into `T`.
func decode<T: Decodable>(_ type: T.Type, from data: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(data.utf8))
}

/// The keys of the JSON object in `data`; empty if it is not one.
func jsonKeys(_ data: String) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: Data(data.utf8))
    return Set((object as? [String: Any])?.keys.map { $0 } ?? [])
}
