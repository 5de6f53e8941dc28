import GPSCore

/// The colours of the path: speeds in km/h cut into eight bins of a round width, each with
/// a colour of the viridis ramp (dark violet for slow, through blue and green, to yellow for
/// fast; readable with the common colour-vision deficiencies and in greyscale).
///
/// The bins span the middle 90 % of the track's speeds (5th to 95th percentile), so a few
/// spikes or stops do not wash the colours out: the width is the smallest of 0.5, 1, 2, 2.5
/// or 5 × 10ⁿ km/h for which six bins from a multiple of it at or below the 5th percentile
/// reach the 95th. The first bin also holds everything slower, the last everything faster.
public struct SpeedScale: Sendable, Hashable {
    /// The number of bins.
    public static let binCount = 8
    /// viridis at 8 even steps, slow to fast.
    public static let colors = ["#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725"]
    /// The colour of a stretch whose speed is unknown.
    public static let unknownColor = "#8c8c8c"

    /// The width of a bin, km/h.
    public var binWidthKmh: Double
    /// The upper end of the first bin, km/h.
    public var firstBoundaryKmh: Double

    public init(binWidthKmh: Double, firstBoundaryKmh: Double) {
        self.binWidthKmh = binWidthKmh
        self.firstBoundaryKmh = firstBoundaryKmh
    }

    /// The scale for a track with `speeds` (metres per second).
    public init(speeds: [Double]) {
        let kmh = speeds.map { $0 * 3.6 }.filter(\.isFinite).sorted()
        guard !kmh.isEmpty else {
            self.init(binWidthKmh: 1, firstBoundaryKmh: 1)
            return
        }
        func percentile(_ p: Double) -> Double { kmh[min(kmh.count - 1, Int((Double(kmh.count - 1) * p).rounded()))] }
        let (low, high) = (percentile(0.05), percentile(0.95))
        var width = RoundNumbers.atLeast((high - low) / Double(Self.binCount - 2), steps: [1, 2, 2.5, 5], minimum: 0.5)
        var start = (low / width).rounded(.down) * width
        while start + width * Double(Self.binCount - 2) < high {
            width = RoundNumbers.atLeast(width * 1.01, steps: [1, 2, 2.5, 5], minimum: 0.5)
            start = (low / width).rounded(.down) * width
        }
        // Bins 1...6 cover start...high; bin 0 is everything below start (or 0...width from 0).
        self.init(binWidthKmh: width, firstBoundaryKmh: start > 0 ? start : width)
    }

    /// The lower end of bin `index` (> 0), km/h.
    private func lowerBound(_ index: Int) -> Double {
        firstBoundaryKmh + Double(index - 1) * binWidthKmh
    }

    /// The bin of `speed` (metres per second), 0..<binCount.
    public func bin(_ speedMetersPerSecond: Double) -> Int {
        let kmh = speedMetersPerSecond * 3.6
        guard kmh >= firstBoundaryKmh else { return 0 }
        return min(1 + Int(((kmh - firstBoundaryKmh) / binWidthKmh).rounded(.down)), Self.binCount - 1)
    }

    /// The legend's label of bin `index`: `< 3 km/h` for the first, `3–3.5 km/h`, and
    /// `≥ 6 km/h` for the last.
    public func label(_ index: Int) -> String {
        if index == 0 { return "< \(formatNumber(firstBoundaryKmh)) km/h" }
        let lower = formatNumber(lowerBound(index))
        if index == Self.binCount - 1 { return "≥ \(lower) km/h" }
        return "\(lower)–\(formatNumber(lowerBound(index + 1))) km/h"
    }

    private func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? DecimalText.fixed(value, digits: 0) : DecimalText.trimmed(value, digits: 2)
    }
}
