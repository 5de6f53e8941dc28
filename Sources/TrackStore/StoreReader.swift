import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a reading command's connection reads the store.
public enum ReadingMode: Sendable, Hashable {
    /// Through SQLite's shared memory (`<store>-shm`), as every SQLite reader does: each read
    /// sees every commit so far, also while a recorder writes.
    case shared
    /// Without shared memory: SQLite reads the WAL into this process's memory (its
    /// `unix-none` VFS in exclusive locking mode, which takes no lock and creates, maps and
    /// writes no file). Used when the disk is too full for the `-shm` file, or when this user
    /// cannot create it. Each read sees what was committed when the connection opened; it is
    /// opened again when the store's files change. It takes no lock, which is safe because
    /// no recorder writes meanwhile: a running recorder keeps its `-shm` allocated (so
    /// readers use ``shared``) and cannot commit on a full disk.
    case privateIndex
    /// The store file alone (`immutable=1`): when the WAL is empty or absent (everything
    /// committed is in the file), or cannot be read.
    case storeFileOnly
}

/// Why a reader reads without shared memory, when the user should know.
public enum ReadingNote: Sendable, Hashable, CustomStringConvertible {
    /// The disk is too full for SQLite's shared memory: `available` bytes free, `needed` needed.
    case lowSpace(path: String, availableBytes: Int64, neededBytes: Int64, neededForRecording: Int64)
    /// The WAL holds commits that cannot be read; what is shown is the store file alone.
    case walUnreadable(path: String, reason: String)
    /// The store file has other names (hard links): commits made through another name are
    /// in that name's WAL, and show here only once checkpointed into the file.
    case hardLinked(path: String, links: Int)

    public var description: String {
        switch self {
        case .lowSpace(let path, let available, let needed, let recording):
            "the disk holding the track store \(path) is full (\(formatBytes(available)) free; SQLite's shared memory for it needs \(formatBytes(needed))): reading it without shared memory, which shows everything committed; free at least \(formatBytes(recording)) there before recording again"
        case .hardLinked(let path, let links):
            "the track store \(path) has \(links) names (hard links); what a recorder commits through another name shows here only once it is checkpointed into the file; read and record through one name (a symbolic link is fine)"
        case .walUnreadable(let path, let reason):
            "the newest commits of the track store \(path) are in \(path)-wal, which cannot be read (\(reason)); showing what was checkpointed into the store file; read it as the user that records, or give this user write permission on \(parentDirectory(of: path))"
        }
    }
}

/// The connection of a reading store (``TrackStore/Access/read``), opened in the
/// ``ReadingMode`` the store's disk and permissions allow.
final class StoreReader: Sendable {
    let path: String
    private let options: StoreOptions
    private let migrated: Bool
    private let state: Mutex<Connection>

    struct Connection: Sendable {
        var queue: DatabaseQueue
        var mode: ReadingMode
        var note: ReadingNote?
        var files: FileState
    }

    /// Opens a reader, after checking that the file is a trackd store (`migrated`: one that
    /// holds the schema) and that its tracks can be read.
    init(path: String, options: StoreOptions, migrated: Bool) throws(StoreError) {
        self.path = path
        self.options = options
        self.migrated = migrated
        var connection = try Self.connect(path: path, options: options, migrated: migrated)
        var info = stat()
        if connection.note == nil, stat(path, &info) == 0, info.st_nlink > 1 {
            connection.note = .hardLinked(path: path, links: Int(info.st_nlink))
        }
        state = Mutex(connection)
    }

