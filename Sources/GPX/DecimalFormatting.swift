import GPSCore

// Plain decimal output for `xsd:decimal` and `xsd:double` fields.
//
// GPX declares lat, lon, ele and the DOPs as `xsd:decimal`: digits with an optional point,
// never an exponent, NaN or Inf. `Double.description` prints `1e-07`, and `String(format:)`
// needs Foundation and is slow, so values are formatted here: scale by 10^k, round to an
// integer, print its digits with the point inserted k places from the right, and trim
// trailing zeros. The integer and fractional parts are scaled apart (`scaledDecimal`), so
// the only rounding is the final one: `1234567890123456.75` keeps its `.75`, which a
// single multiply by 100 would round away.
//
// The writer only writes values of at most 18 digits (`gpxScaled`): XML Schema processors
// need accept no more in an `xsd:decimal`, and libxml2 rejects more than 24, so a larger
// value, which no receiver reports, is left out like NaN. `gpxDecimalString` prints any
// finite value: when the scaled form does not fit an `Int64` (|x| ≥ 9e18 / 10^k) it takes
// an exact, slower path that prints every digit of the binary value's integer part.

/// Bounds of the formatter and of what the writer writes.
enum DecimalLimits {
    /// Most digits a written number has: the `totalDigits` every XML Schema processor
    /// must support for `xsd:decimal` (XML Schema 1.0 Part 2, 3.2.3).
    static let maxWrittenDigits = 18
    /// 10^``maxWrittenDigits``: a scaled value below it has at most that many digits.
    static let writtenScaledLimit: UInt64 = 1_000_000_000_000_000_000
    /// Bound on |integral part| × 10^k for the `Int64` path: `Int64` holds 9.22e18, which
    /// leaves room for the scaled fraction (at most 10^9). Larger values take the exact path.
    static let int64ScaledLimit: Double = 9e18
    /// Most fraction digits any GPX field uses (latitude and longitude).
    static let maxFractionDigits = 9
    /// Most bytes `ByteCursor.write(scaled:fractionDigits:)` writes: a sign, the 19 digits
    /// of an `Int64`, a point and, for |x| < 1, one leading zero.
    static let maxScaledDecimalBytes = 22
}

/// 10^k for 0 ≤ k ≤ 9, exact in a `Double`.
@inline(__always)
func powerOfTen(_ k: Int) -> Double {
    precondition(k <= DecimalLimits.maxFractionDigits, "GPX formats at most \(DecimalLimits.maxFractionDigits) fraction digits, not \(k)")
    return Double(decimalPowerOfTen(k))
}

/// `value` × 10^`fractionDigits` rounded half away from zero, or `nil` when `value` is
/// NaN, infinite, or too large for the result to fit an `Int64` (|value| ≥ 9e18 / 10^k).
///
/// The integral part is scaled in integer arithmetic and only the fraction (< 1) in
/// floating point, so the result is the correctly rounded one except within about 1e-7 of
/// a unit from a tie.
@inline(__always)
func scaledDecimal(_ value: Double, fractionDigits: Int) -> Int64? {
    let scale = powerOfTen(fractionDigits)
    let integral = value.rounded(.towardZero)
    // False for NaN and infinities too.
    guard integral.magnitude < DecimalLimits.int64ScaledLimit / scale else { return nil }
    let fraction = ((value - integral) * scale).rounded(.toNearestOrAwayFromZero)  // |fraction| ≤ 10^k
    return Int64(integral) &* Int64(scale) &+ Int64(fraction)
}

/// `value` × 10^`fractionDigits`, rounded half away from zero, when the writer may write
/// it: finite, and with at most ``DecimalLimits/maxWrittenDigits`` digits.
@inline(__always)
func gpxScaled(_ value: Double, fractionDigits: Int) -> Int64? {
    guard let scaled = scaledDecimal(value, fractionDigits: fractionDigits),
        scaled.magnitude < DecimalLimits.writtenScaledLimit
    else { return nil }
    return scaled
}

