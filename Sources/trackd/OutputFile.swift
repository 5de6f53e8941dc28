import GPSSources
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes its result: standard output, or a file that appears only when
/// complete.
///
/// A file is written under a temporary name in the same directory and renamed over the
/// destination by ``commit()``, so a failed or interrupted run never leaves a half-written
/// file behind (and never damages an existing one). ``discard()`` removes the temporary file.
struct OutputFile {
    let path: String
    private let descriptor: FileDescriptor
    private let temporaryPath: String?
    /// The file the temporary one replaces: `path`, with symbolic links resolved.
    private var destination: String? = nil
    /// The temporary file, for removal from a signal handler.
    var temporaryPathForCleanup: String? { temporaryPath }

    var displayName: String { path == "-" ? "standard output" : path }
    /// Whether the output is written as a stream (standard output, a device, a pipe), so it
    /// cannot be rewritten in place and is not replaced atomically.
    var isStream: Bool { temporaryPath == nil }
    var isStandardOutput: Bool { path == "-" }

    static func create(_ path: String) throws(CLIError) -> OutputFile {
        if path == "-" {
            return OutputFile(path: path, descriptor: .standardOutput, temporaryPath: nil)
        }
        var st = stat()
        if stat(path, &st) == 0 && st.st_mode & S_IFMT != S_IFREG {
            // A device, FIFO or socket (`-o /dev/null`, a named pipe): write to it directly.
            // Renaming a file over it would replace the device node itself.
            guard st.st_mode & S_IFMT != S_IFDIR else {
                throw .cannotCreateOutput(path: path, reason: "it is a directory")
            }
            do {
                let fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.closeOnExec])
                return OutputFile(path: path, descriptor: fd, temporaryPath: nil)
            } catch {
                throw .cannotCreateOutput(path: path, reason: describeSystemError(error))
            }
        }
        // A symbolic link is followed, so the file it points to is replaced, not the link.
        var destination = path
        if let resolved = realpath(path, nil) {
            destination = String(cString: resolved)
            free(resolved)
        }
        let file = FilePath(destination)
        let directory = file.removingLastComponent()
        let name = file.lastComponent?.string ?? "output"
        var template = Array(
            ((directory.isEmpty ? "" : directory.string + "/") + "." + name + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .cannotCreateOutput(path: path, reason: describeSystemError(Errno(rawValue: errno)))
        }
        // mkstemp makes the file private (0600); give it the mode a new file would get.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        let tmp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return OutputFile(path: path, descriptor: FileDescriptor(rawValue: fd), temporaryPath: tmp, destination: destination)
    }

    /// Writes all of `bytes`, retrying short writes and EINTR.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CLIError) {
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw .writeFailed(path: displayName, reason: describeSystemError(error))
        }
    }

    /// Writes `bytes` at `offset` from the start of the file, over what is there.
    func write(_ bytes: [UInt8], at offset: Int) throws(CLIError) {
        do {
            _ = try bytes.withUnsafeBytes { try descriptor.writeAll(toAbsoluteOffset: Int64(offset), $0) }
        } catch {
            throw .writeFailed(path: displayName, reason: describeSystemError(error))
        }
    }

    /// Makes the file appear under its final name.
    func commit() throws(CLIError) {
        guard let tmp = temporaryPath else {
            if path != "-" { try? descriptor.close() }
            return
        }
        do {
            try descriptor.close()
        } catch {
            unlink(tmp)
            throw .writeFailed(path: path, reason: describeSystemError(error))
        }
        if rename(tmp, destination ?? path) != 0 {
            let reason = describeSystemError(Errno(rawValue: errno))
            unlink(tmp)
            throw .writeFailed(path: path, reason: reason)
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    func discard() {
        guard let tmp = temporaryPath else {
            if path != "-" { try? descriptor.close() }
            return
        }
        try? descriptor.close()
        unlink(tmp)
    }
}
