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

    /// - Parameter allowMissingChecksum: accept sentences without `*hh` (see ``NMEAFramer``).
    public init(allowMissingChecksum: Bool = false) {
        framer = NMEAFramer(allowMissingChecksum: allowMissingChecksum)
    }

    /// Parses a chunk of bytes of any size; `onFix` gets every fix completed in it.
    public mutating func parse(
        _ chunk: UnsafeRawBufferPointer,
        onReject: (NMEAError) -> Void = { _ in },
        onFix: (Fix) -> Void
    ) {
        var framer = self.framer
        framer.append(chunk) { event in
            self.handle(event, onReject: onReject, onFix: onFix)
        }
        self.framer = framer
    }

    /// Ends the input: a cut-off last sentence is rejected and the last epoch emitted.
    public mutating func finish(onReject: (NMEAError) -> Void = { _ in }, onFix: (Fix) -> Void) {
        var framer = self.framer
        framer.finish { event in
            self.handle(event, onReject: onReject, onFix: onFix)
        }
        self.framer = framer
        assembler.finish { fix in
            statistics.fixes += 1
            onFix(fix)
        }
    }

    @inline(__always)
    private mutating func handle(_ event: FramerEvent, onReject: (NMEAError) -> Void, onFix: (Fix) -> Void) {
        switch event {
        case .sentence(let raw):
            statistics.sentences += 1
            do {
                let decoded = try NMEASentence.decode(raw)
                if case .skipped = decoded.sentence {
                    statistics.skipped += 1
                    return
                }
                statistics.decoded += 1
                assembler.add(decoded) { fix in
                    statistics.fixes += 1
                    onFix(fix)
                }
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
