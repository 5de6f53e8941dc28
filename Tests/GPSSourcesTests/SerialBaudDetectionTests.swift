import GPSSources
import Testing

// A pseudo-terminal ignores baud rates: whatever rate the source sets, the bytes come through
// unchanged, so the source's tests on a pty find the first rate it tries. The detection's
// logic is tested here, on the bytes it would see: real NMEA at the right rate, and what a
// UART makes of the same NMEA at a wrong one (`uartReceive`), random bytes and binary output.

@Suite("Serial baud detection")
struct SerialBaudDetectionTests {
    static let timeout = Duration.seconds(4)

    /// Feeds `bytes` in `chunk`-byte reads at no elapsed time until a verdict other than
    /// needMore; the verdicts in order.
    func verdicts(_ bytes: [UInt8], chunk: Int = 64, allowMissingChecksum: Bool = false) -> (BaudDetection, [BaudDetection.Verdict]) {
        var detection = BaudDetection(timeout: Self.timeout, allowMissingChecksum: allowMissingChecksum)
        var verdicts: [BaudDetection.Verdict] = []
        var start = 0
        while start < bytes.count && verdicts.last ?? .needMore == .needMore {
            let piece = Array(bytes[start..<min(start + chunk, bytes.count)])
            verdicts.append(piece.withUnsafeBytes { detection.observe($0, elapsed: .zero) })
            start += chunk
        }
        return (detection, verdicts)
    }

    /// A stretch of the hike log from the middle of a sentence: what a port opened while the
    /// receiver talks reads first.
    static func midStream() throws -> [UInt8] {
        Array(try hikePrefix(12_000).dropFirst(3001))
    }

    @Test("real NMEA at the right rate is accepted within a few sentences, even starting mid-sentence")
    func rightRate() throws {
        let bytes = try Self.midStream()
        let (detection, verdicts) = verdicts(bytes)
        #expect(verdicts.last == .accept)
        #expect(detection.sentences >= BaudDetection.sentencesToAccept)
        #expect(detection.bytesSeen < 512)
        #expect(verdicts.dropLast().allSatisfy { $0 == .needMore })
    }

    @Test("the simulated UART passes bytes unchanged at the sender's rate", arguments: BaudRate.allCases)
    func uartAtTheRightRate(_ rate: BaudRate) throws {
        let bytes = try Self.midStream()
        #expect(uartReceive(bytes, sentAt: rate.rawValue, readAt: rate.rawValue) == bytes)
    }

    static let wrongRates: [(BaudRate, BaudRate)] = [BaudRate.b4800, .b9600, .b38400, .b115200].flatMap { sent in
        BaudRate.allCases.filter { $0 != sent }.map { (sent, $0) }
    }

    @Test("NMEA read at a wrong rate is rejected, never accepted", arguments: wrongRates)
    func wrongRate(_ sent: BaudRate, _ read: BaudRate) throws {
        let garbled = uartReceive(try Self.midStream(), sentAt: sent.rawValue, readAt: read.rawValue)
        #expect(!garbled.isEmpty)
        var (detection, verdicts) = verdicts(garbled)
        #expect(!verdicts.contains(.accept))
        // A slow wrong rate may read too few bytes to be given up on by count: the timeout ends it.
        let final = detection.observeSilence(elapsed: Self.timeout)
        #expect(final == .reject)
        #expect(detection.sentences < BaudDetection.sentencesToAccept)
    }

    @Test(
        "bytes that are not NMEA are rejected once 1024 of them have come",
        arguments: [
            ("random", pseudoRandomBytes(4096, seed: 1)),
            ("random with the high bit set", pseudoRandomBytes(4096, seed: 2).map { $0 | 0x80 }),
            ("NULs (framing errors)", [UInt8](repeating: 0, count: 4096)),
            ("u-blox UBX binary", ubxFrames(40)),
            ("text", Array(String(repeating: "The quick brown fox $jumps over the lazy dog.\r\n", count: 90).utf8)),
        ])
    func garbage(_ name: String, _ bytes: [UInt8]) {
        let (detection, verdicts) = verdicts(bytes)
        #expect(verdicts.last == .reject, "\(name)")
        #expect(!verdicts.contains(.accept))
        #expect(detection.bytesSeen >= BaudDetection.rejectAfterBytes)
        #expect(detection.bytesSeen < BaudDetection.rejectAfterBytes + 64)
        #expect(detection.sample == Array(bytes.prefix(BaudDetection.sampleBytes)))
    }

    @Test("a silent line is rejected at the timeout and not before")
    func silence() {
        var detection = BaudDetection(timeout: .milliseconds(200))
        #expect(detection.observeSilence(elapsed: .milliseconds(199)) == .needMore)
        #expect(detection.observeSilence(elapsed: .milliseconds(200)) == .reject)
        #expect(detection.bytesSeen == 0)
        #expect(detection.sample.isEmpty)
    }

