import Foundation
import Testing

/// Track stores that cannot be used: each refusal names the path and says what is wrong,
/// exits 1 (not a crash), and changes nothing that was there.
@Suite("trackd with a broken track store")
struct StoreFaultTests {
    /// The store commands, each pointed at `store`; `dir` takes their output files.
    static func commands(_ store: URL, in dir: URL) -> [[String]] {
        [
            ["record", "--source", Support.sample.path, "--store", store.path],
            ["tracks", "--store", store.path],
            ["tracks", "--json", "--store", store.path],
            ["export", "latest", "-o", dir.appendingPathComponent("out.gpx").path, "--store", store.path],
            ["delete", "1", "--store", store.path],
        ]
    }

    @Test("a store in a directory that does not exist is refused, and nothing is created")
    func missingDirectory() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("no/such")
        let store = missing.appendingPathComponent("tracks.sqlite")
        let result = try Support.trackd(["record", "--source", Support.sample.path, "--store", store.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot open the track store \(store.path): its directory \(missing.path) does not exist"),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("a file that is not SQLite is refused by every command and left as it was")
    func notSQLite() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("notes.txt")
        let bytes = Data("shopping: bread, milk, 2 AA batteries for the GPS\n".utf8)
        try bytes.write(to: store)
        for command in Self.commands(store, in: dir) {
            let result = try Support.trackd(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("\(store.path) is not a trackd track store (not an SQLite database)"),
                    "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: store) == bytes, "\(command) changed the file")
        }
    }

    @Test("another program's SQLite database is refused, naming its tables, and left as it was")
    func foreignDatabase() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("other.sqlite")
        let create = try Support.run(Support.sqlite3, [store.path, "CREATE TABLE foo(x); INSERT INTO foo VALUES (42);"])
        try #require(create.status == 0, "\(create.stderr)")
        let bytes = try Data(contentsOf: store)
        for command in Self.commands(store, in: dir) {
            try Self.restore(store, to: bytes)
            let result = try Support.trackd(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("\(store.path) is not a trackd track store"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("with the tables foo"), "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: store) == bytes, "\(command.first ?? "") changed the other program's database")
        }
        #expect(Support.query(store, "SELECT x FROM foo") == ["42"])
    }

    /// Copies every page of the write-ahead log into the store file and empties the log, so
    /// that the page damaged is the one readers use (how much a recording leaves in the log
    /// depends on how its commits fell).
    static func checkpoint(_ store: URL) throws {
        let result = try Support.run(Support.sqlite3, [store.path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        #expect(result.status == 0 && result.stdoutText.hasPrefix("0|"), "\(result.stdoutText) \(result.stderr)")
    }

    /// Puts `bytes` back as the store, without the files SQLite and trackd keep beside it, so
    /// that each command meets the store as it was.
    static func restore(_ store: URL, to bytes: Data) throws {
        for suffix in ["-wal", "-shm", ".lock"] {
            try? FileManager.default.removeItem(atPath: store.path + suffix)
        }
        try bytes.write(to: store)
    }

    /// The store page that holds `table`'s rows: its root, or the middle leaf of a larger table.
    static func page(of table: String, in store: URL) -> Int? {
        let sql = """
            SELECT pageno FROM dbstat WHERE name = '\(table)' AND pagetype IN ('leaf')
            ORDER BY pageno LIMIT 1 OFFSET (SELECT count(*) / 2 FROM dbstat WHERE name = '\(table)' AND pagetype = 'leaf')
            """
        return Support.query(store, sql)?.first.flatMap { Int($0) }
    }

    @Test("a damaged store is reported as damaged, without a crash", arguments: [
        // The track table: nothing can be listed or recorded.
        ("track", [["tracks"], ["tracks", "--json"], ["export", "1"], ["record", "--source", Support.sample.path],
                   ["delete", "1"]]),
        // A page of points in the middle: the track's points cannot be exported.
        ("point", [["export", "1"]]),
    ])
    func damaged(table: String, commands: [[String]]) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        try Self.checkpoint(store)
        let page = try #require(Self.page(of: table, in: store), "sqlite3 lacks dbstat?")
        let pageSize = try #require(Support.query(store, "PRAGMA page_size")?.first.flatMap { Int($0) })
        let handle = try FileHandle(forUpdating: store)
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        try handle.close()
        let damaged = try Data(contentsOf: store)

        for command in commands {
            try Self.restore(store, to: damaged)
            let out = dir.appendingPathComponent("out.gpx")
            let arguments = command + (command.first == "export" ? ["-o", out.path] : []) + ["--store", store.path]
            let result = try Support.trackd(arguments)
            #expect(result.status == 1, "\(command): \(result.status), \(result.stderr)")
            #expect(result.stderr.contains("the track store \(store.path) is damaged"), "\(command): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(command) left a partial GPX")
            // Readers never write. record and delete do, before they find the damage: GRDB's
            // DatabasePool switches to WAL and creates and drops a table (grdb_issue_102) on open.
            if ["tracks", "export"].contains(command.first) {
                #expect(try Data(contentsOf: store) == damaged, "\(command) changed the damaged store")
            }
        }
    }

    @Test("a store whose quick_check fails is not recorded into, though its tracks can be listed; the message says what to do")
    func damagedBeforeRecording() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        try Self.checkpoint(store)
        // Garbage in the cells of a leaf page of points, its header intact: the track table
        // reads, and only a check of every page finds it.
        let page = try #require(Self.page(of: "point", in: store), "sqlite3 lacks dbstat?")
        let pageSize = try #require(Support.query(store, "PRAGMA page_size")?.first.flatMap { Int($0) })
        let handle = try FileHandle(forUpdating: store)
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + pageSize / 2))
        try handle.write(contentsOf: Data((0..<(pageSize / 4)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()
        try #require(Support.query(store, "PRAGMA quick_check") != ["ok"], "the damage is not found")
        try #require(Support.query(store, "SELECT count(*) FROM track") == ["1"])
        let damaged = try Data(contentsOf: store)

        let record = try Support.trackd(["record", "--source", Support.sample.path, "--store", store.path])
        #expect(record.status == 1, "\(record.stderr)")
        #expect(record.stderr.contains("the track store \(store.path) is damaged (PRAGMA quick_check: "), "\(record.stderr)")
        #expect(record.stderr.contains("sqlite3 \(store.path) .recover"), "\(record.stderr)")
        #expect(try Data(contentsOf: store) == damaged, "record changed the damaged store")
        #expect(Support.query(store, "SELECT count(*) FROM track") == ["1"], "record began a track")
        let list = try Support.trackd(["tracks", "--store", store.path])
        #expect(list.status == 0, "\(list.stderr)")
    }

    @Test("a recorder killed before its first commit leaves no track behind: the next recorder removes the empty one and says so")
    func emptyInterruptedTrack() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        // A log that sends nothing yet: a FIFO nobody writes to.
        let silent = dir.appendingPathComponent("silent.nmea")
        try #require(mkfifo(silent.path, 0o600) == 0)
        let recorder = try BackgroundProcess(["record", "--source", silent.path, "--no-chime", "--store", store.path], in: dir)
        defer { recorder.stop() }
        try #require(Support.waitUntil(atMost: 30) { Support.newestTrackID(store) == 1 }, "\(recorder.stderr)")
        recorder.stop()
        try #require(Support.query(store, "SELECT state, points, raw_fixes FROM track") == ["recording|0|0"])

        let next = try Support.trackd(["record", "--source", Support.sample.path, "--no-chime", "--store", store.path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains(
            "track 1 'silent' in \(store.path) was interrupted before its first commit (the recorder was killed or lost power); it held no point and no fix, so it was removed"),
            "\(next.stderr)")
        #expect(!next.stderr.contains("marked recovered"), "\(next.stderr)")
        #expect(try Support.tracks(store).map { $0["id"] as? Int } == [2])
        #expect(Support.query(store, "SELECT count(*) FROM signal_event WHERE track_id = 1") == ["0"])
    }

    enum UnwritableStoreState: String, CaseIterable, CustomTestStringConvertible {
        /// Closed by its recorder: no -wal, no -shm.
        case closed
        /// Its recorder killed: commits only in the -wal, and the -shm beside it.
        case killedRecorder
        /// The same after a reboot that cleared the -shm (or someone deleted it).
        case killedRecorderWithoutSharedMemory
        var testDescription: String { rawValue }
    }

    @Test("a user who may read the store but not write its directory lists and exports every commit, those only in the WAL too",
          arguments: UnwritableStoreState.allCases)
    func readerWithoutWritePermission(state: UnwritableStoreState) throws {
        try #require(getuid() == 0, "needs root to run trackd as another user")
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stateDirectory = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let store = stateDirectory.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store, ["--no-chime"])
        var expected = [1: 1972]
        if state != .closed {
            expected[2] = try Support.killRecorderMidTrack(store: store, in: dir)
            if state == .killedRecorderWithoutSharedMemory { try FileManager.default.removeItem(atPath: store.path + "-shm") }
        }
        // Readable by everyone, writable by root only, as /var/lib/trackd for its group.
        for path in [dir.path, stateDirectory.path] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).sorted()
        let output = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: output.path)
        func asNobody(_ arguments: [String]) throws -> Support.Result {
            try Support.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Support.trackd.path] + arguments)
        }

