// Escaped text, written as UTF-8 bytes.

/// Most bytes `ByteCursor.write(escaped:inAttribute:)` writes per UTF-8 byte of its input:
/// `"` (one byte) becomes `&quot;` (six).
let maxEscapedBytesPerByte = 6

extension OutputBuffer {
    /// Writes `text` escaped (see `ByteCursor.write(escaped:inAttribute:)`).
    mutating func write(escaped text: String, inAttribute: Bool) {
        write(reserving: text.utf8.count * maxEscapedBytesPerByte) {
            $0.write(escaped: text, inAttribute: inAttribute)
        }
    }
}

extension ByteCursor {
    /// Writes `text` as XML 1.0 character data or attribute value.
    ///
    /// `&`, `<`, `>` and `"` become entity references. Characters XML 1.0 forbids (C0
    /// controls other than tab, line feed and carriage return; U+FFFE and U+FFFF) are dropped:
    /// no parser would accept the document otherwise. Carriage return is written as `&#13;`
    /// so that a parser's line-end normalisation keeps it; in an attribute (`inAttribute`),
    /// tab and line feed are written as references too, since attribute-value normalisation
    /// would turn them into spaces. Writes at most `maxEscapedBytesPerByte` bytes per UTF-8
    /// byte of `text`.
    mutating func write(escaped text: String, inAttribute: Bool) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: write("&amp;")
            case 0x3C: write("&lt;")
            case 0x3E: write("&gt;")
            case 0x22: write("&quot;")
            case 0x0D: write("&#13;")
            case 0x09 where inAttribute: write("&#9;")
            case 0x0A where inAttribute: write("&#10;")
            case 0x00..<0x20 where scalar.value != 0x09 && scalar.value != 0x0A: continue
            case 0xFFFE, 0xFFFF: continue
            default: UTF8.encode(scalar) { write(byte: $0) }
            }
        }
    }
}
