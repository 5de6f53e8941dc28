import GPSCore
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The crash-safe store of tracks: one SQLite file in WAL mode.
///
/// A recorder opens it with ``openForRecording(at:options:)``, which takes the store's lock
/// (one recorder per store), checks the store (`PRAGMA quick_check`), migrates the schema and
/// closes tracks that an earlier recorder left open ([recovery](#recovery)). Readers
/// (`trackd tracks`, `trackd export`, `trackd serve`) open it with ``open(at:access:options:)``
/// and see a consistent snapshot, even while a recorder writes.
///
/// ## Durability
/// The recorder commits in short transactions at least once a second (``TrackRecorder``),
/// with `PRAGMA synchronous = FULL` on its connection: SQLite syncs the WAL at every commit.
/// What a commit returned is on the disk: a killed process loses nothing committed, a power
/// cut loses at most the last second. See ``StoreOptions/synchronous``.
///
/// ## Recovery
/// A track still in the `recording` state when a recorder opens the store was left by a kill
/// or a power cut (the lock proves that no recorder is writing it). It is closed at its last
/// committed point and marked ``TrackState/recovered``; one with nothing committed (no point,
/// no fix: the recorder died before its first commit) is removed.
///
/// ## A full disk, a store this user cannot write
/// Writers refuse to open without the free space SQLite's shared memory and the first
/// commits need (``StoreError/notEnoughSpace(path:availableBytes:neededBytes:)``): on a full
/// disk, mapping the `-shm` file can kill the process with SIGBUS (``StoreSpace``). Readers
/// then read without shared memory (``ReadingMode``), as they do when they cannot create the
/// `-wal` and `-shm` files beside the store; they still see every commit.
///
/// ## One name
/// SQLite names the WAL after the path a store is opened by. A symbolic link is resolved to
/// the store's own path, but a hard link is a second name with a WAL of its own: writers
/// refuse a store file with more than one name (``StoreError/hardLinked(path:links:recorder:)``),
/// and the recorder lock is taken on the file, whatever its name (``StoreLock``).
public final class TrackStore: Sendable {
    /// The store's path as given.
    public let path: String
    private let connection: Connection
    private let lock: StoreLock?
    /// The recorder holding the lock (`pid N`) when this writer found one running.
    private let recorder: String?

    private enum Connection: Sendable {
        case writer(DatabasePool)
        case reader(StoreReader)
    }

    private init(path: String, connection: Connection, lock: StoreLock?, recorder: String? = nil) {
        self.path = path
        self.connection = connection
        self.lock = lock
        self.recorder = recorder
    }

    deinit {
        // The connections first: closing the lock's descriptor of the store file drops the
        // POSIX locks of every SQLite connection of this process on it (see StoreLock).
        switch connection {
        case .writer(let pool): try? pool.close()
        case .reader(let reader): reader.close()
        }
    }

    /// How a store is opened.
    public enum Access: Sendable {
        /// Read only; the store must exist. Never writes, never locks; reads without SQLite's
        /// shared memory when the disk is full or the `-wal`/`-shm` cannot be created there.
        case read
        /// Read and write (deleting tracks); created when missing. Recovers interrupted
        /// tracks when no recorder is running.
        case write
    }

    /// What ``openForRecording(at:options:)`` (and a writer that finds no recorder) did to
    /// the tracks that earlier recorders left open.
    public struct Recovery: Sendable, Hashable {
        /// Closed at their last committed point and marked recovered.
        public var recovered: [TrackSummary] = []
        /// Removed: nothing was committed to them (no point, no fix).
        public var removedEmpty: [TrackSummary] = []
    }

    /// Opens the store for a recorder: checks the free space, takes the lock, checks the
    /// store with `PRAGMA quick_check`, creates and migrates it, and recovers interrupted
    /// tracks. Throws ``StoreError/notEnoughSpace(path:availableBytes:neededBytes:)`` on a
    /// full disk and ``StoreError/damaged(path:detail:)`` for a damaged store, before
    /// anything is written.
    public static func openForRecording(
        at path: String, options: StoreOptions = StoreOptions()
    ) throws(StoreError) -> (store: TrackStore, recovery: Recovery) {
        let exists = try checkFile(path, mustExist: false)
        if let space = StoreSpace.measure(storePath: path, pageSizeBytes: options.pageSizeBytes),
           !space.canAllocate(space.neededForRecording) {
            throw .notEnoughSpace(path: path, availableBytes: space.availableBytes, neededBytes: space.neededForRecording)
        }
        let lock: StoreLock
        switch try StoreLock.acquire(forStoreAt: path) {
        case .acquired(let acquired): lock = acquired
        case .held(let holder): throw .inUse(path: path, holder: holder)
        }
        if let links = linkCount(path), links > 1 { throw .hardLinked(path: path, links: links, recorder: nil) }
        if exists {
            // Refuse another program's or a damaged database before anything writes to it.
            let reader = try StoreReader(path: path, options: options, migrated: false)
            defer { reader.close() }
            try quickCheck(reader, path: path)
        }
        let store = TrackStore(path: path, connection: .writer(try openPool(path, options: options)), lock: lock)
        let recovery = try store.recoverInterruptedTracks(checked: true)
        return (store, recovery)
    }

