#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sd_notify protocol: newline-separated `KEY=VALUE` assignments (`READY=1`,
/// `WATCHDOG=1`, `STATUS=…`, `STOPPING=1`), one datagram each, to the AF_UNIX socket that
/// systemd names in `NOTIFY_SOCKET` for a `Type=notify` service.
///
/// A path starting with `@` names a socket in the abstract namespace (`@` stands for the
/// leading NUL). Without `NOTIFY_SOCKET` every send is a no-op, so trackd behaves the same
/// outside systemd. Sockets go through the C library directly: swift-system has no socket
/// calls.
struct SystemdNotifier: Sendable {
    /// The socket's path from `NOTIFY_SOCKET`; nil when not run by systemd as `Type=notify`.
    let socketPath: String?
    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3)
    /// recommends; nil when the unit has no `WatchdogSec=` or the watchdog is for another
    /// process (`WATCHDOG_PID`).
    let watchdogInterval: Duration?

    init(environment: [String: String], processID: Int32 = getpid()) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// The notifier for this process's environment.
    static func fromEnvironment() -> SystemdNotifier {
        var environment: [String: String] = [:]
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return SystemdNotifier(environment: environment)
    }

    /// Whether systemd listens: `NOTIFY_SOCKET` is set.
    var isActive: Bool { socketPath != nil }

    /// Sends `state` (one or more `KEY=VALUE` lines) in one datagram.
    ///
    /// - Returns: nil when sent or when there is no socket; else the system's error text
    ///   (`No such file or directory`) for the caller to log. systemd never answers.
    @discardableResult
    func send(_ state: String) -> String? {
        guard let socketPath else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path (not abstract) needs room for its terminating NUL.
        guard pathBytes.count < capacity || (pathBytes.first == 0 && pathBytes.count <= capacity) else {
            return "NOTIFY_SOCKET is longer than \(capacity - 1) bytes"
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        // The abstract name's length is exact; a path's counts its NUL.
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let length = socklen_t(pathOffset + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        #if canImport(Darwin)
        let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        #else
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        var sent: Int
        repeat {
            sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
                }
            }
        } while sent < 0 && errno == EINTR
        return sent < 0 ? String(cString: strerror(errno)) : nil
    }
}
