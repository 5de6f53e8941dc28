import GPSCore

extension TrackPicture {
    /// The pin colours: green for the start, red for the end.
    static let startColor = "#1a9641"
    static let endColor = "#d7191c"

    /// The picture as a standalone SVG 1.1 document.
    ///
    /// Elements tests and stylesheets can find: `#map` (clipped to the map area) holding
    /// `#grid` (without a basemap) or `#basemap`, `#segments` with one `g.segment` per segment
    /// (a white `polyline.casing` under `polyline.run` colour runs, classed `speed-N` or
    /// `speed-unknown`), `circle#start` and `circle#end` (one pin, `#start`, for a single
    /// point), `#legend`, `#scale-bar` (`data-meters`), `#north`; `#elevation-profile` and
    /// `#speed-profile`; `#totals` with `text#total-distance`, `#total-moving-time`,
    /// `#total-elevation-gain`, `#total-elevation-loss` and `#total-max-speed`, each with its
    /// value in SI units in `data-value`.
    public var svg: String { svg(basemap: nil) }

    /// The picture with `basemap` (see ``Basemap``) under the path instead of the grid.
    public func svg(basemap: Basemap?) -> String {
        var svg = SVGText()
        let w = SVGText.number(layout.width), h = SVGText.number(layout.height)
        svg.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        svg.line("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">")
        svg.line("<title>\(SVGText.escaped(title))</title>")
        svg.line("<style>\(Self.style)</style>")
        let map = layout.map
        svg.line("<defs><clipPath id=\"map-clip\"><rect x=\"\(SVGText.number(map.x))\" y=\"\(SVGText.number(map.y))\" width=\"\(SVGText.number(map.width))\" height=\"\(SVGText.number(map.height))\"/></clipPath></defs>")
        svg.line("<rect class=\"background\" width=\"\(w)\" height=\"\(h)\"/>")
        drawTitle(into: &svg)
        svg.group("id=\"map\" clip-path=\"url(#map-clip)\"") { svg in
            svg.line("<rect class=\"map-background\" x=\"\(SVGText.number(map.x))\" y=\"\(SVGText.number(map.y))\" width=\"\(SVGText.number(map.width))\" height=\"\(SVGText.number(map.height))\"/>")
            if let basemap, !basemap.tiles.isEmpty {
                drawBasemap(basemap, into: &svg)
            } else {
                drawGrid(into: &svg)
            }
            drawSegments(into: &svg)
            drawPins(into: &svg)
        }
        drawLegend(into: &svg)
        drawScaleBar(into: &svg)
        drawNorthArrow(into: &svg)
        drawProfiles(into: &svg)
        drawTotals(into: &svg)
        svg.line("</svg>")
        return svg.text
    }

    static let style = [
        ".background{fill:#fff}",
        ".map-background{fill:#f6f5f1}",
        "#grid line{stroke:#dcdad2;stroke-width:1}",
        ".casing{fill:none;stroke:#fff;stroke-width:7;stroke-linecap:round;stroke-linejoin:round}",
        ".run{fill:none;stroke-width:4;stroke-linecap:round;stroke-linejoin:round}",
        ".pin{stroke:#fff;stroke-width:2.5}",
        ".pin-label,.halo{paint-order:stroke;stroke:#fff;stroke-width:3.5;stroke-linejoin:round;font-weight:bold}",
        ".title{font-size:18px;font-weight:bold;fill:#222}",
        ".subtitle{fill:#666}",
        ".legend-box{fill:#fff;fill-opacity:0.88;stroke:#bbb}",
        ".profile-title{font-weight:bold;fill:#333}",
        ".plot{fill:#fafafa;stroke:#ccc}",
        ".tick{stroke:#e2e2e2}",
        ".tick-label,.axis-title{fill:#666;font-size:11px}",
        ".elevation-raw{fill:none;stroke:#c9bfae;stroke-width:1}",
        ".elevation{fill:none;stroke:#7a5a2e;stroke-width:2}",
        ".speed{fill:none;stroke:#365c8d;stroke-width:1.5}",
        ".empty-note{fill:#999}",
        ".total-label{fill:#777;font-size:11px}",
        ".total{font-size:17px;font-weight:bold;fill:#222}",
    ].joined()

    private func drawTitle(into svg: inout SVGText) {
        svg.line("<text id=\"title\" class=\"title\" x=\"16\" y=\"25\">\(SVGText.escaped(title))</text>")
        if let subtitle {
            svg.line("<text id=\"subtitle\" class=\"subtitle\" text-anchor=\"end\" x=\"\(SVGText.number(layout.width - 16))\" y=\"24\">\(SVGText.escaped(subtitle))</text>")
        }
    }

    /// Lines every scale-bar length, both ways, through the map's centre.
    private func drawGrid(into svg: inout SVGText) {
        let map = layout.map
        let step = scaleBar.pixels
        guard step >= 8 else { return }
        let cx = map.x + map.width / 2, cy = map.y + map.height / 2
        svg.group("id=\"grid\" data-meters=\"\(DecimalText.trimmed(scaleBar.meters, digits: 1))\"") { svg in
            var k = -((map.width / 2) / step).rounded(.down)
            while cx + k * step <= map.maxX {
                let x = SVGText.number(cx + k * step)
                svg.line("<line x1=\"\(x)\" y1=\"\(SVGText.number(map.y))\" x2=\"\(x)\" y2=\"\(SVGText.number(map.maxY))\"/>")
                k += 1
            }
            k = -((map.height / 2) / step).rounded(.down)
            while cy + k * step <= map.maxY {
                let y = SVGText.number(cy + k * step)
                svg.line("<line x1=\"\(SVGText.number(map.x))\" y1=\"\(y)\" x2=\"\(SVGText.number(map.maxX))\" y2=\"\(y)\"/>")
                k += 1
            }
        }
    }

    private func drawSegments(into svg: inout SVGText) {
        svg.group("id=\"segments\"") { svg in
            for (index, segmentRuns) in runs.enumerated() {
                svg.group("class=\"segment\" data-segment=\"\(index + 1)\" data-points=\"\(path[index].count)\"") { svg in
                    let casing = segmentRuns.flatMap(\.points)
                    svg.line("<polyline class=\"casing\" points=\"\(SVGText.points(casing))\"/>")
                    for run in segmentRuns {
                        let color = run.bin.map { SpeedScale.colors[$0] } ?? SpeedScale.unknownColor
                        let cssClass = run.bin.map { "speed-\($0)" } ?? "speed-unknown"
                        svg.line("<polyline class=\"run \(cssClass)\" stroke=\"\(color)\" points=\"\(SVGText.points(run.points))\"/>")
                    }
                }
            }
        }
    }

    private func drawPins(into svg: inout SVGText) {
        svg.group("id=\"pins\"") { svg in
            if isSinglePoint {
                pin("start", at: start, color: Self.startColor, label: "Start and end", into: &svg)
            } else {
                pin("start", at: start, color: Self.startColor, label: "Start", into: &svg)
                pin("end", at: end, color: Self.endColor, label: "End", into: &svg)
            }
        }
    }

    private func pin(_ id: String, at point: PixelPoint, color: String, label: String, into svg: inout SVGText) {
        let (x, y) = (SVGText.number(point.x), SVGText.number(point.y))
        svg.line("<circle id=\"\(id)\" class=\"pin\" cx=\"\(x)\" cy=\"\(y)\" r=\"8\" fill=\"\(color)\"/>")
        svg.line("<text id=\"\(id)-label\" class=\"pin-label\" fill=\"\(color)\" x=\"\(SVGText.number(point.x + 12))\" y=\"\(SVGText.number(point.y + (id == "end" ? 16 : -8)))\">\(label)</text>")
    }

    private func drawLegend(into svg: inout SVGText) {
        let map = layout.map
        let rowHeight = 17.0
        let box = PixelRect(x: map.maxX - 150, y: map.y + 10, width: 140, height: 30 + rowHeight * Double(SpeedScale.binCount))
        svg.group("id=\"legend\"") { svg in
            svg.line("<rect class=\"legend-box\" x=\"\(SVGText.number(box.x))\" y=\"\(SVGText.number(box.y))\" width=\"\(SVGText.number(box.width))\" height=\"\(SVGText.number(box.height))\" rx=\"4\"/>")
            svg.line("<text class=\"legend-title\" x=\"\(SVGText.number(box.x + 10))\" y=\"\(SVGText.number(box.y + 19))\" font-weight=\"bold\">Speed</text>")
            for bin in 0..<SpeedScale.binCount {
                let y = box.y + 28 + Double(bin) * rowHeight
                svg.line("<rect class=\"legend-swatch speed-\(bin)\" x=\"\(SVGText.number(box.x + 10))\" y=\"\(SVGText.number(y + 2))\" width=\"22\" height=\"11\" fill=\"\(SpeedScale.colors[bin])\"/>")
                svg.line("<text class=\"legend-label\" x=\"\(SVGText.number(box.x + 40))\" y=\"\(SVGText.number(y + 12))\">\(SVGText.escaped(speedScale.label(bin)))</text>")
            }
        }
    }

    private func drawScaleBar(into svg: inout SVGText) {
        let map = layout.map
        let x = map.x + 16, y = map.maxY - 18
        svg.group("id=\"scale-bar\" data-meters=\"\(DecimalText.trimmed(scaleBar.meters, digits: 1))\" data-pixels=\"\(SVGText.number(scaleBar.pixels))\"") { svg in
            svg.line("<rect x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y))\" width=\"\(SVGText.number(scaleBar.pixels))\" height=\"6\" fill=\"#333\" stroke=\"#fff\" stroke-width=\"1.5\"/>")
            svg.line("<text class=\"halo\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y - 6))\" fill=\"#333\">\(scaleBar.label)</text>")
        }
    }

    private func drawNorthArrow(into svg: inout SVGText) {
        let x = layout.map.x + 26, y = layout.map.y + 16
        svg.group("id=\"north\"") { svg in
            svg.line("<path d=\"M \(SVGText.number(x)) \(SVGText.number(y)) l 8 22 l -8 -5 l -8 5 z\" fill=\"#333\" stroke=\"#fff\" stroke-width=\"1.5\"/>")
            svg.line("<text class=\"halo\" text-anchor=\"middle\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y + 38))\" fill=\"#333\">N</text>")
        }
    }

    private func drawProfiles(into svg: inout SVGText) {
        let total = measurement.totals.distanceMeters
        // At least 100 m, so a single point or a few metres get readable ticks.
        let distanceRange = 0...max(total, 100)

        let samples = measurement.elevationSamples
        let smoothing = ElevationGain()
        let smoothed = smoothing.smoothed(samples)
        let elevation = ProfileChart(
            id: "elevation-profile", title: "Elevation, m (smoothed over \(DecimalText.fixed(smoothing.smoothingWindowMeters, digits: 0)) m)", box: layout.elevationProfile,
            distanceRange: distanceRange,
            valueRange: ProfileChart.paddedRange(samples.map(\.altitudeMeters), minimumSpan: 20, floorAtZero: false))
        let raw = samples.map { elevation.pixel(distance: $0.distanceMeters, value: $0.altitudeMeters) }
        let smooth = zip(samples, smoothed).map { elevation.pixel(distance: $0.distanceMeters, value: $1) }
        elevation.draw(
            into: &svg, lines: [("elevation-raw", raw), ("elevation", smooth)],
            emptyNote: samples.isEmpty ? "no elevation recorded" : samples.count == 1 ? "one altitude only" : nil)

        var kmh: [Double] = []
        var lines: [(cssClass: String, points: [PixelPoint])] = []
        let speedRange = ProfileChart.paddedRange(
            measurement.speeds.joined().compactMap { $0.map { $0 * 3.6 } }, minimumSpan: 5, floorAtZero: true)
        let speed = ProfileChart(
            id: "speed-profile", title: "Speed, km/h", box: layout.speedProfile, distanceRange: distanceRange,
            valueRange: speedRange)
        for (distances, speeds) in zip(measurement.distances, measurement.speeds) {
            var points: [PixelPoint] = []
            for (distance, value) in zip(distances, speeds) {
                guard let value else {
                    if points.count > 1 { lines.append(("speed", points)) }
                    points = []
                    continue
                }
                kmh.append(value * 3.6)
                points.append(speed.pixel(distance: distance, value: value * 3.6))
            }
            if points.count > 1 { lines.append(("speed", points)) }
        }
        speed.draw(into: &svg, lines: lines, emptyNote: kmh.isEmpty ? "no speed recorded" : kmh.count == 1 ? "one speed only" : nil)
    }

    private func drawTotals(into svg: inout SVGText) {
        let totals = measurement.totals
        let box = layout.totals
        let items: [(id: String, label: String, text: String, value: Double?)] = [
            ("total-distance", "Distance", DecimalText.fixed(totals.distanceMeters / 1000, digits: 2) + " km", totals.distanceMeters),
            ("total-moving-time", "Moving time", totals.movingSeconds.map(DecimalText.duration) ?? "–", totals.movingSeconds),
            ("total-elevation-gain", "Elevation gain", totals.elevationGainMeters.map { ($0 >= 0.5 ? "+" : "") + DecimalText.fixed($0, digits: 0) + " m" } ?? "–", totals.elevationGainMeters),
            ("total-elevation-loss", "Elevation loss", totals.elevationLossMeters.map { ($0 >= 0.5 ? "−" : "") + DecimalText.fixed($0, digits: 0) + " m" } ?? "–", totals.elevationLossMeters),
            ("total-max-speed", "Max speed", totals.maxSpeedMetersPerSecond.map { DecimalText.fixed($0 * 3.6, digits: 1) + " km/h" } ?? "–", totals.maxSpeedMetersPerSecond),
        ]
        let column = box.width / Double(items.count)
        svg.group("id=\"totals\" data-points=\"\(totals.points)\" data-segments=\"\(totals.segments)\"") { svg in
            svg.line("<line x1=\"16\" y1=\"\(SVGText.number(box.y + 4))\" x2=\"\(SVGText.number(box.maxX - 16))\" y2=\"\(SVGText.number(box.y + 4))\" stroke=\"#ddd\"/>")
            for (index, item) in items.enumerated() {
                let x = SVGText.number(box.x + 16 + Double(index) * column)
                let value = item.value.map { " data-value=\"\(DecimalText.trimmed($0, digits: 3))\"" } ?? ""
                svg.line("<text class=\"total-label\" x=\"\(x)\" y=\"\(SVGText.number(box.y + 24))\">\(item.label)</text>")
                svg.line("<text id=\"\(item.id)\" class=\"total\"\(value) x=\"\(x)\" y=\"\(SVGText.number(box.y + 46))\">\(item.text)</text>")
            }
        }
    }
}