    /// Opens the store to read, or to change tracks other than a running recording.
    public static func open(at path: String, access: Access, options: StoreOptions = StoreOptions()) throws(StoreError) -> TrackStore {
        switch access {
        case .read:
            try checkFile(path, mustExist: true)
            return TrackStore(path: path, connection: .reader(try StoreReader(path: path, options: options, migrated: true)), lock: nil)
        case .write:
            try checkFile(path, mustExist: true)
            if let space = StoreSpace.measure(storePath: path, pageSizeBytes: options.pageSizeBytes),
               !space.canAllocate(space.neededForChanging) {
                throw .notEnoughSpace(path: path, availableBytes: space.availableBytes, neededBytes: space.neededForChanging)
            }
            var lock: StoreLock?
            var holder: String?
            switch try StoreLock.acquire(forStoreAt: path) {
            case .acquired(let acquired): lock = acquired
            case .held(let by): holder = by
            }
            if let links = linkCount(path), links > 1 { throw .hardLinked(path: path, links: links, recorder: holder) }
            try StoreReader(path: path, options: options, migrated: true).close()
            let store = TrackStore(
                path: path, connection: .writer(try openPool(path, options: options)), lock: lock, recorder: holder)
            if lock != nil { _ = try store.recoverInterruptedTracks(checked: false) }
            return store
        }
    }

    /// Why this reading store reads without shared memory, when the user should know; nil
    /// otherwise.
    public var readingNote: ReadingNote? {
        if case .reader(let reader) = connection { return reader.note }
        return nil
    }

    /// Whether this store holds the recorder lock (no other recorder is running).
    var holdsLock: Bool { lock != nil }

    // MARK: - Reading

    /// Every track, oldest first.
    public func tracks() throws(StoreError) -> [TrackSummary] {
        try read { db in try TrackRecord.order(Column("id")).fetchAll(db).map(\.summary) }
    }

    /// The track `selector` names.
    public func track(_ selector: TrackSelector) throws(StoreError) -> TrackSummary {
        let record = try read { db -> TrackRecord? in
            switch selector {
            case .latest: try TrackRecord.order(Column("id").desc).fetchOne(db)
            case .id(let id): try TrackRecord.fetchOne(db, key: id)
            }
        }
        guard let record else {
            switch selector {
            case .latest: throw .noTracks(path: path)
            case .id(let id): throw .noSuchTrack(id: id, path: path)
            }
        }
        return record.summary
    }

    /// Calls `body` with each point of track `id` in order, with its segment number (from 1)
    /// and the fix, whose speed is the manager's smoothed speed. Reads one snapshot.
    public func forEachPoint(
        ofTrack id: Int64, _ body: (_ segment: Int, _ fix: Fix) throws -> Void
    ) throws(StoreError) {
        try read { db in
            let points = try PointRecord.filter(StoreSchema.rowIDs(track: id).contains(Column("id"))).order(Column("id")).fetchCursor(db)
            while let point = try points.next() {
                var fix = point.fix
                fix.speedMetersPerSecond = point.speedMetersPerSecond
                try body(point.segment, fix)
            }
        }
    }

    /// Up to `limit` points of track `id` after point number `number` (0 for the first), in
    /// order: what a live view has not drawn yet. The speed is the manager's smoothed speed.
    public func points(ofTrack id: Int64, after number: Int, limit: Int) throws(StoreError) -> [StoredPoint] {
        // A number fills the low 32 bits of a rowid (StoreSchema.rowID): none follows the largest.
        guard number < 0xFFFF_FFFF else { return [] }
        let first = StoreSchema.rowID(track: id, number: max(0, number) + 1)
        let last = StoreSchema.rowIDs(track: id).upperBound
        guard first <= last else { return [] }
        return try read { db in
            try PointRecord.filter((first...last).contains(Column("id"))).order(Column("id")).limit(max(0, limit))
                .fetchAll(db).map { point in
                    var fix = point.fix
                    fix.speedMetersPerSecond = point.speedMetersPerSecond
                    return StoredPoint(number: point.number, segment: point.segment, fix: fix)
                }
        }
    }