        let list = try asNobody(["tracks", "--json", "--store", store.path])
        #expect(list.status == 0, "\(list.status): \(list.stderr)")
        let listed = (try? JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]]) ?? []
        #expect(Dictionary(uniqueKeysWithValues: listed.compactMap { t in (t["id"] as? Int).map { ($0, t["points"] as? Int ?? -1) } })
            == expected, "\(list.stdoutText)")
        for (id, points) in expected {
            let out = output.appendingPathComponent("track\(id).gpx")
            let export = try asNobody(["export", "\(id)", "-o", out.path, "--store", store.path])
            #expect(export.status == 0, "\(export.status): \(export.stderr)")
            #expect((try? Support.count("<trkpt ", in: out)) == points)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).sorted() == names)
    }

    @Test("a second recorder on the same store is refused with the first one's pid; the first goes on")
    func secondRecorder() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let first = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "1", "--store", store.path], in: dir, label: "first")
        defer { first.stop() }
        try #require(Support.waitUntil(atMost: 60) { Support.newestTrackID(store) == 1 }, "\(first.stderr)")

        let second = try Support.trackd(["record", "--source", "simulate:city-run", "--duration", "10s", "--store", store.path])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another trackd is recording into \(store.path) (pid \(first.pid))"), "\(second.stderr)")
        #expect(Support.newestTrackID(store) == 1, "the refused recorder began a track")

        // Nor can the running track be deleted; listing works meanwhile.
        let delete = try Support.trackd(["delete", "1", "--store", store.path])
        #expect(delete.status == 1)
        #expect(delete.stderr.contains("track 1 in \(store.path) is being recorded right now"), "\(delete.stderr)")
        #expect(try Support.tracks(store).first?["state"] as? String == "recording")

        // The first recorder still commits points.
        let seen = Support.rowCount(store, "point", track: 1) ?? 0
        #expect(Support.waitUntil(atMost: 30) { (Support.rowCount(store, "point", track: 1) ?? 0) > seen },
                "the first recorder stopped committing: \(first.stderr)")
        #expect(first.isRunning)
        first.send(SIGTERM)
        #expect(first.waitForEnd() == .exited(0), "\(first.stderr)")
        #expect(try Support.tracks(store).first?["state"] as? String == "finished")
    }

    @Test("a store on a read-only file system is refused as not writable and left as it was",
          .enabled(if: Support.canMount, "needs root and mount(8) for a read-only tmpfs"))
    func readOnly() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mountPoint = dir.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try #require(Support.mountTmpfs(on: mountPoint, size: "16m"))
        defer { Support.unmount(mountPoint) }

        // A new store on a read-only file system.
        let remountRO = ["-o", "remount,ro", mountPoint.path]
        try #require(try Support.run("/usr/bin/mount", remountRO).status == 0)
        let fresh = mountPoint.appendingPathComponent("tracks.sqlite")
        let refused = try Support.trackd(["record", "--source", Support.sample.path, "--store", fresh.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the track store \(fresh.path) is not writable"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).isEmpty)

        // An existing store, its file system remounted read-only.
        try #require(try Support.run("/usr/bin/mount", ["-o", "remount,rw", mountPoint.path]).status == 0)
        let store = mountPoint.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        try #require(try Support.run("/usr/bin/mount", remountRO).status == 0)
        let bytes = try Data(contentsOf: store)
        for command in [["record", "--source", Support.sample.path], ["delete", "1"]] {
            let result = try Support.trackd(command + ["--store", store.path])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("the track store \(store.path) is not writable"), "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: store) == bytes, "\(command) changed the store")
        }
    }

    @Test("a store on a read-only file system can still be listed and exported",
          .enabled(if: Support.canMount, "needs root and mount(8) for a read-only tmpfs"))
    func readOnlyReading() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mountPoint = dir.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try #require(Support.mountTmpfs(on: mountPoint, size: "16m"))
        defer { Support.unmount(mountPoint) }
        let store = mountPoint.appendingPathComponent("tracks.sqlite")
        try RecordCommandTests.recordSample(into: store)
        try #require(try Support.run("/usr/bin/mount", ["-o", "remount,ro", mountPoint.path]).status == 0)

        // SQLite cannot create the WAL index beside the store there; trackd opens it immutable.
        let list = try Support.trackd(["tracks", "--json", "--store", store.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdoutText.contains("\"points\":1972"), "\(list.stdoutText)")
        let out = dir.appendingPathComponent("out.gpx")
        let export = try Support.trackd(["export", "1", "-o", out.path, "--store", store.path])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Support.count("<trkpt ", in: out) == 1972)
    }

    @Test("a full disk stops the recording with an error naming the store; what was committed stays readable and is recovered",
          .enabled(if: Support.canMount, "needs root and mount(8) for a small tmpfs"))
    func diskFull() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mountPoint = dir.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // 2 MiB: a few commits fit (the WAL grows to its 1000-page checkpoint), three hours do not.
        try #require(Support.mountTmpfs(on: mountPoint, size: "2m"))
        defer { Support.unmount(mountPoint) }
        let store = mountPoint.appendingPathComponent("tracks.sqlite")

        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:freeway-drive", "--speed", "max", "--duration", "3h", "--store", store.path],
            in: dir)
        defer { recorder.stop() }
        let ending = recorder.waitForEnd(atMost: 60)
        #expect(ending == .exited(1), "\(recorder.stderr)")
        #expect(recorder.stderr.contains("the disk holding \(store.path) is full"), "\(recorder.stderr)")

        #expect(Support.query(store, "PRAGMA integrity_check") == ["ok"])
        let points = try #require(Support.rowCount(store, "point", track: 1))
        let fixes = try #require(Support.rowCount(store, "raw_fix", track: 1))
        #expect(fixes > 0, "nothing was committed before the disk filled")
        let listed = try #require(try Support.tracks(store).first)
        #expect(listed["state"] as? String == "recording", "left for the next recorder to recover")
        #expect(listed["points"] as? Int == points)
        let out = dir.appendingPathComponent("committed.gpx")
        let export = try Support.trackd(["export", "1", "-o", out.path, "--store", store.path])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Support.count("<trkpt ", in: out) == points)

        // Room again: the next recorder recovers the track with what was committed.
        try #require(try Support.run("/usr/bin/mount", ["-o", "remount,size=16m", mountPoint.path]).status == 0)
        let next = try Support.trackd(["record", "--source", Support.sample.path, "--store", store.path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("track 1 'freeway-drive' was interrupted"), "\(next.stderr)")
        let recovered = try Support.tracks(store).first { $0["id"] as? Int == 1 }
        #expect(recovered?["state"] as? String == "recovered")
        #expect(recovered?["points"] as? Int == points)
        #expect(Support.rowCount(store, "raw_fix", track: 1) == fixes)
    }
}
