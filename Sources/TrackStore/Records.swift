import GPSCore
import GRDB

// One record type per table: raw columns behind Swift types.

/// A row of `track`.
struct TrackRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "track"

    var id: Int64?
    var name: String?
    var state: String
    var createdAtUs: Int64
    var startUs: Int64?
    var endUs: Int64?
    var distanceM: Double
    var points: Int
    var segments: Int
    var rawFixes: Int
    var accuracy: String
    var activity: String
    var distanceFilterM: Double?
    var source: String
    var trackdVersion: String

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, state
        case createdAtUs = "created_at_us"
        case startUs = "start_us"
        case endUs = "end_us"
        case distanceM = "distance_m"
        case points, segments
        case rawFixes = "raw_fixes"
        case accuracy, activity
        case distanceFilterM = "distance_filter_m"
        case source
        case trackdVersion = "trackd_version"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var summary: TrackSummary {
        TrackSummary(
            id: id ?? 0, name: name, state: TrackState(rawValue: state) ?? .recovered,
            start: startUs.map(FixTime.init(microsecondsSinceEpoch:)), end: endUs.map(FixTime.init(microsecondsSinceEpoch:)),
            distanceMeters: distanceM, points: points, segments: segments, rawFixes: rawFixes,
            settings: TrackSettings(accuracy: accuracy, activity: activity, distanceFilterMeters: distanceFilterM, source: source),
            createdAtMicroseconds: createdAtUs)
    }
}

/// A row of `segment`: why the segment started (`start`, `fix-lost`, `source-lost`).
struct SegmentRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "segment"

    var trackId: Int64
    var number: Int
    var reason: String

    enum CodingKeys: String, CodingKey {
        case trackId = "track_id"
        case number, reason
    }
}

/// A row of `point`: a location update, with the smoothed speed the manager reported.
struct PointRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "point"

    var trackId: Int64
    /// The point's place in the track, from 1.
    var number: Int
    var segment: Int
    var speedMetersPerSecond: Double
    var fix: Fix

    init(trackId: Int64, number: Int, segment: Int, speedMetersPerSecond: Double, fix: Fix) {
        self.trackId = trackId
        self.number = number
        self.segment = segment
        self.speedMetersPerSecond = speedMetersPerSecond
        self.fix = fix
    }

    init(row: Row) {
        trackId = row["track_id"]
        number = row["number"]
        segment = row["segment"]
        speedMetersPerSecond = row["speed_mps"]
        fix = FixColumns.decode(row)
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = StoreSchema.rowID(track: trackId, number: number)
        container["track_id"] = trackId
        container["number"] = number
        container["segment"] = segment
        container["speed_mps"] = speedMetersPerSecond
        FixColumns.encode(fix, to: &container)
        // The satellites' detail is kept once, with the raw fix; a point keeps their count.
        container["sky"] = nil
    }
}

/// A row of `raw_fix`: a fix as received, accepted or not. `after_gap` marks the first fix
/// after the source was lost.
struct RawFixRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "raw_fix"

    var trackId: Int64
    /// The fix's place among those received for the track, from 1.
    var number: Int
    var afterGap: Bool
    var fix: Fix

    init(trackId: Int64, number: Int, afterGap: Bool, fix: Fix) {
        self.trackId = trackId
        self.number = number
        self.afterGap = afterGap
        self.fix = fix
    }

    init(row: Row) {
        trackId = row["track_id"]
        number = row["number"]
        afterGap = row["after_gap"]
        fix = FixColumns.decode(row)
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = StoreSchema.rowID(track: trackId, number: number)
        container["track_id"] = trackId
        container["number"] = number
        container["after_gap"] = afterGap
        FixColumns.encode(fix, to: &container)
    }
}

/// A row of `signal_event`: a signal change, a stop, a source coming and going.
struct SignalEventRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "signal_event"

    var trackId: Int64
    var timeUs: Int64?
    var kind: String
    var detail: String?

    enum CodingKeys: String, CodingKey {
        case trackId = "track_id"
        case timeUs = "time_us"
        case kind, detail
    }
}
