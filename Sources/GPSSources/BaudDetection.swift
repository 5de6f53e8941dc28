import NMEA

/// The line rates a serial GPS receiver uses, in bits per second.
///
/// 4800 is NMEA 0183's own rate (old Garmin and SiRF receivers); 9600 is what most current
/// receivers (u-blox, MediaTek, Quectel) start at; the higher rates are set by people who
/// raised the fix rate or turned on more sentences.
public enum BaudRate: Int, CaseIterable, Sendable, Hashable, Comparable {
    case b4800 = 4800
    case b9600 = 9600
    case b19200 = 19200
    case b38400 = 38400
    case b57600 = 57600
    case b115200 = 115_200
    case b230400 = 230_400

    /// The rates in the order detection tries them: `remembered` first (the rate that worked
    /// last time), then 9600 and 4800, the commonest, then the rest from slow to fast.
    public static func detectionOrder(remembered: BaudRate? = nil) -> [BaudRate] {
        let usual: [BaudRate] = [.b9600, .b4800, .b19200, .b38400, .b57600, .b115200, .b230400]
        guard let remembered else { return usual }
        return [remembered] + usual.filter { $0 != remembered }
    }

    public static func < (a: BaudRate, b: BaudRate) -> Bool { a.rawValue < b.rawValue }
}

/// Whether a serial line is being read at the receiver's rate, decided from the bytes read at
/// one rate: the baud detection policy, without I/O or a clock.
///
/// At the right rate a receiver's bytes are NMEA sentences whose checksums hold; at a wrong
/// rate the UART cuts the bit stream at the wrong places and delivers bytes with the high bit
/// set, NULs for framing errors and the odd `$`, among which a sentence with a correct
/// checksum, a valid address and a line end is all but impossible, let alone two.
///
/// Feed it every chunk read at the rate with the time since the rate was set:
/// - ``Verdict/accept`` after ``sentencesToAccept`` sentences the framer accepts;
/// - ``Verdict/reject`` when ``rejectAfterBytes`` bytes have come since the last accepted
///   sentence (or since the start), or when `timeout` has passed without enough sentences
///   (a silent line, or a receiver slower than one sentence per `timeout`);
/// - ``Verdict/needMore`` otherwise.
///
/// ```swift
/// var detection = BaudDetection(timeout: .seconds(4))
/// switch detection.observe(chunk, elapsed: clock.now - start) { … }
/// ```
public struct BaudDetection {
    /// Sentences with correct checksums that prove the rate: two, so that one sentence that
    /// garbage happened to form (a `$`, three upper-case letters, printable bytes, a `*`, the
    /// right two hex digits and a line end: of the order of one chance in 10^11 per `$` in
    /// random bytes) does not decide.
    public static let sentencesToAccept = 2
    /// Bytes without an accepted sentence after which a rate is given up: 1024, four of the
    /// longest sentences trackd accepts (``NMEAFramer/maximumSentenceLength``), so that a
    /// receiver mixing binary reports with NMEA still shows a sentence in time.
    public static let rejectAfterBytes = 1024
    /// How many of the first bytes ``sample`` keeps, for the error that says what was seen.
    public static let sampleBytes = 16

    /// What to do with the current rate.
    public enum Verdict: Sendable, Hashable {
        /// Read more at this rate.
        case needMore
        /// The receiver talks at this rate.
        case accept
        /// Not at this rate: try the next one.
        case reject
    }

    /// How long a rate gets.
    public let timeout: Duration
    /// Bytes read at this rate.
    public private(set) var bytesSeen = 0
    /// Sentences accepted at this rate.
    public private(set) var sentences = 0
    /// Lines that were sentences but for a missing `*hh` checksum (at the right rate, a
    /// receiver that sends none: see ``NMEAFramer``).
    public private(set) var checksumless = 0
    /// The first bytes read at this rate, at most ``sampleBytes``.
    public private(set) var sample: [UInt8] = []
    private var bytesSinceSentence = 0
    private var framer: NMEAFramer
    private var decided: Verdict = .needMore

    /// - Parameters:
    ///   - timeout: how long to wait at this rate for enough sentences.
    ///   - allowMissingChecksum: count sentences without `*hh` as proof too (for receivers that
    ///     send none).
    public init(timeout: Duration, allowMissingChecksum: Bool = false) {
        self.timeout = timeout
        framer = NMEAFramer(allowMissingChecksum: allowMissingChecksum)
    }

    /// Takes the next chunk read at this rate, `elapsed` after the rate was set, and says
    /// what to do. Once it has accepted or rejected, it keeps saying so.
    public mutating func observe(_ chunk: UnsafeRawBufferPointer, elapsed: Duration) -> Verdict {
        guard decided == .needMore else { return decided }
        if sample.count < BaudDetection.sampleBytes {
            sample += chunk.prefix(BaudDetection.sampleBytes - sample.count)
        }
        bytesSeen += chunk.count
        // Sentences are counted one by one, so that a chunk's bytes after the deciding
        // sentence do not count against the rate.
        var verdict = Verdict.needMore
        var sentences = self.sentences
        var checksumless = self.checksumless
        var sawSentence = false
        framer.append(chunk) { event in
            switch event {
            case .sentence:
                sentences += 1
                sawSentence = true
                if sentences >= BaudDetection.sentencesToAccept { verdict = .accept }
            case .rejected(.missingChecksum):
                checksumless += 1
            case .rejected:
                break
            }
        }
        self.sentences = sentences
        self.checksumless = checksumless
        // The bytes of a chunk after its last sentence are not counted: only a little more
        // lenient than counting them one by one.
        bytesSinceSentence = sawSentence ? 0 : bytesSinceSentence + chunk.count
        if verdict == .needMore && (bytesSinceSentence >= BaudDetection.rejectAfterBytes || elapsed >= timeout) {
            verdict = .reject
        }
        decided = verdict
        return verdict
    }

    /// What to do when `elapsed` has passed with nothing read since the last chunk.
    public mutating func observeSilence(elapsed: Duration) -> Verdict {
        observe(UnsafeRawBufferPointer(start: nil, count: 0), elapsed: elapsed)
    }
}

/// What baud detection saw over all the rates it tried, for the error when none worked.
struct BaudSearchReport: Sendable, Hashable {
    /// The rates tried, in order.
    private(set) var rates: [Int] = []
    /// Bytes read at all rates together.
    private(set) var bytesSeen = 0
    /// The first bytes of the first rate that read any.
    private(set) var sample: [UInt8] = []
    /// Sentence-like lines without checksums, at all rates together.
    private(set) var checksumless = 0

    /// Adds what one rejected rate saw.
    mutating func add(_ rate: BaudRate, _ detection: BaudDetection) {
        rates.append(rate.rawValue)
        bytesSeen += detection.bytesSeen
        checksumless += detection.checksumless
        if sample.isEmpty { sample = detection.sample }
    }

    /// The error to throw for `device`.
    func error(device: String) -> SourceError {
        .noNMEAAtAnyBaud(device: device, rates: rates, bytesSeen: bytesSeen, sample: sample, checksumless: checksumless)
    }
}