    var note: ReadingNote? { state.withLock { $0.note } }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try current().queue.read(body)
    }

    func close() {
        try? state.withLock { try $0.queue.close() }
    }

    /// The connection; one without shared memory is opened again when the store, its WAL or
    /// its `-shm` changed since (a recorder wrote, or space was freed).
    private func current() throws(StoreError) -> Connection {
        let connection = state.withLock { $0 }
        guard connection.mode != .shared else { return connection }
        let files = FileState(path)
        guard files != connection.files else { return connection }
        let fresh = try Self.connect(path: path, options: options, migrated: migrated)
        state.withLock { $0 = fresh }
        return fresh
    }

    /// The shared-memory connection when the disk and the permissions allow it; else one
    /// without shared memory.
    private static func connect(path: String, options: StoreOptions, migrated: Bool) throws(StoreError) -> Connection {
        let files = FileState(path)
        if let space = StoreSpace.measure(storePath: path, pageSizeBytes: options.pageSizeBytes), !space.allowsSharedMemory {
            let note = ReadingNote.lowSpace(
                path: path, availableBytes: space.availableBytes, neededBytes: space.sharedMemoryShortfallBytes,
                neededForRecording: space.neededForRecording)
            return try connectWithoutSharedMemory(path: path, options: options, migrated: migrated, files: files, note: note)
        }
        do {
            let queue = try open(path, .shared, options: options, migrated: migrated)
            return Connection(queue: queue, mode: .shared, note: nil, files: files)
        } catch let error as DatabaseError where Self.cannotCreateFiles(error) {
            // SQLite cannot create the -wal or -shm beside the store: a directory, file or file
            // system this user cannot write.
            return try connectWithoutSharedMemory(path: path, options: options, migrated: migrated, files: files, note: nil)
        } catch {
            throw StoreError(error, path: path)
        }
    }

    private static func connectWithoutSharedMemory(
        path: String, options: StoreOptions, migrated: Bool, files: FileState, note: ReadingNote?
    ) throws(StoreError) -> Connection {
        var walNote: ReadingNote?
        if files.walBytes > 0 {
            do {
                let queue = try open(path, .privateIndex, options: options, migrated: migrated)
                return Connection(queue: queue, mode: .privateIndex, note: note, files: files)
            } catch let error as DatabaseError where Self.cannotCreateFiles(error) {
                walNote = .walUnreadable(path: path, reason: error.message ?? "\(error.resultCode)")
            } catch {
                throw StoreError(error, path: path)
            }
        }
        do {
            let queue = try open(path, .storeFileOnly, options: options, migrated: migrated)
            return Connection(queue: queue, mode: .storeFileOnly, note: note ?? walNote, files: files)
        } catch {
            throw StoreError(error, path: path)
        }
    }

    private static func cannotCreateFiles(_ error: DatabaseError) -> Bool {
        [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM].contains(error.resultCode)
    }

    private static func open(_ path: String, _ mode: ReadingMode, options: StoreOptions, migrated: Bool) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(options.busyTimeoutSeconds)
        let name: String
        switch mode {
        case .shared:
            name = path
        case .privateIndex:
            name = "file:" + path.replacingPercentSpecials + "?vfs=unix-none"
            // Before the first read: in exclusive locking mode SQLite keeps the WAL index in
            // the heap and never maps the -shm (https://sqlite.org/wal.html#noshm).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        case .storeFileOnly:
            name = "file:" + path.replacingPercentSpecials + "?immutable=1"
        }
        let queue = try DatabaseQueue(path: name, configuration: configuration)
        try queue.read { db in
            try TrackStore.checkSchema(db, path: path, migrated: migrated)
            if try db.tableExists("track") { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track") }
        }
        return queue
    }
}

/// What a reader without shared memory compares to know that the store changed.
struct FileState: Sendable, Hashable {
    var storeBytes: Int64
    var storeModified: Int64
    var walBytes: Int64
    var walModified: Int64
    var hasSharedMemoryFile: Bool

    init(_ path: String) {
        (storeBytes, storeModified) = Self.sizeAndTime(path) ?? (-1, 0)
        (walBytes, walModified) = Self.sizeAndTime(path + "-wal") ?? (0, 0)
        hasSharedMemoryFile = Self.sizeAndTime(path + "-shm") != nil
    }

    private static func sizeAndTime(_ path: String) -> (Int64, Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

extension String {
    /// The path with the characters that a SQLite URI filename gives meaning escaped.
    var replacingPercentSpecials: String {
        var out = ""
        for character in self {
            switch character {
            case "%": out += "%25"
            case "?": out += "%3f"
            case "#": out += "%23"
            default: out.append(character)
            }
        }
        return out
    }
}