    @Test("one sentence is not enough: garbage after it is counted from the sentence on")
    func oneSentenceThenGarbage() {
        var detection = BaudDetection(timeout: Self.timeout)
        let sentence = Array(Log.rmc(at: 0).utf8)
        let noise = pseudoRandomBytes(1000, seed: 3).map { $0 | 0x80 }
        #expect(sentence.withUnsafeBytes { detection.observe($0, elapsed: .zero) } == .needMore)
        #expect(detection.sentences == 1)
        #expect(noise.withUnsafeBytes { detection.observe($0, elapsed: .zero) } == .needMore)
        #expect(noise.prefix(24).withUnsafeBytes { detection.observe($0, elapsed: .zero) } == .reject)
    }

    @Test("a decision stands: later bytes do not change it")
    func decisionStands() {
        var detection = BaudDetection(timeout: Self.timeout)
        let sentences = Array(Log.rmc(at: [0, 1]).utf8)
        #expect(sentences.withUnsafeBytes { detection.observe($0, elapsed: .zero) } == .accept)
        #expect(detection.observeSilence(elapsed: .seconds(60)) == .accept)
    }

    @Test("sentences without checksums are counted but prove nothing unless allowed")
    func missingChecksums() {
        let text = Array(Log.rmc(at: [0, 1, 2, 3]).replacing(/\*[0-9A-F]{2}/, with: "").utf8)
        let (strict, strictVerdicts) = verdicts(text)
        #expect(!strictVerdicts.contains(.accept))
        #expect(strict.checksumless >= 3)
        let (_, allowedVerdicts) = verdicts(text, allowMissingChecksum: true)
        #expect(allowedVerdicts.contains(.accept))
    }

    @Test("the rates are tried 9600 and 4800 first, then upwards")
    func order() {
        #expect(BaudRate.detectionOrder().map(\.rawValue) == [9600, 4800, 19200, 38400, 57600, 115_200, 230_400])
        #expect(Set(BaudRate.detectionOrder()) == Set(BaudRate.allCases))
    }

    @Test("the remembered rate is tried first, and no rate twice", arguments: BaudRate.allCases)
    func rememberedFirst(_ remembered: BaudRate) {
        let order = BaudRate.detectionOrder(remembered: remembered)
        #expect(order.first == remembered)
        #expect(order.count == BaudRate.allCases.count)
        #expect(Set(order) == Set(BaudRate.allCases))
    }
}

@Suite("Serial watchdog")
struct SerialWatchdogTests {
    @Test("bytes without a sentence for 30 s stall the line once, with the bytes counted (after a warning at 10 s)")
    func garbageStalls() {
        var watchdog = SerialWatchdog(now: .zero)
        #expect(watchdog.observe(bytes: 100, sentences: 0, now: .seconds(10)) == .garbled(bytes: 100))
        #expect(watchdog.observe(bytes: 100, sentences: 0, now: .milliseconds(29_999)) == nil)
        #expect(watchdog.observe(bytes: 50, sentences: 0, now: .seconds(30)) == .stalled(bytes: 250))
        #expect(watchdog.observe(bytes: 50, sentences: 0, now: .seconds(90)) == nil)
        #expect(watchdog.isStalled)
    }

    @Test("bytes without a sentence for 10 s are worth one warning a spell; silence is not, and a sentence ends the spell")
    func garbageWarns() {
        var watchdog = SerialWatchdog(now: .zero)
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(12)) == nil)
        #expect(watchdog.observe(bytes: 40, sentences: 0, now: .seconds(13)) == .garbled(bytes: 40))
        #expect(watchdog.observe(bytes: 40, sentences: 0, now: .seconds(14)) == nil)
        #expect(watchdog.observe(bytes: 80, sentences: 1, now: .seconds(15)) == nil)
        #expect(watchdog.observe(bytes: 40, sentences: 0, now: .seconds(24)) == nil)
        #expect(watchdog.observe(bytes: 40, sentences: 0, now: .seconds(25)) == .garbled(bytes: 80))
        #expect(!watchdog.isStalled)
    }

    @Test("silence for 30 s stalls the line with no bytes")
    func silenceStalls() {
        var watchdog = SerialWatchdog(now: .seconds(5))
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(34)) == nil)
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(35)) == .stalled(bytes: 0))
    }

    @Test("a sentence recovers a stalled line, once, and restarts the 30 s")
    func recovery() {
        var watchdog = SerialWatchdog(now: .zero)
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(31)) == .stalled(bytes: 0))
        #expect(watchdog.observe(bytes: 80, sentences: 1, now: .seconds(40)) == .recovered)
        #expect(watchdog.observe(bytes: 80, sentences: 1, now: .seconds(41)) == nil)
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(70)) == nil)
        #expect(watchdog.observe(bytes: 0, sentences: 0, now: .seconds(71)) == .stalled(bytes: 0))
    }

    @Test("sentences keep the line from stalling")
    func sentencesKeepItAlive() {
        var watchdog = SerialWatchdog(now: .zero)
        for second in 1...120 {
            #expect(watchdog.observe(bytes: 500, sentences: 6, now: .seconds(second)) == nil)
        }
        #expect(!watchdog.isStalled)
    }
}
