#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `--source auto` and `trackd sources` look at: a gpsd on a TCP port, and the device
/// nodes a GPS receiver shows up as.
public enum SourceDiscovery {
    /// The first bytes gpsd sends a new client: its `VERSION` report, within `timeout`.
    /// `nil` when nothing listens there, or what answers is not gpsd.
    public static func gpsdBanner(host: String, port: Int, timeout: Duration = .milliseconds(500)) -> String? {
        guard let fd = connect(host: host, port: port, timeout: timeout) else { return nil }
        defer { close(fd) }
        let text = readLines(fd, until: "\"class\":\"VERSION\"", timeout: timeout)
        return text.split(whereSeparator: \.isNewline).first { $0.contains("\"class\":\"VERSION\"") }.map(String.init)
    }

    /// gpsd's `DEVICES` report (JSON, one line): the devices it reads, with their paths,
    /// drivers and rates. `nil` when gpsd does not answer within `timeout`.
    public static func gpsdDevices(host: String, port: Int, timeout: Duration = .seconds(1)) -> String? {
        guard let fd = connect(host: host, port: port, timeout: timeout) else { return nil }
        defer { close(fd) }
        guard readLines(fd, until: "\"class\":\"VERSION\"", timeout: timeout).contains("VERSION") else { return nil }
        let query = Array("?DEVICES;\n".utf8)
        guard query.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == query.count else { return nil }
        let text = readLines(fd, until: "\"class\":\"DEVICES\"", timeout: timeout)
        return text.split(whereSeparator: \.isNewline).first { $0.contains("\"class\":\"DEVICES\"") }.map(String.init)
    }

    /// What arrives on `fd` until a complete line contains `marker`, or `timeout` passes.
    private static func readLines(_ fd: Int32, until marker: String, timeout: Duration) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        func done() -> Bool {
            // gpsd ends its lines with CR LF, one Character to Swift: split at any line end.
            text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).dropLast().contains { $0.contains(marker) }
        }
        while ContinuousClock.now < deadline, !done() {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&entry, 1, milliseconds) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return text
    }

    /// The device nodes in `directory` that may be GPS receivers, in the order `auto` tries
    /// them: the names udev rules give GPS receivers (`gps0`, `gps1`, …), then USB ACM
    /// modems (u-blox and most receivers with a USB port), then USB serial adapters.
    public static func receiverCandidates(in directory: String = "/dev") -> [String] {
        orderedCandidates(entries(of: directory)).map { directory + "/" + $0 }
    }

    /// The names of `entries` that may be GPS receivers, in the order `auto` tries them; pure.
    public static func orderedCandidates(_ entries: [String]) -> [String] {
        let families = ["gps", "ttyACM", "ttyUSB"]
        return families.flatMap { family in
            entries.filter { name in
                name.hasPrefix(family) && !name.dropFirst(family.count).isEmpty
                    && name.dropFirst(family.count).allSatisfy(\.isNumber)
            }.sorted { a, b in
                (Int(a.dropFirst(family.count)) ?? 0) < (Int(b.dropFirst(family.count)) ?? 0)
            }
        }
    }

    private static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A connected TCP socket to `host:port`, or nil within `timeout`.
    private static func connect(host: String, port: Int, timeout: Duration) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            if errno == EINPROGRESS {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ms = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if poll(&entry, 1, max(1, ms)) == 1,
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0
                {
                    return fd
                }
            }
            close(fd)
        }
        return nil
    }
}
