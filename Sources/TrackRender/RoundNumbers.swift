import GPSCore

/// Round numbers for scale bars, bins and axis ticks: 1, 2, 5 (and friends) × 10ⁿ.
enum RoundNumbers {
    /// The smallest `step × 10ⁿ` (a step from `steps`, ascending in 1..<10) that is at least
    /// `value`, and at least `minimum`.
    static func atLeast(_ value: Double, steps: [Double], minimum: Double) -> Double {
        guard value.isFinite, value > minimum else { return minimum }
        let magnitude = _pow(10, _log10(value).rounded(.down))
        for step in steps where step * magnitude >= value * (1 - 1e-12) { return step * magnitude }
        return 10 * magnitude
    }

    /// The largest `step × 10ⁿ` that is at most `value` (positive).
    static func atMost(_ value: Double, steps: [Double]) -> Double {
        let magnitude = _pow(10, _log10(value).rounded(.down))
        for step in steps.reversed() where step * magnitude <= value * (1 + 1e-12) { return step * magnitude }
        return magnitude
    }

    /// Tick values for an axis from `low` to `high`: multiples of a round step, about
    /// `count` of them, inside the range.
    static func ticks(from low: Double, to high: Double, count: Int) -> [Double] {
        guard high > low, count > 0 else { return [low] }
        let step = atLeast((high - low) / Double(count), steps: [1, 2, 2.5, 5], minimum: 1e-9)
        var value = (low / step).rounded(.up) * step
        var result: [Double] = []
        while value <= high + step * 1e-9 {
            result.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return result
    }
}

/// A scale bar: a round ground length and its length on the picture.
public struct ScaleBar: Sendable, Hashable {
    /// Ground length, metres: 1, 2 or 5 × 10ⁿ.
    public var meters: Double
    /// Its length on the picture, pixels.
    public var pixels: Double

    /// The longest round length that is at most `maximumPixels` long at `metersPerPixel`.
    public init(metersPerPixel: Double, maximumPixels: Double) {
        meters = RoundNumbers.atMost(metersPerPixel * maximumPixels, steps: [1, 2, 5])
        pixels = meters / metersPerPixel
    }

    /// `500 m`, `2 km`.
    public var label: String {
        meters >= 1000 ? DecimalText.trimmed(meters / 1000, digits: 3) + " km" : DecimalText.fixed(meters, digits: 0) + " m"
    }
}