    /// The row id of the latest event of track `id`; nil if it has none. With the track's
    /// summary, it tells a reader whether anything was committed since it last looked.
    public func latestEventID(ofTrack id: Int64) throws(StoreError) -> Int64? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT max(id) FROM signal_event WHERE track_id = ?", arguments: [id])
        }
    }

    /// The kind of the latest event of track `id` among `kinds` (such as the `signal-`
    /// events); nil if there is none.
    public func latestEvent(ofTrack id: Int64, among kinds: [String]) throws(StoreError) -> String? {
        try read { db in
            try SignalEventRecord.filter(Column("track_id") == id && kinds.contains(Column("kind")))
                .order(Column("id").desc).limit(1).fetchOne(db)?.kind
        }
    }

    /// Calls `body` with each fix received for track `id`, in order; `afterGap` is true for
    /// the first fix after the source was lost. Reads one snapshot.
    public func forEachRawFix(
        ofTrack id: Int64, _ body: (_ afterGap: Bool, _ fix: Fix) throws -> Void
    ) throws(StoreError) {
        try read { db in
            let fixes = try RawFixRecord.filter(StoreSchema.rowIDs(track: id).contains(Column("id"))).order(Column("id")).fetchCursor(db)
            while let raw = try fixes.next() { try body(raw.afterGap, raw.fix) }
        }
    }

    /// The signal events of track `id`, in order: `(time, kind, detail)`.
    public func events(ofTrack id: Int64) throws(StoreError) -> [(time: FixTime?, kind: String, detail: String?)] {
        try read { db in
            try SignalEventRecord.filter(Column("track_id") == id).order(Column("id")).fetchAll(db).map {
                ($0.timeUs.map(FixTime.init(microsecondsSinceEpoch:)), $0.kind, $0.detail)
            }
        }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound store, else SQLite's findings.
    public func integrityCheck() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Throws ``StoreError/damaged(path:detail:)`` when `PRAGMA quick_check` finds damage. It checks
    /// every page of every b-tree but not that indexes match their tables; on a store of a
    /// day of 1 Hz points it takes a fraction of `integrity_check`'s time (BENCHMARKS.md,
    /// "Checking a store before recording").
    func quickCheck() throws(StoreError) {
        try Self.requireSound(try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }, path: path)
    }

    /// Throws ``StoreError/damaged(path:detail:)`` when `PRAGMA quick_check` finds damage.
    static func quickCheck(_ reader: StoreReader, path: String) throws(StoreError) {
        let findings: [String]
        do {
            findings = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        } catch {
            throw StoreError(error, path: path)
        }
        try requireSound(findings, path: path)
    }

    /// Throws ``StoreError/damaged(path:detail:)`` unless `PRAGMA quick_check` said "ok".
    private static func requireSound(_ findings: [String], path: String) throws(StoreError) {
        guard findings == ["ok"] else {
            throw .damaged(path: path, detail: "PRAGMA quick_check: " + findings.prefix(3).joined(separator: "; "))
        }
    }

    // MARK: - Changing

    /// Deletes track `id` with its segments, points, raw fixes and events.
    public func delete(track id: Int64) throws(StoreError) {
        let summary = try track(.id(id))
        if summary.state == .recording && !holdsLock {
            throw .trackIsRecording(id: id, path: path, holder: recorder ?? "process unknown")
        }
        try write { db in
            // The rows by rowid range first: the cascade then finds none left.
            for table in [PointRecord.databaseTableName, RawFixRecord.databaseTableName] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE id BETWEEN ? AND ?",
                    arguments: [StoreSchema.rowIDs(track: id).lowerBound, StoreSchema.rowIDs(track: id).upperBound])
            }
            _ = try TrackRecord.deleteOne(db, key: id)
        }
    }

    // MARK: - Internals

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            switch connection {
            case .writer(let pool): return try pool.read(body)
            case .reader(let reader): return try reader.read(body)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: path)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        guard case .writer(let database) = connection else {
            preconditionFailure("a store opened to read is never written")
        }
        do {
            return try database.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Copies what the write-ahead log holds into the store file, without waiting for readers
    /// (SQLite's passive checkpoint; pages a reader still holds stay in the log). After a
    /// recording, the store file alone then holds the whole track: for a reader that cannot
    /// read the log, and for a copy of the file without its `-wal`.
    func checkpoint() throws(StoreError) {
        guard case .writer(let database) = connection else { return }
        do {
            _ = try database.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// The value of a pragma on the writing connection (for tests and diagnostics).
    public func writerPragma(_ name: String) throws(StoreError) -> String? {
        guard case .writer(let database) = connection else { return nil }
        do {
            return try database.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    private static func openPool(_ path: String, options: StoreOptions) throws(StoreError) -> DatabasePool {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(options.busyTimeoutSeconds)
            if let pageLimit = options.maximumPageCount {
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(pageLimit)") }
            }
            if !fileHasContent(path) {
                // A new store gets small pages before WAL mode fixes the page size: each
                // one-second commit appends a few pages to the WAL, so smaller pages write
                // less (BENCHMARKS.md, "Store durability").
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA page_size = \(options.pageSizeBytes)") }
                try StoreSchema.migrator.migrate(queue)
            }
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in try checkSchema(db, path: path, migrated: false) }
            try StoreSchema.migrator.migrate(pool)
            // DatabasePool sets synchronous = NORMAL on its connections after prepareDatabase
            // runs; the writer's durability is set here, afterwards.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(options.synchronous.rawValue)")
                try db.execute(sql: "PRAGMA journal_size_limit = \(options.journalSizeLimitBytes)")
            }
            return pool
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Refuses a directory, a missing parent, and a file that is not SQLite, before SQLite
    /// touches (and perhaps creates files beside) anything.
    @discardableResult
    private static func checkFile(_ path: String, mustExist: Bool) throws(StoreError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT {
                if mustExist { throw .noStore(path: path) }
                let directory = parentDirectory(of: path)
                var parentInfo = stat()
                if stat(directory, &parentInfo) != 0 {
                    throw .cannotOpen(path: path, reason: "its directory \(directory) does not exist")
                }
                if access(directory, W_OK) != 0 {
                    throw .notWritable(path: path, reason: "cannot create files in \(directory): \(String(cString: strerror(errno)))")
                }
                return false
            }
            throw .cannotOpen(path: path, reason: reason)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .cannotOpen(path: path, reason: "it is a directory; give the path of a file in it, such as \(path)/tracks.sqlite")
        }
        guard info.st_size > 0 else { return false }
        guard let header = fileHeader(path, count: 16) else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        if header != Array("SQLite format 3\0".utf8) {
            throw .notATrackStore(path: path, reason: "not an SQLite database")
        }
        return true
    }

    /// Refuses another program's database and a newer trackd's store.
    static func checkSchema(_ db: Database, path: String, migrated: Bool) throws {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if tables.isEmpty {
            if migrated { throw StoreError.noTracks(path: path) }
            return
        }
        guard tables.contains("grdb_migrations"), tables.contains("track") else {
            let listed = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            throw StoreError.notATrackStore(path: path, reason: "an SQLite database of another program, with the tables \(listed)")
        }
        if try StoreSchema.migrator.hasBeenSuperseded(db) {
            throw StoreError.newerSchema(path: path)
        }
    }
}

extension StoreError {
    /// Maps a GRDB or SQLite error to what the user should know.
    init(_ error: any Error, path: String) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .failed(path: path, reason: "\(error)")
            return
        }
        let message = error.message ?? "\(error)"
        switch error.resultCode {
        case .SQLITE_NOTADB: self = .notATrackStore(path: path, reason: "not an SQLite database")
        case .SQLITE_CORRUPT: self = .damaged(path: path, detail: message)
        case .SQLITE_FULL: self = .diskFull(path: path, pending: 0)
        case .SQLITE_READONLY, .SQLITE_PERM: self = .notWritable(path: path, reason: message)
        case .SQLITE_CANTOPEN: self = .cannotOpen(path: path, reason: message)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .failed(path: path, reason: "the store stayed locked by another process (\(message)); try again")
        case .SQLITE_IOERR: self = .failed(path: path, reason: "input/output error (\(message)); check the storage device")
        default: self = .failed(path: path, reason: message)
        }
    }
}

/// The number of names (hard links) of the file at `path`; nil when it cannot be read.
private func linkCount(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_nlink) : nil
}

/// Whether a file exists at `path` and is not empty.
private func fileHasContent(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_size > 0
}

/// The first `count` bytes of the file at `path` (fewer if it is shorter); nil if it cannot be read.
private func fileHeader(_ path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: count)
    let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n >= 0 else { return nil }
    return Array(header[0..<n])
}
