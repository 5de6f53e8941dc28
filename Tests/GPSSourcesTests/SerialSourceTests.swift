import Foundation
import GPSCore
import GPSSources
import NMEA
import Testing
import TrackdTestSupport

// The source reads a real pseudo-terminal (see `PseudoTerminal`). A pty ignores baud rates,
// so detection on it accepts the first rate tried; which rate a real receiver needs is
// decided from bytes alone and tested in SerialBaudDetectionTests.

@Suite("Serial source", .timeLimit(.minutes(1)))
struct SerialSourceTests {
    /// The next event that is not a fix, skipping and returning the fixes before it.
    func fixes(_ count: Int, from consumer: inout Consumer) async throws -> [Fix] {
        var fixes: [Fix] = []
        while fixes.count < count {
            let event = try await consumer.events.next()
            guard case .fix(let fix) = event else {
                Issue.record("expected a fix, got \(String(describing: event))")
                return fixes
            }
            fixes.append(fix)
        }
        return fixes
    }

    /// A GGA sentence with CRLF at `seconds` after 2024-09-14T08:00:00Z.
    static func gga(at seconds: Int) -> String {
        let body = String(format: "GPGGA,08%02d%02d.00,4710.0000,N,00800.0000,E,1,08,0.9,545.4,M,46.9,M,,", seconds / 60, seconds % 60)
        return "$\(body)*\(Log.checksum(body))\r\n"
    }

