import GPSCore

/// SVG markup built as text, one element a line.
struct SVGText {
    private(set) var text = ""
    private var depth = 0

    mutating func line(_ element: String) {
        text += String(repeating: "  ", count: depth) + element + "\n"
    }

    /// Opens a group `<g …>`, runs `body`, closes it.
    mutating func group(_ attributes: String, _ body: (inout SVGText) -> Void) {
        line("<g \(attributes)>")
        depth += 1
        body(&self)
        depth -= 1
        line("</g>")
    }

    /// A coordinate or length in pixels: one decimal, enough for any screen.
    static func number(_ value: Double) -> String { DecimalText.trimmed(value, digits: 1) }

    /// A `points` attribute's value.
    static func points(_ points: [PixelPoint]) -> String {
        points.map { number($0.x) + "," + number($0.y) }.joined(separator: " ")
    }

    /// `text` with XML's special characters escaped, for content and attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Characters XML 1.0 forbids (C0 controls but tab, newline, return) are dropped.
                if let ascii = character.asciiValue, ascii < 0x20, ascii != 0x09, ascii != 0x0A, ascii != 0x0D { continue }
                out.append(character)
            }
        }
        return out
    }
}
