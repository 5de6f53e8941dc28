import Foundation
import GPSSources
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal pair standing in for a serial GPS receiver, as gpsd's gpsfake uses
/// (gpsd/gps/fake.py `FakePTY`): the test holds the master and writes what a receiver would
/// send; the program under test (a serial source, gpsd, `trackd`) opens the slave by its path,
/// as it would open /dev/ttyACM0.
///
/// The slave is made raw before anything is written, and the test keeps its own descriptor of
/// it open, so that bytes written before the reader opens the path wait for it. The master is
/// non-blocking, so no write ever blocks the test: ``writeNow(_:)`` drops what does not fit,
/// ``write(_:)-(_)`` and ``keepWriting(_:every:)`` wait in `poll` on a thread of their own.
/// ``close()`` closes both ends: the receiver is unplugged. Both descriptors are close-on-exec,
/// so a spawned program only has the device if it opens it.
public final class PseudoTerminal: Sendable {
    /// The test's end: what is written here is what the receiver sends.
    public let master: FileDescriptor
    /// The test's own descriptor of the receiver's end, kept open so bytes wait for the reader.
    public let slave: FileDescriptor
    /// `/dev/pts/N`.
    public let slavePath: String
    /// Whether ``close()`` has run; held while writing, so no write reaches a closed (or
    /// reused) descriptor number.
    private let closed = Mutex(false)

    /// Opens a pty pair with a raw slave and a non-blocking master.
    ///
    /// - Throws: `Errno` when the system has no pty to give.
    public init() throws {
        var masterFD: Int32 = -1
        var slaveFD: Int32 = -1
        guard openpty(&masterFD, &slaveFD, nil, nil, nil) == 0 else { throw Errno(rawValue: errno) }
        do {
            slavePath = try Self.setUp(master: masterFD, slave: slaveFD)
        } catch {
            Glibc.close(masterFD)
            Glibc.close(slaveFD)
            throw error
        }
        master = FileDescriptor(rawValue: masterFD)
        slave = FileDescriptor(rawValue: slaveFD)
    }

    /// Makes the slave raw (so nothing written is echoed back or rewritten before the reader
    /// sets the line up), the master non-blocking and both close-on-exec; the slave's path.
    private static func setUp(master: Int32, slave: Int32) throws -> String {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else { throw Errno(rawValue: errno) }
        cfmakeraw(&settings)
        guard tcsetattr(slave, TCSANOW, &settings) == 0 else { throw Errno(rawValue: errno) }
        let flags = fcntl(master, F_GETFL)
        guard flags >= 0, fcntl(master, F_SETFL, flags | O_NONBLOCK) == 0,
              fcntl(master, F_SETFD, FD_CLOEXEC) == 0, fcntl(slave, F_SETFD, FD_CLOEXEC) == 0
        else { throw Errno(rawValue: errno) }
        var name = [CChar](repeating: 0, count: 256)
        let failure = ttyname_r(slave, &name, name.count)
        guard failure == 0 else { throw Errno(rawValue: failure) }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        close()
    }

    /// Closes both ends: the receiver is unplugged. A reader's descriptor of the slave hangs
    /// up (POLLHUP, then read() == 0) and /dev/pts/N goes away. Later writes do nothing.
    public func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            try? master.close()
            try? slave.close()
        }
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { closed.withLock { $0 } }

    /// Writes what the pty takes now and drops the rest; never waits.
    ///
    /// - Returns: how many bytes were written (0 when the pty is full or closed).
    @discardableResult
    public func writeNow(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count, case .wrote(let count)? = try? writeSome(bytes[offset...]) {
            offset += count
        }
        return offset
    }

    /// Writes what the pty takes of `text` now and drops the rest; never waits.
    @discardableResult
    public func writeNow(_ text: String) -> Int {
        writeNow(Array(text.utf8))
    }

    /// Writes all of `bytes` to the master, on a thread of its own (the reader may not read
    /// until later, and a full pty must not hold a thread of the concurrency pool). Returns
    /// early, having written part, if the pty is closed meanwhile.
    ///
    /// - Throws: `Errno` when a write fails for another reason than a full pty.
    public func write(_ bytes: [UInt8]) async throws {
        let stream = ReaderThread.stream(of: Bool.self, name: "pty writer") { [self] control in
            try writeAll(bytes, isStopped: { control.isStopped })
        }
        for try await _ in stream {}
    }

    /// Writes all of `text`; see ``write(_:)-(_)``.
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Writes `chunks` in turn, again and again, `gap` apart, on a thread of its own until the
    /// returned writer is stopped or released, or the pty is closed: a receiver that keeps talking.
    public func keepWriting(_ chunks: [[UInt8]], every gap: Duration = .zero) -> Writer {
        let writer = Writer()
        let stop = writer.flag
        let microseconds = UInt32(clamping: gap.components.seconds * 1_000_000 + gap.components.attoseconds / 1_000_000_000_000)
        // The stream is dropped at once: the thread runs on until `stop` is set.
        _ = ReaderThread.stream(of: Bool.self, name: "pty writer") { [self] _ in
            guard !chunks.isEmpty else { return }
            var index = 0
            while !stop.isSet && !isClosed {
                try? writeAll(chunks[index], isStopped: { stop.isSet })
                index = (index + 1) % chunks.count
                if microseconds > 0 { usleep(microseconds) }
            }
        }
        return writer
    }

    /// Writes `chunk` again and again; see ``keepWriting(_:every:)-(_,_)``.
    public func keepWriting(_ chunk: [UInt8], every gap: Duration = .zero) -> Writer {
        keepWriting([chunk], every: gap)
    }

    /// A thread that keeps writing to a pty, until ``stop()`` or until the writer is released.
    public final class Writer: Sendable {
        let flag = StopFlag()

        deinit { flag.set() }

        /// Stops the writer; it returns within one `poll` timeout (50 ms) or one gap.
        public func stop() { flag.set() }
    }

    /// How many of this process's descriptors are open on the slave (the test's own included).
    public var slaveOpenCount: Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == slavePath }.count
    }

    private enum WriteResult {
        case wrote(Int)
        case full
        case closed
    }

    /// One non-blocking write of (a prefix of) `bytes`, unless the pty is closed.
    ///
    /// - Throws: `Errno` when the write fails for another reason than a full pty.
    private func writeSome(_ bytes: ArraySlice<UInt8>) throws -> WriteResult {
        try closed.withLock { closed in
            guard !closed else { return .closed }
            do {
                return .wrote(try bytes.withUnsafeBytes { try master.write($0, retryOnInterrupt: true) })
            } catch Errno.wouldBlock {
                return .full
            }
        }
    }

    /// Writes all of `bytes`, waiting in `poll` while the pty is full, until done, stopped or closed.
    private func writeAll(_ bytes: [UInt8], isStopped: () -> Bool) throws {
        var offset = 0
        while offset < bytes.count && !isStopped() {
            switch try writeSome(bytes[offset...]) {
            case .wrote(let count): offset += count
            case .closed: return
            case .full:
                var entry = pollfd(fd: master.rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 50)
            }
        }
    }
}