    @Test("fixes read from a pty are those the parser makes of the same bytes, and connected names the rate")
    func sameFixesAsParser() async throws {
        let pty = try PseudoTerminal()
        let bytes = try hikePrefix(60_000)
        let expected = liveParse(bytes)
        #expect(expected.fixes.count > 50)

        // More than a pty holds: the writer waits for the source to read.
        let writing = Task { try await pty.write(bytes) }
        let source = SerialSource(path: pty.slavePath)
        #expect(source.description == "serial \(pty.slavePath)")
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("serial \(pty.slavePath) at 9600 baud"))
        let fixes = try await fixes(expected.fixes.count, from: &consumer)
        #expect(fixes == expected.fixes)
        try await writing.value
        #expect(source.statistics.baud == 9600)
        #expect(source.statistics.nmea.fixes == expected.fixes.count)
    }

    @Test("garbage, NULs, cut-off and overlong lines between sentences are skipped and counted; the fixes come through")
    func survivesGarbage() async throws {
        let junk: [[UInt8]] = [
            [0, 0, 0, 0, 0, 0],
            [0xFF, 0xFE, 0x80, 0x9A, 0xB5, 0x62],
            Array("$GPGGA,080000.00,47".utf8),  // cut off by the next sentence's '$'
            Array("$GPRMC,0800\r\n".utf8),  // cut off at a line end: no checksum
            Array(("$GPTXT," + String(repeating: "A", count: 300) + "*00\r\n").utf8),  // overlong
            Array("$GPRMC,080000.00,A,4710.0000,N,00800.0000,E,1.9,0.0,140924,,,A*00\r\n".utf8),  // bad checksum
            Array("$GPR\0MC,080000.00\r\n".utf8),  // a NUL inside a sentence
        ]
        var bytes: [UInt8] = []
        for second in 0..<30 {
            bytes += junk[second % junk.count]
            bytes += Array(Log.rmc(at: second).utf8)
        }
        let expected = liveParse(bytes)
        #expect(expected.fixes.count == 30)
        #expect(expected.statistics.rejected[.garbled, default: 0] > 0)
        #expect(expected.statistics.rejected[.overlong, default: 0] > 0)

        let pty = try PseudoTerminal()
        // Written before the source opens the tty: the bytes wait there, at the first rate it tries.
        try await pty.write(bytes)
        let source = SerialSource(path: pty.slavePath)
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("serial \(pty.slavePath) at 9600 baud"))
        let fixes = try await fixes(expected.fixes.count, from: &consumer)
        #expect(fixes == expected.fixes)
        // The last fix comes out with the last sentence, after all the junk: every count is in.
        let statistics = source.statistics
        #expect(statistics.nmea == expected.statistics)
        // The last sentence's LF may not have been read yet.
        #expect(bytes.count - statistics.bytesRead <= 1)
        for reason in [RejectionReason.garbled, .overlong, .badChecksum, .missingChecksum] {
            #expect(statistics.nmea.rejected[reason, default: 0] >= 4, "\(reason)")
        }
    }

    @Test("unplugged, the source says lost once, drops the cut epoch, and resumes when the device's link is back")
    func unplugAndReplug() async throws {
        let directory = try TemporaryDirectory()
        let first = try PseudoTerminal()
        // The source is given a link, as udev gives /dev/gps0: a pty's node cannot be made again.
        let link = try directory.link("gps0", to: first.slavePath)
        // Each tty gets its sentences before the source can open it, so that detection finds
        // them at the first rate it tries, whenever it gets there.
        // Second 5's epoch is cut off after its GGA: the unplug must drop it.
        try await first.write(Log.rmc(at: [0, 1, 2, 3, 4]) + Self.gga(at: 5))
        let source = SerialSource(path: link, detectionTimeout: .milliseconds(500))
        var consumer = Consumer(source)
        defer { consumer.task.cancel() }

        #expect(try await consumer.events.next() == .connected("serial \(link) at 9600 baud"))
        for second in 0..<5 {
            #expect(try await consumer.nextFixSecond() == second)
        }
        // Unplug: udev removes the link, the tty hangs up.
        try FileManager.default.removeItem(atPath: link)
        first.close()
        let lost = try await consumer.events.next()
        guard case .lost(let why) = lost else {
            Issue.record("expected lost, got \(String(describing: lost))")
            return
        }
        #expect(why.contains(link))
        #expect(why.contains("unplugged"))

        // Plugged in again: a new tty, the same link.
        let second = try PseudoTerminal()
        try await second.write(Log.rmc(at: [10, 11, 12, 13, 14]))
        try directory.link("gps0", to: second.slavePath)
        #expect(try await consumer.events.next() == .resumed("serial \(link) at 9600 baud"))
        // Not 5: the epoch cut off by the unplug was dropped, not completed by second 10.
        for second in 10..<15 {
            #expect(try await consumer.nextFixSecond() == second)
        }
        #expect(source.statistics.reconnections == 1)
        #expect(source.statistics.nmea.fixes == 10)
    }

    @Test("a tty that sends only binary fails detection within its bound, naming the device and what it sent")
    func onlyGarbage() async throws {
        let pty = try PseudoTerminal()
        let writer = pty.keepWriting(ubxFrames(10))
        defer { writer.stop() }
        let source = SerialSource(path: pty.slavePath, detectionTimeout: .milliseconds(200))
        let (events, error) = await drain(source)
        #expect(events.isEmpty)
        let failure = try #require(error as? SourceError)
        guard case .noNMEAAtAnyBaud(let device, let rates, let bytesSeen, let sample, _) = failure else {
            Issue.record("expected noNMEAAtAnyBaud, got \(failure)")
            return
        }
        #expect(device == pty.slavePath)
        #expect(rates == BaudRate.detectionOrder().map(\.rawValue))
        #expect(bytesSeen >= BaudDetection.rejectAfterBytes)
        #expect(Array(sample.prefix(2)) == [0xB5, 0x62])
        #expect(failure.description.hasPrefix("\(pty.slavePath) sent \(bytesSeen) bytes at every rate from 4800 to 230400 baud and no NMEA sentence; first bytes: 0xB5 0x62"))
        #expect(failure.description.contains("(u-blox UBX binary?)"))
        #expect(failure.description.contains("set it to NMEA output"))
    }

    @Test("a silent tty fails detection after every rate's timeout, saying it sent nothing")
    func silent() async throws {
        let pty = try PseudoTerminal()
        let source = SerialSource(path: pty.slavePath, detectionTimeout: .milliseconds(100))
        let (events, error) = await drain(source)
        #expect(events.isEmpty)
        let rates = BaudRate.detectionOrder().map(\.rawValue)
        let expected = SourceError.noNMEAAtAnyBaud(device: pty.slavePath, rates: rates, bytesSeen: 0, sample: [], checksumless: 0)
        #expect(error as? SourceError == expected)
        #expect(expected.description.hasPrefix("\(pty.slavePath) sent nothing at every rate from 4800 to 230400 baud"))
    }

    @Test("a given baud rate is the only one tried and is named when it brings nothing")
    func fixedBaudSilent() async throws {
        let pty = try PseudoTerminal()
        let source = SerialSource(path: pty.slavePath, baud: 4800, detectionTimeout: .milliseconds(100))
        let (_, error) = await drain(source)
        let expected = SourceError.noNMEAAtAnyBaud(device: pty.slavePath, rates: [4800], bytesSeen: 0, sample: [], checksumless: 0)
        #expect(error as? SourceError == expected)
        #expect(expected.description.contains("sent nothing at 4800 baud"))
        #expect(expected.description.contains("give no baud rate"))
    }

    @Test("a given baud rate is used as given")
    func fixedBaud() async throws {
        let pty = try PseudoTerminal()
        try await pty.write(Log.rmc(at: [0, 1, 2]))
        var consumer = Consumer(SerialSource(path: pty.slavePath, baud: 38400))
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("serial \(pty.slavePath) at 38400 baud"))
        #expect(try await consumer.nextFixSecond() == 0)
    }

    @Test("a baud rate no receiver uses is refused before the device is opened")
    func unsupportedBaud() async throws {
        let (events, error) = await drain(SerialSource(path: "/dev/ttyUSB0", baud: 1234))
        #expect(events.isEmpty)
        #expect(error as? SourceError == .unsupportedBaud(1234))
        #expect((error as? SourceError)?.description.contains("4800, 9600, 19200, 38400, 57600, 115200, 230400") == true)
    }

    @Test("a missing device fails at once with noDevice naming the path")
    func missingDevice() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ttyUSB7"
        let (events, error) = await drain(SerialSource(path: path))
        #expect(events.isEmpty)
        #expect(error as? SourceError == .noDevice(path: path))
        #expect((error as? SourceError)?.description.hasPrefix("\(path) does not exist") == true)
    }

    @Test("detectBaud finds the first rate that brings NMEA, the remembered one first")
    func detectBaud() async throws {
        let pty = try PseudoTerminal()
        let writer = pty.keepWriting(Array(Log.rmc(at: [0, 1, 2]).utf8))
        defer { writer.stop() }
        #expect(try await SerialSource.detectBaud(path: pty.slavePath) == .b9600)
        #expect(try await SerialSource.detectBaud(path: pty.slavePath, rememberedBaud: .b115200) == .b115200)
    }

    @Test("a consumer that stops makes the source close the device")
    func closesWhenStopped() async throws {
        let pty = try PseudoTerminal()
        try await pty.write(Log.rmc(at: [0, 1, 2]))
        var consumer = Consumer(SerialSource(path: pty.slavePath))
        #expect(try await consumer.events.next() == .connected("serial \(pty.slavePath) at 9600 baud"))
        #expect(pty.slaveOpenCount == 2)  // the test's and the source's
        consumer.task.cancel()
        await consumer.task.value
        // The reader thread notices within one poll timeout; the time limit bounds the wait.
        while pty.slaveOpenCount > 1 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(pty.slaveOpenCount == 1)
    }
}

