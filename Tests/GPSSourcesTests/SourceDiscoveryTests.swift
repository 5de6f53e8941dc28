import GPSSources
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Source discovery")
struct SourceDiscoveryTests {
    @Test("udev's gps names come first, then USB ACM modems, then USB serial adapters, each in number order; nothing else")
    func candidateOrder() {
        let entries = ["ttyUSB1", "tty0", "ttyACM0", "gps1", "ttyUSB0", "gps0", "ttyS0", "gpsd.sock", "ttyACM10", "ttyACM2", "null", "gps"]
        #expect(SourceDiscovery.orderedCandidates(entries) == ["gps0", "gps1", "ttyACM0", "ttyACM2", "ttyACM10", "ttyUSB0", "ttyUSB1"])
    }

    @Test("a port where nothing listens is not gpsd")
    func closedPort() {
        #expect(SourceDiscovery.gpsdBanner(host: "127.0.0.1", port: freePort()) == nil)
    }

    @Test("a server that is not gpsd is not taken for gpsd")
    func otherServer() throws {
        let port = freePort()
        let listener = try #require(listen(on: port))
        defer { close(listener) }
        // A server that accepts and says something else.
        let banner = Thread2.run {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let text = Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)
            _ = text.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            usleep(300_000)
            close(client)
        }
        #expect(SourceDiscovery.gpsdBanner(host: "127.0.0.1", port: port) == nil)
        banner.join()
    }

    @Test("gpsd's VERSION report identifies gpsd")
    func gpsdVersion() throws {
        let port = freePort()
        let listener = try #require(listen(on: port))
        defer { close(listener) }
        let server = Thread2.run {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let text = Array("{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n".utf8)
            _ = text.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            usleep(300_000)
            close(client)
        }
        let banner = SourceDiscovery.gpsdBanner(host: "127.0.0.1", port: port)
        #expect(banner?.contains("\"release\":\"3.22\"") == true, "\(banner ?? "nil")")
        server.join()
    }
}

/// A TCP port on the loopback that nothing listens on (bound and released).
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A listening socket on 127.0.0.1:`port`.
func listen(on port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, Glibc.listen(fd, 4) == 0 else {
        close(fd)
        return nil
    }
    return fd
}

/// A plain thread for a test's fake server.
final class Thread2: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void

    private init(_ body: @escaping () -> Void) { self.body = body }

    static func run(_ body: @escaping () -> Void) -> Thread2 {
        let t = Thread2(body)
        let context = Unmanaged.passRetained(t).toOpaque()
        pthread_create(&t.thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Thread2>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        return t
    }

    func join() { pthread_join(thread, nil) }
}
