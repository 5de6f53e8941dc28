import GPSCore

/// A decoded sentence.
public enum NMEASentence: Sendable, Hashable {
    case gga(GGA)
    case rmc(RMC)
    case gns(GNS)
    case gll(GLL)
    case gsa(GSA)
    case gsv(GSV)
    case vtg(VTG)
    case gst(GST)
    case zda(ZDA)
    case txt(TXT)
    /// A well-formed sentence trackd does not decode: proprietary (`$PGRME`), encapsulated
    /// (`!AIVDM`), or a standard type with nothing for a fix (`$GPRMB`, `$SDDBT`).
    case skipped

    /// Decodes a framed sentence.
    ///
    /// - Parameter satellites: decode the per-satellite details of GSV and GSA; without them
    ///   GSV yields its header only and GSA its count, which is all a track needs.
    /// - Returns: the sentence, with its talker and a compact address for epoch bookkeeping.
    /// - Throws: ``NMEAError/badField(sentence:field:expected:found:)`` or
    ///   ``NMEAError/missingField(sentence:field:expected:)``, naming the field.
    public static func decode(_ raw: RawSentence, satellites: Bool = true) throws(NMEAError) -> DecodedSentence {
        var boxer = Boxer()
        try dispatch(raw, satellites: satellites, to: &boxer)
        return boxer.result ?? DecodedSentence(header: SentenceHeader(talker: .other(0, 0), address: 0), sentence: .skipped)
    }

    /// Decodes `raw` and hands the typed sentence to `visitor`, without boxing it in the enum.
    @inline(__always)
    static func dispatch<V: SentenceVisitor>(_ raw: RawSentence, satellites: Bool, to visitor: inout V) throws(NMEAError) {
        let body = raw.body
        guard !raw.isEncapsulated, body.count >= 5, body[0] != UInt8(ascii: "P") else {
            visitor.skipped()
            return
        }
        let talker = Talker(body[0], body[1])
        let t0 = body[2], t1 = body[3], t2 = body[4]
        let header = SentenceHeader(
            talker: talker,
            address: UInt64(body[0]) << 32 | UInt64(body[1]) << 24 | UInt64(t0) << 16 | UInt64(t1) << 8 | UInt64(t2))
        var r = FieldReader(body)
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): visitor.visit(try GGA(&r), header)  // GGA
        case (0x52, 0x4D, 0x43): visitor.visit(try RMC(&r), header)  // RMC
        case (0x47, 0x53, 0x41): visitor.visit(try GSA(&r, satellites: satellites), header)  // GSA
        case (0x47, 0x53, 0x56): visitor.visit(try GSV(&r, talker: talker, satellites: satellites), header)  // GSV
        case (0x56, 0x54, 0x47):  // VTG
            visitor.visit(visitor.wantsCourseAndSpeed ? try VTG(&r) : VTG(), header)
        case (0x47, 0x53, 0x54): visitor.visit(try GST(&r), header)  // GST
        case (0x47, 0x4E, 0x53): visitor.visit(try GNS(&r), header)  // GNS
        case (0x47, 0x4C, 0x4C): visitor.visit(try GLL(&r), header)  // GLL
        case (0x5A, 0x44, 0x41): visitor.visit(try ZDA(&r), header)  // ZDA
        case (0x54, 0x58, 0x54): visitor.visit(try TXT(&r), header)  // TXT
        default: visitor.skipped()
        }
    }
}

/// Receives each decoded sentence with its concrete type.
protocol SentenceVisitor {
    mutating func visit<S: EpochSentence>(_ sentence: S, _ header: SentenceHeader)
    mutating func skipped()
    /// False when a VTG could add nothing (the epoch already has speed and course): it is
    /// then handed over empty, without decoding its fields.
    var wantsCourseAndSpeed: Bool { get }
}

extension SentenceVisitor {
    var wantsCourseAndSpeed: Bool { true }
}

private struct Boxer: SentenceVisitor {
    var result: DecodedSentence?
    mutating func visit<S: EpochSentence>(_ sentence: S, _ header: SentenceHeader) {
        result = DecodedSentence(header: header, sentence: sentence.boxed)
    }
    mutating func skipped() {}
}

/// The talker and address of a sentence.
public struct SentenceHeader: Sendable, Hashable {
    public var talker: Talker
    /// The address packed into an integer: equal for equal addresses, for remembering which
    /// sentence ends a receiver's cycle.
    public var address: UInt64

    public init(talker: Talker, address: UInt64) {
        self.talker = talker
        self.address = address
    }
}

/// A decoded sentence with the talker that sent it.
public struct DecodedSentence: Sendable, Hashable {
    public var header: SentenceHeader
    public var sentence: NMEASentence

    public init(header: SentenceHeader, sentence: NMEASentence) {
        self.header = header
        self.sentence = sentence
    }

    public var talker: Talker { header.talker }
    public var address: UInt64 { header.address }
}
