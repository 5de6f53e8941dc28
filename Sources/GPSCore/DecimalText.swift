/// Plain decimal text for numbers (no Foundation): fixed digits, never exponent notation.
package enum DecimalText {
    /// `value` rounded to `digits` decimals (0...6): `12.35`, `-0.5`, `7`.
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value.rounded())) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        var fraction = String(units % Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return sign + String(whole) + "." + fraction
    }

    /// Like ``fixed(_:digits:)`` without trailing zeros: `2.5`, `2`.
    package static func trimmed(_ value: Double, digits: Int) -> String {
        var text = fixed(value, digits: digits)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A duration as `h:mm:ss`.
    package static func duration(seconds: Double) -> String {
        let total = Int64(max(0, seconds).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return "\(h):" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }
}