/// An angle in degrees as scaled by `scaledDecimal`, normalised to 0 ≤ x < 360 *after*
/// rounding, so that 359.999 at two decimals is 0, not 360, and -3.5 is 356.5. `nil` for
/// NaN and infinities.
@inline(__always)
func scaledAngle(_ degrees: Double, fractionDigits: Int) -> Int64? {
    let reduced = degrees.truncatingRemainder(dividingBy: 360)  // exact, in (-360, 360); NaN stays NaN
    guard var scaled = scaledDecimal(reduced, fractionDigits: fractionDigits) else { return nil }
    let fullTurn = 360 * Int64(powerOfTen(fractionDigits))
    scaled %= fullTurn
    if scaled < 0 { scaled += fullTurn }
    return scaled
}

extension ByteCursor {
    /// Writes `scaled / 10^fractionDigits` as a plain decimal, trailing zeros and a bare
    /// point trimmed: `12.5`, `3`, `-0.25`. Writes at most
    /// ``DecimalLimits/maxScaledDecimalBytes`` bytes, and never `-0`.
    @inline(__always)
    mutating func write(scaled: Int64, fractionDigits: Int) {
        var magnitude = scaled.magnitude
        var fraction = fractionDigits
        while fraction > 0 && magnitude % 10 == 0 {
            magnitude /= 10
            fraction -= 1
        }
        // `scaled` is zero exactly when every digit is: -0.0000001 prints `0`.
        write(magnitude: magnitude, fractionDigits: fraction, negative: scaled < 0)
    }

    /// Writes an integer in decimal.
    @inline(__always)
    mutating func write(integer value: Int) {
        write(magnitude: UInt64(value.magnitude), fractionDigits: 0, negative: value < 0)
    }
}

/// The decimal digits of a non-negative integral `Double`, exactly.
///
/// Beyond 2^64 the value is its 53-bit significand shifted left; the digits come from
/// repeated division of that multi-word integer by 10^9.
func exactDecimalDigits(ofIntegral value: Double) -> [UInt8] {
    precondition(value >= 0 && value.isFinite && value == value.rounded(.towardZero))
    if value < 18_446_744_073_709_551_616.0 {  // 2^64
        var n = UInt64(value)
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(truncatingIfNeeded: n % 10) + UInt8(ascii: "0"))
            n /= 10
        } while n > 0
        return digits.reversed()
    }
    // value = significand * 2^shift, significand a 53-bit integer.
    let significand = value.significandBitPattern | (1 << UInt64(Double.significandBitCount))
    let shift = Int(value.exponent) - Double.significandBitCount
    var words = [UInt32](repeating: 0, count: (shift + 53) / 32 + 2)  // little-endian
    let wordShift = shift / 32
    let bitShift = UInt64(shift % 32)
    let low = significand << bitShift  // may lose high bits; recovered below
    words[wordShift] = UInt32(truncatingIfNeeded: low)
    words[wordShift + 1] = UInt32(truncatingIfNeeded: low >> 32)
    if bitShift > 0 {
        words[wordShift + 2] = UInt32(truncatingIfNeeded: significand >> (64 - bitShift))
    }
    // Repeated division by 10^9 yields base-10^9 chunks, least significant first.
    var chunks: [UInt32] = []
    var top = words.count
    while top > 0 && words[top - 1] == 0 { top -= 1 }
    while top > 0 {
        var remainder: UInt64 = 0
        for index in stride(from: top - 1, through: 0, by: -1) {
            let current = (remainder << 32) | UInt64(words[index])
            words[index] = UInt32(truncatingIfNeeded: current / 1_000_000_000)
            remainder = current % 1_000_000_000
        }
        chunks.append(UInt32(truncatingIfNeeded: remainder))
        while top > 0 && words[top - 1] == 0 { top -= 1 }
    }
    var digits: [UInt8] = []
    for (position, chunk) in chunks.reversed().enumerated() {
        var chunkDigits = [UInt8](repeating: UInt8(ascii: "0"), count: 9)
        var n = chunk
        for index in stride(from: 8, through: 0, by: -1) {
            chunkDigits[index] = UInt8(truncatingIfNeeded: n % 10) + UInt8(ascii: "0")
            n /= 10
        }
        if position == 0 {
            // The most significant chunk carries no leading zeros.
            let first = chunkDigits.firstIndex { $0 != UInt8(ascii: "0") } ?? 8
            digits.append(contentsOf: chunkDigits[first...])
        } else {
            digits.append(contentsOf: chunkDigits)
        }
    }
    return digits
}

