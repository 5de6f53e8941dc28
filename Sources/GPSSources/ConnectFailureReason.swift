#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a TCP connection to `address` fails, in the system's words (`Connection refused`),
/// or nil when it succeeds.
///
/// libgps reports a failed connection only as "can't connect to host/port pair" and
/// overwrites errno, so after `gps_open` fails trackd tries the connection itself once to
/// learn the reason for the error message. Tries each address the host resolves to, as
/// libgps does, and reports the first address's failure.
func connectFailureReason(_ address: GPSDAddress) -> String? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc) || canImport(Musl)
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
    hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(address.host, String(address.port), &hints, &list)
    guard resolved == 0 else {
        return "cannot resolve \(address.host): \(String(cString: gai_strerror(resolved)))"
    }
    defer { freeaddrinfo(list) }
    var firstFailure: String?
    var entry = list
    while let info = entry?.pointee {
        entry = info.ai_next
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else {
            firstFailure = firstFailure ?? String(cString: strerror(errno))
            continue
        }
        let connected = connect(fd, info.ai_addr, info.ai_addrlen) == 0
        let failure = connected ? nil : String(cString: strerror(errno))
        _ = close(fd)
        guard let failure else { return nil }
        firstFailure = firstFailure ?? failure
    }
    return firstFailure
}