@Suite("Serial source errors")
struct SerialErrorTests {
    @Test(
        "each serial error names the device and what to do",
        arguments: [
            (SourceError.deviceBusy(path: "/dev/ttyUSB0"), "/dev/ttyUSB0 is busy (EBUSY): another program (gpsd? ModemManager?) has it open; stop it, or use --source gpsd"),
            (.permissionDenied(path: "/dev/ttyACM0"), "permission denied opening /dev/ttyACM0 (EACCES): add yourself to the device's group (usually dialout: sudo usermod -aG dialout $USER, then log in again)"),
            (.noDevice(path: "/dev/gps0"), "/dev/gps0 does not exist: is the receiver plugged in? (its device shows up in /dev/serial/by-id when it is)"),
            (.notATerminal(path: "hike.nmea"), "hike.nmea is not a serial device (ENOTTY); give the receiver's tty (/dev/ttyACM0, /dev/ttyUSB0), or replay a log file with --source FILE"),
        ])
    func descriptions(_ error: SourceError, _ text: String) {
        #expect(error.description == text)
    }

    @Test("bytes at every rate and no sentence: the count, the first bytes, and a guess at the protocol")
    func noNMEA() {
        let ubx = SourceError.noNMEAAtAnyBaud(
            device: "/dev/ttyACM0", rates: BaudRate.detectionOrder().map(\.rawValue), bytesSeen: 812,
            sample: [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00, 0x10, 0x20, 0x30], checksumless: 0)
        #expect(ubx.description == "/dev/ttyACM0 sent 812 bytes at every rate from 4800 to 230400 baud and no NMEA sentence; first bytes: 0xB5 0x62 0x01 0x07 0x5C 0x00 0x10 0x20 … (u-blox UBX binary?); is it a GPS receiver? set it to NMEA output")
        let sirf = SourceError.noNMEAAtAnyBaud(device: "/dev/ttyUSB0", rates: [9600, 4800], bytesSeen: 40, sample: [0xA0, 0xA2, 0x00], checksumless: 0)
        #expect(sirf.description.contains("at 9600, 4800 baud"))
        #expect(sirf.description.contains("0xA0 0xA2 0x00 (SiRF binary?)"))
    }

    @Test("sentences without checksums at some rate: the message says how to allow them")
    func checksumless() {
        let error = SourceError.noNMEAAtAnyBaud(
            device: "/dev/ttyUSB0", rates: BaudRate.detectionOrder().map(\.rawValue), bytesSeen: 5000,
            sample: Array("$GPRMC,0".utf8), checksumless: 12)
        #expect(error.description.contains("12 lines were sentences without checksums"))
        #expect(error.description.contains("--allow-missing-checksum"))
    }
}
