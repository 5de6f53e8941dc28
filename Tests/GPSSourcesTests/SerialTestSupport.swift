import Foundation
import GPSCore
import NMEA
import SystemPackage
@testable import GPSSources

#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal pair, as gpsd's gpsfake uses (gpsd/gps/fake.py `FakePTY`): the test
/// holds the master and writes what a receiver would send; the source opens the slave by its
/// path, as it would open /dev/ttyACM0.
///
/// The slave is made raw before anything is written, and the test keeps its own descriptor
/// of it open, so that bytes written before the source opens the path wait for it. The
/// master is non-blocking: writers wait in `poll`, so a stopped writer never hangs.
final class PseudoTerminal: Sendable {
    let master: FileDescriptor
    let slave: FileDescriptor
    /// `/dev/pts/N`.
    let slavePath: String
    private let closed = StopFlag()

    init() throws {
        var masterFD: Int32 = -1
        var slaveFD: Int32 = -1
        var settings = termios()
        cfmakeraw(&settings)
        guard openpty(&masterFD, &slaveFD, nil, &settings, nil) == 0 else { throw Errno(rawValue: errno) }
        master = FileDescriptor(rawValue: masterFD)
        slave = FileDescriptor(rawValue: slaveFD)
        var name = [CChar](repeating: 0, count: 256)
        guard ttyname_r(slaveFD, &name, name.count) == 0 else { throw Errno(rawValue: errno) }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let flags = fcntl(masterFD, F_GETFL)
        guard flags >= 0, fcntl(masterFD, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Errno(rawValue: errno) }
    }

    deinit {
        close()
    }

    /// Closes both ends: the receiver is unplugged. The source's descriptor of the slave
    /// hangs up (POLLHUP, then read() == 0) and /dev/pts/N goes away.
    func close() {
        guard !closed.isSet else { return }
        closed.set()
        try? master.close()
        try? slave.close()
    }

    /// Writes all of `bytes` to the master, on a thread of its own (the source may not read
    /// until later, and a full pty must not hold a thread of the concurrency pool).
    func write(_ bytes: [UInt8]) async throws {
        let master = self.master
        let stream = ReaderThread.stream(of: Bool.self, name: "pty writer") { control in
            try PseudoTerminal.writeAll(bytes, to: master, isStopped: { control.isStopped })
        }
        for try await _ in stream {}
    }

    func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Writes `chunk` again and again until the returned flag is set: a receiver that keeps talking.
    func keepWriting(_ chunk: [UInt8]) -> StopFlag {
        let stop = StopFlag()
        let master = self.master
        let stream = ReaderThread.stream(of: Bool.self, name: "pty writer") { _ in
            while !stop.isSet {
                try? PseudoTerminal.writeAll(chunk, to: master, isStopped: { stop.isSet })
            }
        }
        // The stream is dropped: the thread runs on until `stop` is set.
        _ = stream
        return stop
    }

    private static func writeAll(_ bytes: [UInt8], to fd: FileDescriptor, isStopped: () -> Bool) throws {
        var offset = 0
        while offset < bytes.count && !isStopped() {
            do {
                offset += try bytes[offset...].withUnsafeBytes { try fd.write($0, retryOnInterrupt: true) }
            } catch Errno.wouldBlock {
                var entry = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 50)
            }
        }
    }

    /// How many of this process's descriptors are open on the slave (the test's own included).
    var slaveOpenCount: Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == slavePath }.count
    }
}

/// A temporary directory that removes itself, for the symbolic links that stand in for
/// udev's /dev/gps0.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("serial-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Makes `name` in the directory a symbolic link to `target`, and returns its path.
    @discardableResult
    func link(_ name: String, to target: String) throws -> String {
        let link = path + "/" + name
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        return link
    }
}

/// The fixes `NMEAParser` makes of `bytes` and its statistics, without finishing: what a live
/// source has delivered once it has read them (the last epoch waits for the next one).
func liveParse(_ bytes: [UInt8], allowMissingChecksum: Bool = false) -> (fixes: [Fix], statistics: NMEAStatistics) {
    var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: true)
    var fixes: [Fix] = []
    bytes.withUnsafeBytes { parser.parse($0) { fixes.append($0) } }
    return (fixes, parser.statistics)
}

/// The first `count` bytes of the hike log, cut at a line end.
func hikePrefix(_ count: Int) throws -> [UInt8] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.hike)))
    let prefix = bytes.prefix(count)
    guard let end = prefix.lastIndex(of: 0x0A) else { return Array(prefix) }
    return Array(bytes[...end])
}

/// What a UART reading at `receiveRate` makes of `bytes` sent at `sendRate`, 8N1, back to
/// back: the bytes a source reads from a receiver at the wrong baud rate.
///
/// The receiver waits for a falling edge (a start bit), samples the eight data bits and the
/// stop bit at their middles at its own rate, and delivers the byte; a byte whose stop bit is
/// low (a framing error) reads as NUL, as a tty in raw mode delivers it. At the same rate the
/// bytes come through unchanged.
func uartReceive(_ bytes: [UInt8], sentAt sendRate: Int, readAt receiveRate: Int) -> [UInt8] {
    let sentBit = 1.0 / Double(sendRate)
    let readBit = 1.0 / Double(receiveRate)
    let end = Double(bytes.count * 10) * sentBit
    /// The line at time `t`: true is mark (idle, 1).
    func level(_ t: Double) -> Bool {
        let bit = Int(t / sentBit)
        let index = bit / 10
        guard t >= 0, index < bytes.count else { return true }
        switch bit % 10 {
        case 0: return false
        case 9: return true
        case let k: return (bytes[index] >> (k - 1)) & 1 == 1
        }
    }
    var out: [UInt8] = []
    var t = 0.0
    while t < end {
        if level(t) {
            // Idle: on to the next bit boundary of the sender, where the line may fall.
            t = (floor(t / sentBit) + 1) * sentBit + sentBit * 1e-6
            continue
        }
        if level(t + readBit / 2) {
            t += readBit / 16  // a glitch shorter than half a bit: not a start bit
            continue
        }
        var value: UInt8 = 0
        for i in 0..<8 where level(t + (Double(i) + 1.5) * readBit) {
            value |= 1 << i
        }
        out.append(level(t + 9.5 * readBit) ? value : 0)
        t += 9.5 * readBit
    }
    return out
}

/// Deterministic pseudo-random bytes (SplitMix64), so that a failure can be reproduced.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}

/// u-blox UBX NAV-PVT-sized frames: what a u-blox receiver set to binary output sends.
func ubxFrames(_ count: Int) -> [UInt8] {
    let payload = pseudoRandomBytes(92, seed: 7)
    let frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00] + payload + [0x12, 0x34]
    return Array((0..<count).map { _ in frame }.joined())
}
