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
    /// - Returns: the sentence, with its talker and a compact address for epoch bookkeeping.
    /// - Throws: ``NMEAError/badField(sentence:field:expected:found:)`` or
    ///   ``NMEAError/missingField(sentence:field:expected:)``, naming the field.
    public static func decode(_ raw: RawSentence) throws(NMEAError) -> DecodedSentence {
        let body = raw.body
        guard !raw.isEncapsulated, body.count >= 5, body[0] != UInt8(ascii: "P") else {
            return DecodedSentence(talker: .other(0, 0), address: 0, sentence: .skipped)
        }
        let talker = Talker(body[0], body[1])
        let t0 = body[2], t1 = body[3], t2 = body[4]
        let address = UInt64(body[0]) << 32 | UInt64(body[1]) << 24 | UInt64(t0) << 16 | UInt64(t1) << 8 | UInt64(t2)
        var r = FieldReader(body)
        let sentence: NMEASentence
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): sentence = .gga(try GGA(&r))  // GGA
        case (0x52, 0x4D, 0x43): sentence = .rmc(try RMC(&r))  // RMC
        case (0x47, 0x53, 0x41): sentence = .gsa(try GSA(&r))  // GSA
        case (0x47, 0x53, 0x56): sentence = .gsv(try GSV(&r, talker: talker))  // GSV
        case (0x56, 0x54, 0x47): sentence = .vtg(try VTG(&r))  // VTG
        case (0x47, 0x53, 0x54): sentence = .gst(try GST(&r))  // GST
        case (0x47, 0x4E, 0x53): sentence = .gns(try GNS(&r))  // GNS
        case (0x47, 0x4C, 0x4C): sentence = .gll(try GLL(&r))  // GLL
        case (0x5A, 0x44, 0x41): sentence = .zda(try ZDA(&r))  // ZDA
        case (0x54, 0x58, 0x54): sentence = .txt(try TXT(&r))  // TXT
        default: sentence = .skipped
        }
        return DecodedSentence(talker: talker, address: address, sentence: sentence)
    }
}

/// A decoded sentence with the talker that sent it.
public struct DecodedSentence: Sendable, Hashable {
    public var talker: Talker
    /// The address packed into an integer: equal for equal addresses, for remembering which
    /// sentence ends a receiver's cycle.
    public var address: UInt64
    public var sentence: NMEASentence
}
