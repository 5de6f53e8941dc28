import Foundation
import GPX
import Testing

/// The digits `printf("%.*f")` prints (exact, from glibc), trimmed the way GPX output is.
private func printfDecimal(_ value: Double, fractionDigits: Int) -> String {
    var text = String(format: "%.\(fractionDigits)f", value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    if text == "-0" { text = "0" }
    return text
}

/// The four fraction digits after the first `fractionDigits` of `value`, exactly (printf).
private func digitsBeyond(_ fractionDigits: Int, of value: Double) -> Substring {
    let text = String(format: "%.\(fractionDigits + 4)f", value)
    let fraction = text.split(separator: ".")[1]
    return fraction.dropFirst(fractionDigits)
}

/// Whether `text` is a plain decimal: optional minus, digits, optional point and digits
/// ending in a non-zero digit; and not minus zero.
private func isPlainTrimmedDecimal(_ text: String) -> Bool {
    var characters = Substring(text)
    if characters.first == "-" { characters = characters.dropFirst() }
    let parts = characters.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let integer = parts.first, !integer.isEmpty,
        integer.allSatisfy(\.isASCIIDigit), integer == "0" || integer.first != "0"
    else { return false }
    if parts.count == 2 {
        let fraction = parts[1]
        guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit), fraction.last != "0" else { return false }
    }
    return !(text.hasPrefix("-") && characters.allSatisfy { $0 == "0" || $0 == "." })
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Random finite doubles of every magnitude: decimal-looking values, values a hair off a
/// rounding tie, and arbitrary bit patterns (which reach 1e±300).
private func randomDoubles(count: Int, seed: UInt64) -> [Double] {
    var generator = SeededGenerator(seed: seed)
    var values: [Double] = []
    while values.count < count {
        let value: Double
        switch values.count % 3 {
        case 0:
            let exponent = Double.random(in: -12...22, using: &generator)
            value = (Bool.random(using: &generator) ? -1 : 1) * Foundation.pow(10, exponent)
        case 1:
            let digits = Int.random(in: 0...9, using: &generator)
            let units = Double(Int64.random(in: -400_000_000_000...400_000_000_000, using: &generator))
            value = (units + 0.5) / Foundation.pow(10, Double(digits))
        default:
            value = Double(bitPattern: generator.next())
        }
        if value.isFinite { values.append(value) }
    }
    return values
}

@Suite("Decimal formatting")
struct DecimalFormattingTests {
    @Test(
        "Random doubles print as plain decimals within half a unit of the last digit",
        arguments: [0, 2, 3, 9]
    )
    func randomDoublesRoundTrip(fractionDigits: Int) throws {
        let unit = Foundation.pow(10, -Double(fractionDigits))
        for value in randomDoubles(count: 20_000, seed: 0x7472_6163_6B64 &+ UInt64(fractionDigits)) {
            let text = try #require(gpxDecimalString(value, fractionDigits: fractionDigits))
            #expect(
                !text.contains { "eEnNiI".contains($0) }, "\(value) printed as \(text)")
            #expect(isPlainTrimmedDecimal(text), "\(value) printed as \(text)")
            let parsed = try #require(Double(text), "\(text) does not parse")
            // Half a unit, plus what the parse may round (for values whose ulp exceeds a unit).
            let tolerance = unit * (0.5 + 1e-6) + parsed.ulp
            #expect((parsed - value).magnitude <= tolerance, "\(value) printed as \(text)")
            // The correctly rounded digits, except where the value is (within 1e-4 of a
            // unit) a tie, which printf breaks to even and trackd away from zero.
            let correctlyRounded = printfDecimal(value, fractionDigits: fractionDigits)
            if text != correctlyRounded {
                let tail = digitsBeyond(fractionDigits, of: value)
                #expect(tail == "5000" || tail == "4999", "\(value) printed as \(text), not \(correctlyRounded)")
            }
        }
    }

    @Test("Values too large to scale into an Int64 print every digit printf prints", arguments: [0, 3, 9])
    func largeValuesAreExact(fractionDigits: Int) throws {
        var generator = SeededGenerator(seed: 42)
        var checked = 0
        while checked < 2_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite, value.magnitude >= 9e18 / Foundation.pow(10, Double(fractionDigits)) else {
                continue
            }
            checked += 1
            let text = try #require(gpxDecimalString(value, fractionDigits: fractionDigits))
            #expect(text == printfDecimal(value, fractionDigits: fractionDigits))
            #expect(Double(text) == value)
        }
    }

    @Test(
        "Edge cases print as expected",
        arguments: [
            (0.0, 3, "0"),
            (-0.0, 3, "0"),
            (-0.000_000_1, 3, "0"),
            (-0.000_000_1, 9, "-0.0000001"),
            (0.000_000_001, 9, "0.000000001"),
            (59.999_999_99, 2, "60"),
            (59.999_999_99, 9, "59.99999999"),
            (-179.999_999_999_6, 9, "-180"),
            (12.5, 3, "12.5"),
            (0.5, 0, "1"),
            (-0.5, 0, "-1"),
            (1.005, 2, "1"),  // 1.005 is 1.00499999999999989… in binary
            (408.25, 3, "408.25"),
            (100, 2, "100"),
            (9_223_372_036_854_775_808.0, 0, "9223372036854775808"),
            (15_000_000_000.0, 9, "15000000000"),
            (12_345_678_901.5, 9, "12345678901.5"),
            (-12_345_678_901.25, 9, "-12345678901.25"),
            (1_234_567_890_123_456.75, 2, "1234567890123456.75"),
            (0.125, 2, "0.13"),  // an exact tie in binary: half away from zero
        ] as [(Double, Int, String)]
    )
    func edgeCases(value: Double, fractionDigits: Int, expected: String) {
        #expect(gpxDecimalString(value, fractionDigits: fractionDigits) == expected)
    }

    @Test("1e300 prints all its digits, without an exponent", arguments: [1e300, -1e300, Double.greatestFiniteMagnitude])
    func hugeValues(value: Double) throws {
        let text = try #require(gpxDecimalString(value, fractionDigits: 3))
        #expect(text == printfDecimal(value, fractionDigits: 3))
        #expect(text.count >= 301)
        #expect(Double(text) == value)
    }

    @Test("NaN and infinities print nothing", arguments: [Double.nan, -Double.nan, .infinity, -.infinity])
    func nonFinite(value: Double) {
        #expect(gpxDecimalString(value, fractionDigits: 3) == nil)
        #expect(gpxAngleString(value, fractionDigits: 2) == nil)
    }

    @Test(
        "Angles are normalised to 0 <= x < 360 after rounding",
        arguments: [
            (-3.5, "356.5"),
            (359.999, "0"),
            (360.0, "0"),
            (720.25, "0.25"),
            (-0.001, "0"),
            (-0.006, "359.99"),
            (271.5, "271.5"),
            (0.0, "0"),
            (-360.0, "0"),
        ] as [(Double, String)]
    )
    func angles(degrees: Double, expected: String) {
        #expect(gpxAngleString(degrees, fractionDigits: 2) == expected)
    }

    @Test("Random angles print inside 0..<360 and agree with the plain decimal modulo a turn")
    func randomAngles() throws {
        var generator = SeededGenerator(seed: 360)
        for _ in 0..<20_000 {
            let degrees = Double.random(in: -1_000...1_000, using: &generator)
            let text = try #require(gpxAngleString(degrees, fractionDigits: 2))
            let parsed = try #require(Double(text))
            #expect(parsed >= 0 && parsed < 360, "\(degrees) printed as \(text)")
            var difference = (parsed - degrees).truncatingRemainder(dividingBy: 360)
            if difference > 180 { difference -= 360 }
            if difference < -180 { difference += 360 }
            #expect(difference.magnitude <= 0.005 + 1e-9, "\(degrees) printed as \(text)")
        }
    }
}
