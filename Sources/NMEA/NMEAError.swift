/// Why a sentence was not accepted.
///
/// Framing errors (`badChecksum`, `missingChecksum`, `overlong`, `garbled`, `badAddress`)
/// come from ``NMEAFramer``; field errors (`badField`, `missingField`) from the sentence
/// decoders. Each names the sentence and says what was expected and what was found.
public enum NMEAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `*hh` checksum does not match the XOR of the sentence's bytes.
    case badChecksum(sentence: String, expected: UInt8, found: UInt8)
    /// The sentence has no `*hh` checksum (or a truncated one), and checksums are required.
    case missingChecksum(sentence: String)
    /// The sentence ran past ``NMEAFramer/maximumSentenceLength`` bytes without ending.
    case overlong(prefix: String, length: Int)
    /// A control or non-ASCII byte, or a new `$`, interrupted the sentence.
    case garbled(prefix: String)
    /// The address is neither a talker and a three-letter type nor a proprietary `P...` one.
    case badAddress(sentence: String)
    /// Field `field` (numbered from 1 after the address) does not hold what it should.
    case badField(sentence: String, field: Int, expected: String, found: String)
    /// A field that must be present is empty or missing.
    case missingField(sentence: String, field: Int, expected: String)

    /// A short, stable name for counting rejections by reason (`bad-checksum`, ...).
    public var reason: RejectionReason {
        switch self {
        case .badChecksum: .badChecksum
        case .missingChecksum: .missingChecksum
        case .overlong: .overlong
        case .garbled: .garbled
        case .badAddress: .badAddress
        case .badField, .missingField: .badField
        }
    }

    public var description: String {
        switch self {
        case .badChecksum(let s, let expected, let found):
            "\(s): bad checksum: computed \(hex(expected)), sentence says \(hex(found)); the line was corrupted in transit (check the baud rate and cable)"
        case .missingChecksum(let s):
            "\(s): no checksum (*hh): the sentence is cut off, or the receiver sends none (use --allow-missing-checksum for such receivers)"
        case .overlong(let p, let n):
            "sentence starting '\(p)' is longer than \(n) bytes without a line end: not NMEA, or the wrong baud rate"
        case .garbled(let p):
            "sentence starting '\(p)' was interrupted by binary data or a new sentence: a cut-off line or line noise"
        case .badAddress(let s):
            "\(s): not an NMEA address (expected a two-letter talker and a three-letter sentence type, like GPGGA)"
        case .badField(let s, let field, let expected, let found):
            "\(s) field \(field): expected \(expected), found '\(found)'"
        case .missingField(let s, let field, let expected):
            "\(s) field \(field): expected \(expected), found nothing"
        }
    }
}

/// The reasons a sentence can be rejected, for counting.
public enum RejectionReason: String, Sendable, Hashable, CaseIterable, Comparable {
    case badChecksum = "bad-checksum"
    case missingChecksum = "missing-checksum"
    case overlong = "overlong"
    case garbled = "garbled"
    case badAddress = "bad-address"
    case badField = "bad-field"

    public static func < (a: RejectionReason, b: RejectionReason) -> Bool { a.rawValue < b.rawValue }
}

@inline(never)
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
}

/// The printable ASCII text of `bytes`, with anything else shown as `\xHH`, at most `limit` bytes.
@inline(never)
func printable(_ bytes: UnsafeRawBufferPointer, limit: Int = 90) -> String {
    var out = ""
    for b in bytes.prefix(limit) {
        if b >= 0x20 && b < 0x7F {
            out.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            out += "\\x" + hex(b)
        }
    }
    if bytes.count > limit { out += "..." }
    return out
}
