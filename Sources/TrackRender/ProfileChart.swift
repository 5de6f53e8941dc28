import GPSCore

/// A line chart over track distance (the elevation or speed profile): axes with a few
/// round, labelled ticks and one polyline per series part.
struct ProfileChart {
    /// Pixels between the chart's box and its plot area: room for the title and tick labels.
    static let inset = (left: 56.0, right: 16.0, top: 26.0, bottom: 30.0)

    var id: String
    var title: String
    var box: PixelRect
    /// Distance range, metres.
    var distanceRange: ClosedRange<Double>
    /// Value range, in the value's display unit.
    var valueRange: ClosedRange<Double>

    var plot: PixelRect {
        PixelRect(
            x: box.x + Self.inset.left, y: box.y + Self.inset.top,
            width: box.width - Self.inset.left - Self.inset.right,
            height: box.height - Self.inset.top - Self.inset.bottom)
    }

    /// The pixel of a (distance in metres, value) pair.
    func pixel(distance: Double, value: Double) -> PixelPoint {
        let dx = distanceRange.upperBound - distanceRange.lowerBound
        let dy = valueRange.upperBound - valueRange.lowerBound
        return PixelPoint(
            x: plot.x + (distance - distanceRange.lowerBound) / (dx > 0 ? dx : 1) * plot.width,
            y: plot.maxY - (value - valueRange.lowerBound) / (dy > 0 ? dy : 1) * plot.height)
    }

    /// The chart's frame, ticks and labels; `lines` are drawn inside, as (class, points).
    func draw(into svg: inout SVGText, lines: [(cssClass: String, points: [PixelPoint])], emptyNote: String?) {
        let plot = self.plot
        svg.group("id=\"\(id)\" class=\"profile\"") { svg in
            svg.line("<text class=\"profile-title\" x=\"\(SVGText.number(box.x + 16))\" y=\"\(SVGText.number(box.y + 18))\">\(SVGText.escaped(title))</text>")
            svg.line("<rect class=\"plot\" x=\"\(SVGText.number(plot.x))\" y=\"\(SVGText.number(plot.y))\" width=\"\(SVGText.number(plot.width))\" height=\"\(SVGText.number(plot.height))\"/>")
            svg.group("class=\"axis x-axis\"") { svg in
                let km = (distanceRange.lowerBound / 1000)...(distanceRange.upperBound / 1000)
                for tick in RoundNumbers.ticks(from: km.lowerBound, to: km.upperBound, count: 5) {
                    let x = pixel(distance: tick * 1000, value: valueRange.lowerBound).x
                    svg.line("<line class=\"tick\" x1=\"\(SVGText.number(x))\" y1=\"\(SVGText.number(plot.y))\" x2=\"\(SVGText.number(x))\" y2=\"\(SVGText.number(plot.maxY + 4))\"/>")
                    svg.line("<text class=\"tick-label\" text-anchor=\"middle\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(plot.maxY + 17))\">\(DecimalText.trimmed(tick, digits: 3))</text>")
                }
                svg.line("<text class=\"axis-title\" text-anchor=\"end\" x=\"\(SVGText.number(plot.maxX))\" y=\"\(SVGText.number(plot.maxY + 28))\">km</text>")
            }
            svg.group("class=\"axis y-axis\"") { svg in
                for tick in RoundNumbers.ticks(from: valueRange.lowerBound, to: valueRange.upperBound, count: 4) {
                    let y = pixel(distance: distanceRange.lowerBound, value: tick).y
                    svg.line("<line class=\"tick\" x1=\"\(SVGText.number(plot.x - 4))\" y1=\"\(SVGText.number(y))\" x2=\"\(SVGText.number(plot.maxX))\" y2=\"\(SVGText.number(y))\"/>")
                    svg.line("<text class=\"tick-label\" text-anchor=\"end\" x=\"\(SVGText.number(plot.x - 7))\" y=\"\(SVGText.number(y + 4))\">\(DecimalText.trimmed(tick, digits: 2))</text>")
                }
            }
            for line in lines where line.points.count > 1 {
                svg.line("<polyline class=\"\(line.cssClass)\" points=\"\(SVGText.points(line.points))\"/>")
            }
            if let emptyNote {
                svg.line("<text class=\"empty-note\" text-anchor=\"middle\" x=\"\(SVGText.number(plot.x + plot.width / 2))\" y=\"\(SVGText.number(plot.y + plot.height / 2))\">\(SVGText.escaped(emptyNote))</text>")
            }
        }
    }

    /// A value range with some room above and below, at least `minimumSpan` wide.
    static func paddedRange(_ values: [Double], minimumSpan: Double, floorAtZero: Bool) -> ClosedRange<Double> {
        guard var low = values.min(), var high = values.max() else { return 0...minimumSpan }
        if high - low < minimumSpan {
            let middle = (high + low) / 2
            (low, high) = (middle - minimumSpan / 2, middle + minimumSpan / 2)
        }
        let pad = (high - low) * 0.08
        low = floorAtZero ? 0 : low - pad
        high += pad
        return low...high
    }
}
