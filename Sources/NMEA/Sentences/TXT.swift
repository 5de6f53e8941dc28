/// TXT: a text message from the receiver (antenna status, firmware banner).
///
/// | field | content |
/// |---|---|
/// | 1 | number of TXT sentences in this message |
/// | 2 | this sentence's number |
/// | 3 | text identifier (00 error, 01 warning, 02 notice, 07 user) |
/// | 4 | the text |
public struct TXT: Sendable, Hashable {
    public var sentenceCount: Int?
    public var sentenceNumber: Int?
    public var identifier: Int?
    public var text: String

    init(_ r: inout FieldReader) throws(NMEAError) {
        sentenceCount = try r.integer("number of sentences")
        sentenceNumber = try r.integer("sentence number")
        identifier = try r.integer("text identifier")
        // The text may itself contain commas: take the rest of the sentence.
        var parts: [String] = []
        while r.hasMore { parts.append(r.next().text) }
        text = parts.joined(separator: ",")
    }
}
