import Foundation
import SystemPackage
import Testing
import TrackdTestSupport
@testable import GPSSources

#if canImport(Glibc)
import Glibc
#endif

@Suite("Serial port", .timeLimit(.minutes(1)))
struct SerialPortTests {
    /// The line settings of `pty`'s slave, read through the test's own descriptor.
    func settings(_ pty: PseudoTerminal) throws -> termios {
        var settings = termios()
        guard tcgetattr(pty.slave.rawValue, &settings) == 0 else { throw Errno(rawValue: errno) }
        return settings
    }

    @Test("opening puts the line in raw mode at the rate asked for, with the receiver on and modem lines ignored")
    func rawMode() throws {
        let pty = try PseudoTerminal()
        // Cooked first, as a tty is when nothing has set it up: echo, canonical lines, CR to NL.
        var cooked = try settings(pty)
        cooked.c_lflag |= tcflag_t(ECHO | ICANON | ISIG)
        cooked.c_iflag |= tcflag_t(ICRNL | IXON)
        cooked.c_oflag |= tcflag_t(OPOST)
        #expect(tcsetattr(pty.slave.rawValue, TCSANOW, &cooked) == 0)

        let port = try SerialPort.open(pty.slavePath, baud: .b4800)
        defer { port.close() }
        let raw = try settings(pty)
        #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON | ISTRIP | INLCR | IGNCR) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(raw.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(raw.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        var copy = raw
        #expect(cfgetispeed(&copy) == speed_t(B4800))
        #expect(port.baud == .b4800)
    }

    @Test("setting the rate changes both speeds", arguments: BaudRate.allCases)
    func setBaud(_ rate: BaudRate) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, baud: rate == .b9600 ? .b4800 : .b9600)
        defer { port.close() }
        try port.setBaud(rate)
        var line = try settings(pty)
        #expect(cfgetispeed(&line) == SerialPort.speed(rate))
        #expect(cfgetospeed(&line) == SerialPort.speed(rate))
        #expect(port.baud == rate)
    }

    @Test("every rate maps to its own termios speed")
    func speeds() {
        let speeds = BaudRate.allCases.map(SerialPort.speed)
        #expect(Set(speeds).count == BaudRate.allCases.count)
        #expect(SerialPort.speed(.b230400) == speed_t(B230400))
        #expect(SerialPort.speed(.b4800) == speed_t(B4800))
    }

    @Test("bytes written to the receiver's end are read back as they were, NULs and CRs included")
    func readsBytes() async throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, baud: .b9600)
        defer { port.close() }
        let sent: [UInt8] = Array("$GPRMC\r\n".utf8) + [0, 0xFF, 0x0D, 0x7F, 0x03]
        try await pty.write(sent)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while received.count < sent.count {
            let result = buffer.withUnsafeMutableBytes { port.read(into: $0, timeout: .milliseconds(250)) }
            if case .bytes(let count) = result { received += buffer[0..<count] }
            if case .gone(let reason) = result { Issue.record("gone: \(reason)"); break }
        }
        #expect(received == sent)
    }

    @Test("a receiver's end that closes reads as gone")
    func hangUp() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, baud: .b9600)
        defer { port.close() }
        pty.close()
        var buffer = [UInt8](repeating: 0, count: 64)
        let result = buffer.withUnsafeMutableBytes { port.read(into: $0, timeout: .seconds(5)) }
        guard case .gone = result else {
            Issue.record("expected gone, got \(result)")
            return
        }
    }

    @Test("a missing device is reported as missing, by its path")
    func missing() {
        let path = "/dev/serial/by-id/no-such-receiver-\(UUID().uuidString)"
        #expect(throws: SourceError.noDevice(path: path)) { try SerialPort.open(path, baud: .b9600) }
    }

    @Test("a regular file is not a terminal")
    func notATerminal() throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1]))
        #expect(throws: SourceError.notATerminal(path: file.path)) { try SerialPort.open(file.path, baud: .b9600) }
    }

    @Test(
        "open errors a user can act on are named: missing, busy, not permitted",
        arguments: [
            (Errno.noSuchFileOrDirectory, SourceError.noDevice(path: "/dev/ttyUSB0")),
            (.noSuchAddressOrDevice, .noDevice(path: "/dev/ttyUSB0")),
            (.operationNotSupportedByDevice, .noDevice(path: "/dev/ttyUSB0")),
            (.resourceBusy, .deviceBusy(path: "/dev/ttyUSB0")),
            (.permissionDenied, .permissionDenied(path: "/dev/ttyUSB0")),
            (.tooManyOpenFiles, .cannotConfigure(path: "/dev/ttyUSB0", reason: describeSystemError(Errno.tooManyOpenFiles))),
        ])
    func openErrors(_ errno: Errno, _ expected: SourceError) {
        #expect(SerialPort.openError(errno, path: "/dev/ttyUSB0") == expected)
    }

    @Test("poll timeouts are whole milliseconds, rounded up, between 1 ms and a minute")
    func pollTimeouts() {
        #expect(pollMilliseconds(.microseconds(1_500)) == 2)
        #expect(pollMilliseconds(.milliseconds(250)) == 250)
        #expect(pollMilliseconds(.microseconds(10)) == 1)
        #expect(pollMilliseconds(.seconds(-1)) == 1)
        #expect(pollMilliseconds(.seconds(3600)) == 60_000)
    }
}
