import GRDB

/// The store's schema, as GRDB migrations.
///
/// Migrations are append-only: a migration that has shipped is never modified, and none
/// uses the app's types, so that every store ever written opens with every later trackd.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: tracks, segments, points, raw fixes, events") { db in
            // AUTOINCREMENT: the id of a deleted track is never given to a new one.
            try db.execute(sql: """
                CREATE TABLE track (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT,
                    state TEXT NOT NULL CHECK (state IN ('recording', 'finished', 'recovered')),
                    created_at_us INTEGER NOT NULL,
                    start_us INTEGER,
                    end_us INTEGER,
                    distance_m REAL NOT NULL DEFAULT 0,
                    points INTEGER NOT NULL DEFAULT 0,
                    segments INTEGER NOT NULL DEFAULT 0,
                    raw_fixes INTEGER NOT NULL DEFAULT 0,
                    accuracy TEXT NOT NULL,
                    activity TEXT NOT NULL,
                    distance_filter_m REAL,
                    source TEXT NOT NULL,
                    trackd_version TEXT NOT NULL
                );
                CREATE INDEX track_state ON track(state);

                CREATE TABLE segment (
                    track_id INTEGER NOT NULL REFERENCES track(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    PRIMARY KEY (track_id, number)
                ) WITHOUT ROWID;

                -- The rowid is (track id << 32) + number: a track's rows are one range of
                -- the table, in order, found without an index, and a commit appends to the
                -- last leaf page of each table (rows of a few hundred bytes stay in the
                -- table's leaves; a WITHOUT ROWID table would spill them to overflow pages).
                CREATE TABLE point (
                    id INTEGER PRIMARY KEY,
                    track_id INTEGER NOT NULL REFERENCES track(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    segment INTEGER NOT NULL,
                    speed_mps REAL NOT NULL,
                    \(fixColumns)
                );

                CREATE TABLE raw_fix (
                    id INTEGER PRIMARY KEY,
                    track_id INTEGER NOT NULL REFERENCES track(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    after_gap INTEGER NOT NULL DEFAULT 0,
                    \(fixColumns)
                );

                CREATE TABLE signal_event (
                    id INTEGER PRIMARY KEY,
                    track_id INTEGER NOT NULL REFERENCES track(id) ON DELETE CASCADE,
                    time_us INTEGER,
                    kind TEXT NOT NULL,
                    detail TEXT
                );
                CREATE INDEX signal_event_track ON signal_event(track_id, id);
                """)
        }
        return migrator
    }

    /// The rowid of row `number` of track `track` in `point` and `raw_fix`.
    static func rowID(track: Int64, number: Int) -> Int64 { track << 32 | Int64(number) }

    /// The rowids of track `track`'s rows in `point` and `raw_fix`.
    static func rowIDs(track: Int64) -> ClosedRange<Int64> { (track << 32)...(track << 32 | 0xFFFF_FFFF) }

    /// The columns of a fix, the same in `point` and `raw_fix` (v1; see ``FixColumns``).
    private static let fixColumns = """
        time_us INTEGER,
                    time_of_day_us INTEGER,
                    mode INTEGER NOT NULL,
                    quality TEXT NOT NULL,
                    latitude REAL,
                    longitude REAL,
                    altitude_msl_m REAL,
                    geoid_separation_m REAL,
                    receiver_speed_mps REAL,
                    course_deg REAL,
                    magnetic_variation_deg REAL,
                    hdop REAL,
                    vdop REAL,
                    pdop REAL,
                    satellites_used INTEGER,
                    satellites_in_view INTEGER NOT NULL,
                    sky TEXT,
                    accuracy_m REAL,
                    vertical_accuracy_m REAL,
                    accuracy_source TEXT,
                    uere_m REAL,
                    dgps_age_s REAL,
                    dgps_station INTEGER
        """
}
