import Foundation
import GPSCore
import GRDB
import Testing
@testable import TrackStore

@Suite("Track store")
struct TrackStoreTests {
    @Test("a new store is created in WAL mode, and the recorder's connection syncs every commit (synchronous FULL)")
    func durabilitySettings() throws {
        let dir = try StoreDirectory()
        let (store, recovery) = try TrackStore.openForRecording(at: dir.storePath)
        #expect(recovery == TrackStore.Recovery())
        #expect(try store.writerPragma("journal_mode") == "wal")
        #expect(try store.writerPragma("synchronous") == "2")
        #expect(try store.writerPragma("page_size") == "1024")
        var options = StoreOptions()
        options.synchronous = .normal
        let other = try StoreDirectory()
        let (normal, _) = try TrackStore.openForRecording(at: other.storePath, options: options)
        #expect(try normal.writerPragma("synchronous") == "1")
    }

    @Test("committed points, segments and counters are read back, by a reader of its own, in order")
    func commitAndRead() throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let id = try store.beginTrack(name: "walk", settings: settings, createdAtMicroseconds: 1, version: "test")
        try commitPoints(store, track: id, count: 10)
        let reader = try TrackStore.open(at: dir.storePath, access: .read)
        let track = try reader.track(.latest)
        #expect(track.id == id)
        #expect(track.name == "walk")
        #expect(track.state == .recording)
        #expect(track.points == 10)
        #expect(track.rawFixes == 10)
        #expect(track.segments == 1)
        #expect(track.durationSeconds == 9)
        #expect(track.settings == settings)
        var seconds: [Int64] = []
        try reader.forEachPoint(ofTrack: id) { segment, fix in
            #expect(segment == 1)
            seconds.append(((fix.time?.microsecondsSinceEpoch ?? 0) - startMicroseconds) / 1_000_000)
        }
        #expect(seconds == Array(0..<10))
        try store.closeTrack(id, as: .finished)
        #expect(try reader.track(.id(id)).state == .finished)
    }

    @Test("a track left recording is closed at its last point and marked recovered by the next recorder")
    func recovery() throws {
        let dir = try StoreDirectory()
        var id: Int64 = 0
        do {
            let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
            id = try store.beginTrack(name: nil, settings: settings, createdAtMicroseconds: 1, version: "test")
            try commitPoints(store, track: id, count: 25)
            // The recorder dies here: the track is never closed.
        }
        let (store, recovery) = try TrackStore.openForRecording(at: dir.storePath)
        let recovered = recovery.recovered
        #expect(recovery.removedEmpty.isEmpty)
        #expect(recovered.map(\.id) == [id])
        #expect(recovered.first?.state == .recovered)
        #expect(recovered.first?.points == 25)
        #expect(recovered.first?.end == FixTime(microsecondsSinceEpoch: startMicroseconds + 24_000_000))
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.track(.id(id)).state == .recovered)
        // Recovery happens once.
        _ = store
    }

    @Test("a track left recording with nothing committed (no point, no fix) is removed by the next recorder, not recovered")
    func emptyInterruptedTrack() throws {
        let dir = try StoreDirectory()
        var kept: Int64 = 0
        var empty: Int64 = 0
        do {
            let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
            kept = try store.beginTrack(name: "kept", settings: settings, createdAtMicroseconds: 1, version: "test")
            try commitPoints(store, track: kept, count: 3)
            empty = try store.beginTrack(name: "empty", settings: settings, createdAtMicroseconds: 2, version: "test")
            // The recorder dies here, before the second track's first commit.
        }
        let (store, recovery) = try TrackStore.openForRecording(at: dir.storePath)
        #expect(recovery.recovered.map(\.id) == [kept])
        #expect(recovery.removedEmpty.map(\.id) == [empty])
        #expect(recovery.removedEmpty.first?.name == "empty")
        #expect(try store.tracks().map(\.id) == [kept])
    }

    @Test("the recorder lock belongs to the store file: a recorder through a symbolic link to it is refused")
    func lockThroughSymbolicLink() throws {
        let dir = try StoreDirectory()
        let (first, _) = try TrackStore.openForRecording(at: dir.storePath)
        let link = dir.url.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.storePath)
        #expect(throws: StoreError.inUse(path: link, holder: "pid \(getpid())")) {
            _ = try TrackStore.openForRecording(at: link)
        }
        _ = first
    }

    @Test("a second recorder on the same store is refused, naming the store and the first recorder")
    func secondRecorder() throws {
        let dir = try StoreDirectory()
        let (first, _) = try TrackStore.openForRecording(at: dir.storePath)
        #expect(throws: StoreError.inUse(path: dir.storePath, holder: "pid \(getpid())")) {
            _ = try TrackStore.openForRecording(at: dir.storePath)
        }
        _ = first
    }

    @Test("a track being recorded cannot be deleted by another process's view; a finished one is deleted with its rows")
    func delete() throws {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let running = try store.beginTrack(name: "a", settings: settings, createdAtMicroseconds: 1, version: "t")
        try commitPoints(store, track: running, count: 3)
        let writer = try TrackStore.open(at: dir.storePath, access: .write)
        #expect(throws: StoreError.trackIsRecording(id: running, path: dir.storePath, holder: "pid \(getpid())")) { try writer.delete(track: running) }
        try store.closeTrack(running, as: .finished)
        try writer.delete(track: running)
        #expect(throws: StoreError.noSuchTrack(id: running, path: dir.storePath)) { try writer.track(.id(running)) }
        #expect(try rowCount(dir.storePath, "point", track: running) == 0)
        #expect(try rowCount(dir.storePath, "raw_fix", track: running) == 0)
        #expect(try rowCount(dir.storePath, "segment", track: running) == 0)
    }

    @Test("reading a missing store, or one without tracks, says so")
    func missing() throws {
        let dir = try StoreDirectory()
        #expect(throws: StoreError.noStore(path: dir.storePath)) { _ = try TrackStore.open(at: dir.storePath, access: .read) }
        _ = try TrackStore.openForRecording(at: dir.storePath)
        let reader = try TrackStore.open(at: dir.storePath, access: .read)
        #expect(try reader.tracks().isEmpty)
        #expect(throws: StoreError.noTracks(path: dir.storePath)) { try reader.track(.latest) }
        #expect(throws: StoreError.noSuchTrack(id: 4, path: dir.storePath)) { try reader.track(.id(4)) }
    }

    @Test("a file that is not SQLite is refused and left as it was")
    func notSQLite() throws {
        let dir = try StoreDirectory()
        let text = Data("$GPGGA,not a database\r\n".utf8)
        try text.write(to: URL(fileURLWithPath: dir.storePath))
        #expect(throws: StoreError.notATrackStore(path: dir.storePath, reason: "not an SQLite database")) {
            _ = try TrackStore.openForRecording(at: dir.storePath)
        }
        #expect(throws: StoreError.notATrackStore(path: dir.storePath, reason: "not an SQLite database")) {
            _ = try TrackStore.open(at: dir.storePath, access: .read)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.storePath)) == text)
    }

    @Test("another program's SQLite database is refused, naming its tables, and not migrated")
    func foreignDatabase() throws {
        let dir = try StoreDirectory()
        try DatabaseQueue(path: dir.storePath).write { db in try db.execute(sql: "CREATE TABLE contacts (name TEXT)") }
        #expect {
            _ = try TrackStore.openForRecording(at: dir.storePath)
        } throws: { error in
            guard case StoreError.notATrackStore(_, let reason) = error else { return false }
            return reason.contains("contacts")
        }
        let tables = try DatabaseQueue(path: dir.storePath).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables == ["contacts"])
    }

    @Test("a store written by a newer trackd is refused, not changed")
    func newerSchema() throws {
        let dir = try StoreDirectory()
        _ = try TrackStore.openForRecording(at: dir.storePath)
        try DatabaseQueue(path: dir.storePath).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect(throws: StoreError.newerSchema(path: dir.storePath)) { _ = try TrackStore.openForRecording(at: dir.storePath) }
        #expect(throws: StoreError.newerSchema(path: dir.storePath)) { _ = try TrackStore.open(at: dir.storePath, access: .read) }
    }

    @Test("a store path that is a directory, or whose directory is missing, is refused with what to do")
    func badPaths() throws {
        let dir = try StoreDirectory()
        #expect {
            _ = try TrackStore.openForRecording(at: dir.url.path)
        } throws: { error in
            "\(error)".contains("is a directory") && "\(error)".contains(dir.url.path)
        }
        let missing = dir.url.appendingPathComponent("no/such/dir/tracks.sqlite").path
        #expect {
            _ = try TrackStore.openForRecording(at: missing)
        } throws: { error in
            "\(error)".contains("does not exist") && "\(error)".contains(missing)
        }
    }
}
