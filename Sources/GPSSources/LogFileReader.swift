import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An NMEA log open for reading in chunks; closes its descriptor when done or dropped.
///
/// A class so that an iteration abandoned half way (the consumer stopped, the task was
/// cancelled) still closes the file, in `deinit`.
final class LogFileReader {
    /// The size of one read: large enough that a long log takes few system calls.
    static let chunkBytes = 64 * 1024

    let path: String
    private var descriptor: FileDescriptor?
    private var buffer: [UInt8]
    /// Bytes read so far.
    private(set) var bytesRead = 0

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: LogFileReader.chunkBytes)
    }

    deinit {
        close()
    }

    /// Opens `path` and checks that it is a non-empty file (or a pipe or device, whose size
    /// is unknown).
    ///
    /// - Throws: ``SourceError/cannotOpen(path:reason:)`` (also for `-`: standard input is
    ///   not read here), ``SourceError/isDirectory(path:)``, ``SourceError/emptyInput(path:)``.
    static func open(_ path: String) throws(SourceError) -> LogFileReader {
        if path == "-" {
            throw .cannotOpen(path: path, reason: "reading standard input is not supported here; give a file")
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw .cannotOpen(path: path, reason: describeSystemError(error))
        }
        var status = stat()
        guard fstat(fd.rawValue, &status) == 0 else {
            let reason = describeSystemError(Errno(rawValue: errno))
            try? fd.close()
            throw .cannotOpen(path: path, reason: reason)
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR {
            try? fd.close()
            throw .isDirectory(path: path)
        }
        if kind == S_IFREG && status.st_size == 0 {
            try? fd.close()
            throw .emptyInput(path: path)
        }
        return LogFileReader(path: path, descriptor: fd)
    }

    /// Reads the next chunk and hands its bytes to `body`; returns false at the end of the file
    /// (after which the descriptor is closed). Retries on EINTR.
    ///
    /// - Throws: ``SourceError/readFailed(path:reason:)``; the descriptor is then closed.
    func readChunk(_ body: (UnsafeRawBufferPointer) -> Void) throws(SourceError) -> Bool {
        guard let descriptor else { return false }
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { raw in
                try descriptor.read(into: raw, retryOnInterrupt: true)
            }
        } catch {
            close()
            throw .readFailed(path: path, reason: describeSystemError(error))
        }
        if count == 0 {
            close()
            return false
        }
        bytesRead += count
        buffer.withUnsafeBytes { raw in
            body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
        return true
    }

    /// Closes the descriptor; later reads find the end of the file.
    func close() {
        try? descriptor?.close()
        descriptor = nil
    }
}
