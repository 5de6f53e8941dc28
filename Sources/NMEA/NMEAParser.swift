import GPSCore

/// Counts of what a parser has seen.
public struct NMEAStatistics: Sendable, Hashable {
    /// Sentences framed with a correct checksum (or none, where allowed) and a valid address.
    public var sentences = 0
    /// Of those, sentences decoded into fix data (the types trackd reads).
    public var decoded = 0
    /// Of those, well-formed sentences of types trackd does not read (`$PGRME`, `!AIVDM`, `$GPRMB`).
    public var skipped = 0
    /// Sentences rejected, by reason.
    public var rejected: [RejectionReason: Int] = [:]
    /// Fixes emitted, with or without a position.
    public var fixes = 0

    public init() {}

    /// All rejections, whatever the reason.
    public var rejectedTotal: Int { rejected.values.reduce(0, +) }
}

/// Bytes in, fixes out: an ``NMEAFramer``, the sentence decoders and an ``EpochAssembler``
/// in one value, with counts of what was accepted and rejected.
///
/// No I/O, clock or logger: the caller reads the bytes and decides what to do with
/// rejections (`onReject` gets each one with a message naming the sentence and field).
public struct NMEAParser {
    public private(set) var statistics = NMEAStatistics()
    private var framer: NMEAFramer
    private var assembler = EpochAssembler()
    private let satellites: Bool
    /// The caller's fix handler, set for the duration of `parse` and `finish`.
    private var emit: ((Fix) -> Void)?
    private var wasSkipped = false

    /// - Parameters:
    ///   - allowMissingChecksum: accept sentences without `*hh` (see ``NMEAFramer``).
    ///   - satellites: fill ``Fix/satellitesInView`` from GSV and GSA. A consumer that needs
    ///     only positions (a GPX track) turns it off and saves a good part of the work: GSV
    ///     and GSA are then read for their counts only, and a VTG only when the epoch still
    ///     lacks speed or course (so a malformed field there is not noticed).
    public init(allowMissingChecksum: Bool = false, satellites: Bool = true) {
        framer = NMEAFramer(allowMissingChecksum: allowMissingChecksum)
        self.satellites = satellites
    }

    /// Parses a chunk of bytes of any size; `onFix` gets every fix completed in it.
    public mutating func parse(
        _ chunk: UnsafeRawBufferPointer,
        onReject: (NMEAError) -> Void = { _ in },
        onFix: (Fix) -> Void
    ) {
        var framer = self.framer
        self.framer = NMEAFramer.detached
        withEmitter(onFix) { parser in
            framer.append(chunk) { event in
                parser.handle(event, onReject: onReject)
            }
        }
        self.framer = framer
    }

    /// Ends the input: a cut-off last sentence is rejected and the last epoch emitted.
    public mutating func finish(onReject: (NMEAError) -> Void = { _ in }, onFix: (Fix) -> Void) {
        var framer = self.framer
        self.framer = NMEAFramer.detached
        withEmitter(onFix) { parser in
            framer.finish { event in
                parser.handle(event, onReject: onReject)
            }
            if let emit = parser.emit {
                parser.assembler.finish(emit: emit)
            }
        }
        self.framer = framer
    }

    /// Runs `body` with `onFix`, counted, installed as the emitter.
    private mutating func withEmitter(_ onFix: (Fix) -> Void, _ body: (inout NMEAParser) -> Void) {
        var count = 0
        withoutActuallyEscaping(onFix) { onFix in
            emit = { fix in
                count += 1
                onFix(fix)
            }
            body(&self)
            emit = nil
        }
        statistics.fixes += count
    }

    @inline(__always)
    private mutating func handle(_ event: FramerEvent, onReject: (NMEAError) -> Void) {
        switch event {
        case .sentence(let raw):
            statistics.sentences += 1
            wasSkipped = false
            do {
                try NMEASentence.dispatch(raw, satellites: satellites, to: &self)
                if wasSkipped { statistics.skipped += 1 } else { statistics.decoded += 1 }
            } catch {
                statistics.sentences -= 1
                reject(error, onReject)
            }
        case .rejected(let error):
            reject(error, onReject)
        }
    }

    @inline(never)
    private mutating func reject(_ error: NMEAError, _ onReject: (NMEAError) -> Void) {
        statistics.rejected[error.reason, default: 0] += 1
        onReject(error)
    }
}

extension NMEAParser: SentenceVisitor {
    mutating func visit<S: EpochSentence>(_ sentence: S, _ header: SentenceHeader) {
        guard let emit else { return }
        assembler.add(sentence, header, emit: emit)
    }

    mutating func skipped() {
        wasSkipped = true
    }

    /// Without satellite detail (a track's needs), a VTG is read only when the epoch still
    /// lacks speed or course.
    var wantsCourseAndSpeed: Bool {
        satellites || !assembler.hasCourseAndSpeed
    }
}
