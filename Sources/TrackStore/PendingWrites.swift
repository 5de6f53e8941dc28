import GPSCore
import GRDB

/// What a recorder has received and not yet committed, as the rows to insert.
///
/// A value: the recorder appends entries, the store commits it in one transaction, and only
/// then is it cleared, so a failed commit (a full disk) loses nothing: the same rows are
/// tried again at the next commit.
struct PendingWrites: Sendable {
    var segments: [SegmentRecord] = []
    var points: [PointRecord] = []
    var rawFixes: [RawFixRecord] = []
    var events: [SignalEventRecord] = []
    /// The manager's total distance at the last entry, metres.
    var distanceMeters: Double?

    var count: Int { segments.count + points.count + rawFixes.count + events.count }
    var isEmpty: Bool { count == 0 && distanceMeters == nil }
}

extension TrackStore {
    /// Creates a track in the `recording` state; returns its id.
    func beginTrack(name: String?, settings: TrackSettings, createdAtMicroseconds: Int64, version: String) throws(StoreError) -> Int64 {
        try write { db in
            var record = TrackRecord(
                id: nil, name: name, state: TrackState.recording.rawValue, createdAtUs: createdAtMicroseconds,
                startUs: nil, endUs: nil, distanceM: 0, points: 0, segments: 0, rawFixes: 0,
                accuracy: settings.accuracy, activity: settings.activity, distanceFilterM: settings.distanceFilterMeters,
                source: settings.source, trackdVersion: version)
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    /// Commits `pending` for track `id` in one transaction, with the track's counters.
    func commit(_ pending: PendingWrites, track id: Int64) throws(StoreError) {
        guard !pending.isEmpty else { return }
        try write { db in
            for segment in pending.segments { try segment.insert(db) }
            for point in pending.points { try point.insert(db) }
            for raw in pending.rawFixes { try raw.insert(db) }
            for event in pending.events { try event.insert(db) }
            let times = pending.points.compactMap { $0.fix.time?.microsecondsSinceEpoch }
            try db.execute(
                sql: """
                    UPDATE track SET
                        points = points + ?, segments = segments + ?, raw_fixes = raw_fixes + ?,
                        distance_m = COALESCE(?, distance_m),
                        start_us = COALESCE(start_us, ?), end_us = COALESCE(?, end_us)
                    WHERE id = ?
                    """,
                arguments: [
                    pending.points.count, pending.segments.count, pending.rawFixes.count,
                    pending.distanceMeters, times.first, times.last, id,
                ])
        }
    }

    /// Closes track `id` as `state`.
    func closeTrack(_ id: Int64, as state: TrackState) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE track SET state = ? WHERE id = ?", arguments: [state.rawValue, id])
        }
    }

    /// Closes every track left in the `recording` state at its last committed point and marks
    /// it recovered; removes those with nothing committed (no point, no fix: the recorder
    /// died before its first commit). The caller holds the lock, so no recorder is writing
    /// them. Unless `checked` (the caller ran it), `PRAGMA quick_check` runs first when there
    /// is anything to recover.
    func recoverInterruptedTracks(checked: Bool) throws(StoreError) -> Recovery {
        let interrupted = try read { db in
            try TrackRecord.filter(Column("state") == TrackState.recording.rawValue).fetchAll(db)
        }
        guard !interrupted.isEmpty else { return Recovery() }
        if !checked {
            try quickCheck()
        }
        return try write { db in
            var recovery = Recovery()
            for var track in interrupted {
                guard let id = track.id else { continue }
                // The counters are committed with the rows; recount anyway, from the rows.
                let rows = StoreSchema.rowIDs(track: id)
                let range: StatementArguments = [rows.lowerBound, rows.upperBound]
                track.points = try PointRecord.filter(rows.contains(Column("id"))).fetchCount(db)
                track.segments = try SegmentRecord.filter(Column("track_id") == id).fetchCount(db)
                track.rawFixes = try RawFixRecord.filter(rows.contains(Column("id"))).fetchCount(db)
                if track.points == 0 && track.rawFixes == 0 {
                    // Its events and segments (there are none without a fix) go with it.
                    _ = try TrackRecord.deleteOne(db, key: id)
                    recovery.removedEmpty.append(track.summary)
                    continue
                }
                track.startUs = try Int64.fetchOne(db, sql: "SELECT MIN(time_us) FROM point WHERE id BETWEEN ? AND ?", arguments: range)
                track.endUs = try Int64.fetchOne(db, sql: "SELECT MAX(time_us) FROM point WHERE id BETWEEN ? AND ?", arguments: range)
                track.state = TrackState.recovered.rawValue
                try track.update(db)
                recovery.recovered.append(track.summary)
            }
            return recovery
        }
    }
}
