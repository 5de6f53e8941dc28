/// JSON written by hand (`trackd tracks --json`, the live view's events): the same values
/// give the same text, numbers in plain decimals with at most a given number of digits.
package enum JSONText {
    /// A JSON string literal.
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `value` with at most `digits` decimals, or `null`.
    package static func number(_ value: Double?, digits: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return DecimalText.trimmed(value, digits: digits)
    }

    package static func string(_ text: String?) -> String { text.map { string($0) } ?? "null" }

    /// An object from keys and already-encoded values, in the order given.
    package static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }
}
