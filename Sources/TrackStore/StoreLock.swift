#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-recorder-per-store lock: an exclusive `flock` on `<store>.lock`, holding the
/// recorder's process id for the message another recorder prints.
///
/// The lock is a separate file because SQLite's own POSIX locks on the database file are
/// dropped when any descriptor of that file is closed. The kernel releases the lock when the
/// process dies, however it dies, so a kill or power cut never leaves a stale lock.
final class StoreLock: Sendable {
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    enum Outcome {
        case acquired(StoreLock)
        /// Another process holds it; its process id as it wrote it, when readable.
        case held(by: String)
    }

    /// Takes the lock for the store at `storePath` without waiting.
    static func acquire(forStoreAt storePath: String) throws(StoreError) -> Outcome {
        let path = storePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw errno == EACCES || errno == EROFS || errno == EPERM
                ? .notWritable(path: storePath, reason: "cannot create \(path): \(reason)")
                : .cannotOpen(path: storePath, reason: "cannot create \(path): \(reason)")
        }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let holder = Self.readHolder(fd)
            close(fd)
            return .held(by: holder)
        }
        let text = Array("pid \(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return .acquired(StoreLock(path: path, descriptor: fd))
    }

    private static func readHolder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return "process unknown" }
        let text = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first.map(String.init)
        return text ?? "process unknown"
    }
}
