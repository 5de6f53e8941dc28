import GPSCore

/// A picture of a track: the map with the path coloured by speed, the elevation and speed
/// profiles, and the totals; ``svg`` draws it.
///
/// Everything is decided here, as values tests can read: where each point lands
/// (``frame``, ``path``), the colour runs, the scale bar, the totals. The SVG only writes
/// them down.
///
/// ```swift
/// let picture = try TrackPicture(title: "hike", segments: [points])
/// let svg = picture.svg
/// ```
public struct TrackPicture: Sendable {
    /// The ground width the map shows at least, metres: a single point, or a track of a few
    /// metres, is drawn on a map about this wide, not blown up to fill the picture.
    public static let minimumSpanMeters = 500.0

    public let title: String
    public let subtitle: String?
    public let layout: PictureLayout
    public let measurement: TrackMeasurement
    public let frame: MapFrame
    /// Each point's position on the picture, per segment (longitudes unwrapped across the
    /// antimeridian).
    public let path: [[PixelPoint]]
    public let speedScale: SpeedScale
    /// Per segment, its colour runs.
    public let runs: [[ColorRun]]
    public let scaleBar: ScaleBar
    /// The mean latitude of the track's points, degrees: where the scale bar is true.
    public let meanLatitude: Double

    /// Lays out a picture of `segments` (points in time order; empty segments are ignored).
    ///
    /// - Parameters:
    ///   - title: the track's name, drawn at the top and used in errors (`track 3`, `walk.gpx`).
    ///   - subtitle: a second line beside the title (the start time, say).
    /// - Throws: ``RenderError/noPoints(track:)`` when no segment has a point, and
    ///   ``RenderError/canvasTooSmall(width:height:minimumWidth:minimumHeight:)``.
    public init(
        title: String, subtitle: String? = nil, segments: [[TrackPoint]],
        width: Int = PictureLayout.defaultWidth, height: Int = PictureLayout.defaultHeight) throws(RenderError) {
        let measurement = TrackMeasurement(segments: segments)
        guard measurement.totals.points > 0 else { throw .noPoints(track: title) }
        let layout = try PictureLayout(width: width, height: height)
        self.title = title
        self.subtitle = subtitle
        self.layout = layout
        self.measurement = measurement

        let world = WebMercator.unwrap(measurement.segments.map { $0.map(\.coordinate) })
        let all = world.joined()
        // Non-empty: there is at least one point.
        let bounds = MercatorBounds(all) ?? MercatorBounds([MercatorPoint(x: 0.5, y: 0.5)])!
        let latitudes = measurement.segments.joined().map(\.coordinate.latitude)
        meanLatitude = latitudes.reduce(0, +) / Double(latitudes.count)
        let minimumSpan = Self.minimumSpanMeters / WebMercator.metersPerUnit(atLatitude: meanLatitude)
        let frame = MapFrame.fitting(bounds, in: layout.map, margin: PictureLayout.mapMargin, minimumSpan: minimumSpan)
        let path = world.map { $0.map(frame.pixel) }
        let scale = SpeedScale(speeds: measurement.speeds.joined().compactMap { $0 })
        self.frame = frame
        self.path = path
        speedScale = scale
        runs = zip(path, measurement.speeds).map { pixels, speeds in
            ColorRun.runs(pixels: pixels, speeds: speeds, scale: scale)
        }
        scaleBar = ScaleBar(metersPerPixel: frame.metersPerPixel(atLatitude: meanLatitude), maximumPixels: layout.map.width / 5)
    }

    /// The first point's position (the start pin).
    public var start: PixelPoint { path.first?.first ?? PixelPoint(x: 0, y: 0) }
    /// The last point's position (the end pin).
    public var end: PixelPoint { path.last?.last ?? PixelPoint(x: 0, y: 0) }
    /// Whether the track is a single point, drawn with one pin.
    public var isSinglePoint: Bool { measurement.totals.points == 1 }
}
