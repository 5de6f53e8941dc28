import Foundation
import GPSSources
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd reading NMEA from a pseudo-terminal, listening on a TCP port.
///
/// The harness holds the ``PseudoTerminal``: gpsd opens the slave by its path, the test
/// writes a receiver's sentences into the master. gpsd runs with `-N -n -b` (foreground,
/// device open without clients, read-only: it never reconfigures the "receiver"), spawned
/// with `posix_spawn`, an empty signal mask and default signal handlers, in a process group
/// of its own, so that SIGTERM stops it whatever the test process blocks. It can be stopped
/// and started again on the same port and pty; a new harness can take over the port of one
/// that was stopped (gpsd restarted with a receiver plugged in anew); `deinit` stops gpsd
/// and reaps it.
public final class GPSDHarness: Sendable {
    /// How long gpsd gets to come up and take its device, or to stop after SIGTERM.
    public static let bound = Duration.seconds(10)

    /// The TCP port gpsd listens on.
    public let port: Int
    /// The receiver gpsd reads: the test writes NMEA into it.
    public let terminal: PseudoTerminal
    private let directory: URL
    private let pid = Mutex<pid_t?>(nil)

    /// The pty's slave, the device gpsd reads (`/dev/pts/N`).
    public var slavePath: String { terminal.slavePath }

    /// gpsd on this harness's port, by IPv4 loopback (gpsd listens on ::1 too).
    public var address: GPSDAddress { GPSDAddress(host: "127.0.0.1", port: port) }

    /// Opens a new pty and starts gpsd on it, listening on `port` (a free port when nil).
    ///
    /// - Throws: ``HarnessError`` when there is no pty or free port, or gpsd does not start;
    ///   see ``start()``.
    public init(port: Int? = nil) throws {
        terminal = try PseudoTerminal()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = try port ?? Self.freePort()
        try start()
    }

    deinit {
        stop()
        terminal.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts gpsd and returns once it answers on its port with its device activated.
    ///
    /// - Throws: when gpsd is not installed, exits, or is not ready within ``bound``.
    public func start() throws {
        guard let gpsd = ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/usr/bin/gpsd"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw HarnessError("gpsd is not installed (apt-get install gpsd)") }
        let arguments = [
            gpsd, "-N", "-n", "-b", "-S", String(port),
            "-F", directory.appendingPathComponent("control.sock").path, slavePath,
        ]
        let child = try spawn(arguments, log: directory.appendingPathComponent("gpsd.log").path)
        pid.withLock { $0 = child }
        let deadline = ContinuousClock.now.advanced(by: Self.bound)
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                pid.withLock { $0 = nil }
                throw HarnessError("gpsd exited at start (status \(status)): \(log)")
            }
            if deviceActivated() { return }
            usleep(50_000)
        }
        stop()
        throw HarnessError("gpsd did not activate \(slavePath) within \(Self.bound): \(log)")
    }

    /// Stops gpsd: SIGTERM, then SIGKILL if it has not exited within ``bound``; reaps it.
    public func stop() {
        guard let child = pid.withLock({ pid in defer { pid = nil }; return pid }) else { return }
        kill(child, SIGTERM)
        let deadline = ContinuousClock.now.advanced(by: Self.bound)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(child, &status, WNOHANG) == child { return }
            usleep(20_000)
        }
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
    }

    /// Writes `epochs` one at a time, `gap` apart, so that gpsd sees reporting cycles. Each
    /// is written whole, from a thread of the pty's (see ``PseudoTerminal/write(_:)-(String)``).
    public func feed(_ epochs: [String], gap: Duration = .milliseconds(25)) async throws {
        for epoch in epochs {
            try await terminal.write(epoch)
            try await Task.sleep(for: gap)
        }
    }

    /// What gpsd logged, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("gpsd.log"), encoding: .utf8)) ?? ""
    }

    /// Whether gpsd answers `?DEVICES;` on its port with the pty activated.
    private func deviceActivated() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return false }
        let request = "?DEVICES;\n"
        _ = request.withCString { Glibc.write(fd, $0, strlen($0)) }
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<10 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { return false }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
            // gpsd ends its lines in CRLF, which is one Character: split on newlines, not on "\n".
            if let line = received.split(whereSeparator: \.isNewline).first(where: { $0.contains("\"class\":\"DEVICES\"") }) {
                return line.contains(slavePath) && line.contains("\"activated\"")
            }
        }
        return false
    }

    /// Spawns `arguments` with an empty signal mask, default handlers, its own process group,
    /// standard output and error into `log`, and no other descriptor of ours.
    private func spawn(_ arguments: [String], log: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc's closefrom action is not visible to Swift: close what /proc lists as open.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return child
    }

    /// A TCP port nothing listens on now: bound to port 0, read back and released.
    ///
    /// - Throws: ``HarnessError`` when no socket can be bound.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw HarnessError("cannot bind a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    return address
}

/// The harness could not set gpsd up; the description says what failed.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
