import GPSCore
import NMEA
import Testing

/// `$` + `body` + `*hh` with the checksum computed, for sentences no corpus log has
/// (a `GQ` talker, a field broken on purpose). Real receivers' lines are written out as sent.
func sentence(_ body: String, start: Character = "$") -> String {
    "\(start)\(body)*\(hexChecksum(body))"
}

/// The two upper-case hex digits of the XOR of `body`'s bytes.
func hexChecksum(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(sum >> 4)], digits[Int(sum & 0xF)]])
}

/// The framer's report, as a value that outlives its callback.
enum Framed: Hashable, CustomStringConvertible {
    /// A sentence as ``RawSentence/text`` shows it (`$GPGGA,...*7D`, hex in upper case).
    case sentence(String)
    case rejected(NMEAError)

    var description: String {
        switch self {
        case .sentence(let s): "sentence \(s)"
        case .rejected(let e): "rejected \(e.reason): \(e)"
        }
    }

    var sentenceText: String? {
        if case .sentence(let s) = self { s } else { nil }
    }

    var rejection: NMEAError? {
        if case .rejected(let e) = self { e } else { nil }
    }
}

/// Frames `bytes` fed in pieces cut at the offsets `cuts` (ascending), then ends the stream.
func frame(_ bytes: [UInt8], cuts: [Int] = [], allowMissingChecksum: Bool = false) -> [Framed] {
    var framer = NMEAFramer(allowMissingChecksum: allowMissingChecksum)
    var out: [Framed] = []
    let record = { (event: FramerEvent) in
        switch event {
        case .sentence(let raw): out.append(.sentence(raw.text))
        case .rejected(let error): out.append(.rejected(error))
        }
    }
    bytes.withUnsafeBytes { all in
        var start = 0
        for end in cuts + [all.count] {
            framer.append(UnsafeRawBufferPointer(rebasing: all[start..<end]), record)
            start = end
        }
    }
    framer.finish(record)
    return out
}

/// Frames `text`'s UTF-8 bytes in one piece.
func frame(_ text: String, allowMissingChecksum: Bool = false) -> [Framed] {
    frame(Array(text.utf8), allowMissingChecksum: allowMissingChecksum)
}

/// A line that did not frame as exactly one sentence.
struct NotOneSentence: Error, CustomStringConvertible {
    var events: [Framed]
    var description: String { "expected one sentence, the framer reported \(events)" }
}

/// Frames `line` (a line end is added) and decodes it: the sentence, or the decoder's ``NMEAError``.
func decode(_ line: String) throws -> DecodedSentence {
    var framer = NMEAFramer()
    var events: [Framed] = []
    var result: Result<DecodedSentence, NMEAError>?
    Array((line + "\r\n").utf8).withUnsafeBytes { bytes in
        framer.append(bytes) { event in
            switch event {
            case .sentence(let raw):
                events.append(.sentence(raw.text))
                result = Result { () throws(NMEAError) in try NMEASentence.decode(raw) }
            case .rejected(let error):
                events.append(.rejected(error))
            }
        }
    }
    guard events.count == 1, let result else { throw NotOneSentence(events: events) }
    return try result.get()
}

/// The parts of a field error, to assert on each.
struct FieldComplaint: Equatable, CustomStringConvertible {
    var sentence: String
    var field: Int
    var expected: String
    /// What the field held; nil for a missing field.
    var found: String?

    var description: String { "\(sentence) field \(field): expected \(expected), found \(found ?? "nothing")" }
}

/// A line that decoded although a field error was expected.
struct DecodedAfterAll: Error, CustomStringConvertible {
    var sentence: NMEASentence
    var description: String { "expected a field error, decoded \(sentence)" }
}

/// The field error decoding `line` throws.
func fieldComplaint(_ line: String) throws -> FieldComplaint {
    let decoded: DecodedSentence
    do {
        decoded = try decode(line)
    } catch let error as NMEAError {
        switch error {
        case .badField(let s, let field, let expected, let found):
            return FieldComplaint(sentence: s, field: field, expected: expected, found: found)
        case .missingField(let s, let field, let expected):
            return FieldComplaint(sentence: s, field: field, expected: expected, found: nil)
        default:
            throw error
        }
    }
    throw DecodedAfterAll(sentence: decoded.sentence)
}

/// One bad field and what the error must say about it.
struct BadFieldCase: Sendable, CustomTestStringConvertible {
    var line: String
    var sentence: String
    var field: Int
    /// What the field held (nil when it is missing).
    var found: String?
    /// A word the `expected` text must contain, to name what belongs in the field.
    var expecting: String

    var testDescription: String { "\(sentence) field \(field) '\(found ?? "")'" }
}

/// Asserts that `c.line` is rejected naming its sentence, field, what belongs there and what was found.
func expectComplaint(_ c: BadFieldCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let complaint = try fieldComplaint(c.line)
    #expect(complaint.sentence == c.sentence, sourceLocation: sourceLocation)
    #expect(complaint.field == c.field, sourceLocation: sourceLocation)
    #expect(complaint.found == c.found, sourceLocation: sourceLocation)
    #expect(complaint.expected.contains(c.expecting), "\(complaint)", sourceLocation: sourceLocation)
}

extension NMEASentence {
    var gga: GGA? { if case .gga(let s) = self { s } else { nil } }
    var rmc: RMC? { if case .rmc(let s) = self { s } else { nil } }
    var gns: GNS? { if case .gns(let s) = self { s } else { nil } }
    var gll: GLL? { if case .gll(let s) = self { s } else { nil } }
    var gsa: GSA? { if case .gsa(let s) = self { s } else { nil } }
    var gsv: GSV? { if case .gsv(let s) = self { s } else { nil } }
    var vtg: VTG? { if case .vtg(let s) = self { s } else { nil } }
    var gst: GST? { if case .gst(let s) = self { s } else { nil } }
    var zda: ZDA? { if case .zda(let s) = self { s } else { nil } }
    var txt: TXT? { if case .txt(let s) = self { s } else { nil } }
    var isSkipped: Bool { if case .skipped = self { true } else { false } }
}

/// `ddmm.mmmm` as decimal degrees, the way a test writes an expected value.
func degrees(_ d: Double, _ minutes: Double) -> Double { d + minutes / 60 }

/// Whether `a` and `b` agree to within `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

/// Whether `a` and `b` are both absent, or both present and within `tolerance`.
func agree(_ a: Double?, _ b: Double?, _ tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a - b) <= tolerance
    default: false
    }
}
