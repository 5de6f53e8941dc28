import GPSCore
import NMEA
import GPSSources
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An NMEA log opened for reading: a file, or standard input for `-`.
struct InputFile {
    let path: String
    let descriptor: FileDescriptor
    /// The size in bytes for a regular file; nil for a pipe or terminal.
    let size: Int?

    var displayName: String { path == "-" ? "standard input" : path }

    /// Opens `path` and checks it is a readable, non-empty file.
    static func open(_ path: String) throws(CLIError) -> InputFile {
        if path == "-" {
            return InputFile(path: path, descriptor: .standardInput, size: nil)
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw .cannotOpen(path: path, reason: describeSystemError(error))
        }
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0 else {
            let reason = describeSystemError(Errno(rawValue: errno))
            try? fd.close()
            throw .cannotOpen(path: path, reason: reason)
        }
        let kind = st.st_mode & S_IFMT
        if kind == S_IFDIR {
            try? fd.close()
            throw .isDirectory(path: path)
        }
        if kind == S_IFREG {
            if st.st_size == 0 {
                try? fd.close()
                throw .emptyInput(path: path)
            }
            return InputFile(path: path, descriptor: fd, size: Int(st.st_size))
        }
        return InputFile(path: path, descriptor: fd, size: nil)
    }

    /// Reads into `buffer`; returns the byte count, 0 at the end. Retries on EINTR.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(CLIError) -> Int {
        do {
            return try descriptor.read(into: buffer, retryOnInterrupt: true)
        } catch {
            throw .readFailed(path: displayName, reason: describeSystemError(error))
        }
    }

    func close() {
        if path != "-" { try? descriptor.close() }
    }
}

extension InputFile {
    /// Reads the whole input through `parser` in `buffer`-sized chunks, handing each fix to
    /// `onFix` and each chunk's size to `progress`.
    ///
    /// - Returns: the parser's statistics, or nil when `shouldStop` ended the reading early
    ///   (the consumer failed; its error is the one to report).
    /// - Throws: ``CLIError/readFailed(path:reason:)``, and ``CLIError/noNMEA(path:bytes:rejected:)``
    ///   when not one sentence was accepted.
    func parseAll(
        with parser: inout NMEAParser, buffer: UnsafeMutableRawBufferPointer,
        shouldStop: () -> Bool = { false }, progress: (Int) -> Void = { _ in }, onFix: (Fix) -> Void
    ) throws(CLIError) -> NMEAStatistics? {
        var bytes = 0
        while !shouldStop() {
            let n = try read(into: buffer)
            if n == 0 { break }
            bytes += n
            parser.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), onFix: onFix)
            progress(n)
        }
        if shouldStop() { return nil }
        parser.finish(onFix: onFix)
        if parser.statistics.sentences == 0 {
            throw .noNMEA(path: displayName, bytes: bytes, rejected: parser.statistics.rejectedTotal)
        }
        return parser.statistics
    }
}