/// The exact path for |value| too large to scale into an `Int64`: the decimal expansion
/// of the binary value's integer part (a double ≥ 2^53 is an integer, so `1e300` gives all
/// 301 digits of the nearest double), then the fraction rounded to `fractionDigits`.
func exactDecimalText(_ value: Double, fractionDigits: Int) -> [UInt8] {
    let integral = value.magnitude.rounded(.towardZero)
    let fractional = value.magnitude - integral  // exact: both share the binade's grid
    let scale = powerOfTen(fractionDigits)
    var fractionScaled = UInt64((fractional * scale).rounded(.toNearestOrAwayFromZero))
    var integerDigits = exactDecimalDigits(ofIntegral: integral)
    if Double(fractionScaled) >= scale {
        // The fraction rounded up to a whole unit: carry into the integer digits.
        fractionScaled = 0
        var index = integerDigits.count - 1
        while index >= 0 && integerDigits[index] == UInt8(ascii: "9") {
            integerDigits[index] = UInt8(ascii: "0")
            index -= 1
        }
        if index >= 0 {
            integerDigits[index] += 1
        } else {
            integerDigits.insert(UInt8(ascii: "1"), at: 0)
        }
    }
    var text: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
    text.append(contentsOf: integerDigits)
    var fraction = fractionDigits
    while fraction > 0 && fractionScaled % 10 == 0 {
        fractionScaled /= 10
        fraction -= 1
    }
    if fraction > 0 {
        text.append(UInt8(ascii: "."))
        var fractionText = [UInt8](repeating: UInt8(ascii: "0"), count: fraction)
        var index = fraction - 1
        while fractionScaled > 0 {
            fractionText[index] = UInt8(truncatingIfNeeded: fractionScaled % 10) + UInt8(ascii: "0")
            fractionScaled /= 10
            index -= 1
        }
        text.append(contentsOf: fractionText)
    }
    return text
}

/// `value` as a plain decimal at `fractionDigits` (0...9) decimals, rounded half away from
/// zero and trimmed, or `nil` for NaN and infinities. The writer formats its fields this
/// way, but leaves out values beyond 18 digits, which this prints in full.
package func gpxDecimalString(_ value: Double, fractionDigits: Int) -> String? {
    if let scaled = scaledDecimal(value, fractionDigits: fractionDigits) {
        var buffer = OutputBuffer(capacity: DecimalLimits.maxScaledDecimalBytes)
        buffer.write(reserving: DecimalLimits.maxScaledDecimalBytes) {
            $0.write(scaled: scaled, fractionDigits: fractionDigits)
        }
        return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
    guard value.isFinite else { return nil }
    return String(decoding: exactDecimalText(value, fractionDigits: fractionDigits), as: UTF8.self)
}

/// `degrees` as the writer writes an angle (0 ≤ x < 360), or `nil` for NaN and infinities.
package func gpxAngleString(_ degrees: Double, fractionDigits: Int) -> String? {
    guard let scaled = scaledAngle(degrees, fractionDigits: fractionDigits) else { return nil }
    var buffer = OutputBuffer(capacity: DecimalLimits.maxScaledDecimalBytes)
    buffer.write(reserving: DecimalLimits.maxScaledDecimalBytes) {
        $0.write(scaled: scaled, fractionDigits: fractionDigits)
    }
    return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}
