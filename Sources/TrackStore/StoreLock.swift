#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-recorder-per-store lock: an exclusive `flock` on the store file itself, through a
/// descriptor of its own that the store keeps open as long as it lives.
///
/// The lock belongs to the file, not to a name: `flock` locks the open file description, and
/// so the inode, whatever path opened it. A symbolic link and a hard link to the store (or a
/// path through another mount of the same directory) meet the same lock; a `<store>.lock`
/// beside the path would not. `flock` locks are separate from the POSIX (`fcntl`) locks that
/// SQLite takes on the same file on Linux: neither blocks the other, and SQLite closing one of
/// its descriptors (which drops every POSIX lock of the process) leaves this one in place.
/// The converse holds too, so this descriptor is closed only after the store's SQLite
/// connections (``TrackStore``'s deinit closes them first). On NFS, where Linux emulates
/// `flock` with POSIX locks, it would conflict with SQLite's; a WAL store cannot live there
/// anyway (its shared memory needs a local file system).
///
/// The kernel releases the lock when the process dies, however it dies, so a kill or a
/// power cut never leaves a stale lock. The holder's process id, for the message another
/// recorder prints, comes from `/proc/locks`.
final class StoreLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    enum Outcome {
        case acquired(StoreLock)
        /// Another process (or another store of this one) holds it: `pid N` when known.
        case held(by: String)
    }

    /// Takes the lock of the store file at `storePath` without waiting; creates the file,
    /// empty, when it does not exist (SQLite then makes it a database).
    static func acquire(forStoreAt storePath: String) throws(StoreError) -> Outcome {
        var fd = open(storePath, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
            fd = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw errno == EACCES || errno == EROFS || errno == EPERM
                ? .notWritable(path: storePath, reason: reason)
                : .cannotOpen(path: storePath, reason: reason)
        }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let holder = Self.holder(of: fd)
            close(fd)
            return .held(by: holder)
        }
        return .acquired(StoreLock(descriptor: fd))
    }

    /// `pid N` for the process holding a `flock` on the file open as `fd`, from
    /// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF`: pid, then the
    /// device's major and minor number in hex and the inode).
    private static func holder(of fd: Int32) -> String {
        var info = stat()
        guard fstat(fd, &info) == 0, let text = readSmallFile("/proc/locks") else { return "process unknown" }
        let dev = UInt64(info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        let file = String(major, radix: 16).leftPadded(to: 2) + ":" + String(minor, radix: 16).leftPadded(to: 2) + ":\(info.st_ino)"
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1:" "FLOCK" "ADVISORY" "WRITE" pid file start end; a blocked waiter has "->".
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == file else { continue }
            return "pid \(fields[4])"
        }
        return "process unknown"
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
