import Foundation
import GPSCore
import GRDB
import Logging
@testable import TrackStore

/// A fresh directory for one test's store, removed at deinit.
final class StoreDirectory {
    let url: URL
    var storePath: String { url.appendingPathComponent("tracks.sqlite").path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("trackstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

let settings = TrackSettings(accuracy: "best", activity: "fitness", distanceFilterMeters: nil, source: "test")
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// Fix times start at 2024-06-01T08:00:00Z.
let startMicroseconds: Int64 = (19_875 * 86_400 + 8 * 3_600) * 1_000_000

/// A 3D fix `seconds` into the test track, `north` metres north of 47 N 8 E.
func fix(at seconds: Int, north: Double = 0) -> Fix {
    Fix(
        time: FixTime(microsecondsSinceEpoch: startMicroseconds + Int64(seconds) * 1_000_000), mode: .threeD, quality: .gps,
        coordinate: Coordinate(latitude: 47 + north / 111_195, longitude: 8),
        altitudeMSLMeters: 500, speedMetersPerSecond: 1, courseDegrees: 0, hdop: 0.9, satellitesUsed: 9,
        accuracy: PositionAccuracy(horizontalMeters: 4, verticalMeters: 6, source: .gst))
}

/// Commits `count` points, one a second from `first`, in one segment of track `id`.
func commitPoints(_ store: TrackStore, track id: Int64, count: Int, from first: Int = 0) throws {
    var session = RecordingSession(trackID: id)
    for second in first..<(first + count) {
        session.append(.received(fix(at: second, north: Double(second))))
        session.append(.point(fix(at: second, north: Double(second)), speedMetersPerSecond: 1))
    }
    try store.commit(session.pending, track: id)
}

/// The number of rows of `table` for track `id`, read by a connection of its own.
func rowCount(_ path: String, _ table: String, track id: Int64) throws -> Int {
    let store = try TrackStore.open(at: path, access: .read)
    return try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE track_id = ?", arguments: [id]) ?? 0 }
}
