/// Where the map's world positions land on the picture: a uniform scale (north up, no
/// distortion beyond Mercator's own) and an offset.
///
/// ``fitting(_:in:margin:minimumSpan:)`` centres the track in the map area and scales it as
/// large as fits inside the margins: the track's bounds then touch the margins on one axis
/// (the longer one relative to the area's shape) and are centred on the other.
public struct MapFrame: Sendable, Hashable {
    /// The map's area on the picture.
    public var area: PixelRect
    /// Pixels per world unit.
    public var pixelsPerUnit: Double
    /// The world position drawn at the centre of ``area``.
    public var center: MercatorPoint

    public init(area: PixelRect, pixelsPerUnit: Double, center: MercatorPoint) {
        self.area = area
        self.pixelsPerUnit = pixelsPerUnit
        self.center = center
    }

    /// The frame that shows `bounds` as large as fits in `area` less `margin` pixels on each
    /// side. Bounds narrower than `minimumSpan` world units (a single point, a few metres)
    /// are widened to it about their centre, so the picture keeps a sensible scale.
    public static func fitting(
        _ bounds: MercatorBounds, in area: PixelRect, margin: Double, minimumSpan: Double
    ) -> MapFrame {
        let inner = area.insetBy(margin)
        let spanX = max(bounds.width, minimumSpan)
        let spanY = max(bounds.height, minimumSpan)
        let scale = min(inner.width / spanX, inner.height / spanY)
        return MapFrame(area: area, pixelsPerUnit: scale, center: bounds.center)
    }

    /// The pixel at which world position `point` is drawn.
    public func pixel(_ point: MercatorPoint) -> PixelPoint {
        PixelPoint(
            x: area.x + area.width / 2 + (point.x - center.x) * pixelsPerUnit,
            y: area.y + area.height / 2 + (point.y - center.y) * pixelsPerUnit)
    }

    /// The world position drawn at `pixel`; the inverse of ``pixel(_:)``.
    public func worldPoint(_ pixel: PixelPoint) -> MercatorPoint {
        MercatorPoint(
            x: center.x + (pixel.x - area.x - area.width / 2) / pixelsPerUnit,
            y: center.y + (pixel.y - area.y - area.height / 2) / pixelsPerUnit)
    }

    /// Ground metres per pixel at `latitude` (degrees).
    public func metersPerPixel(atLatitude latitude: Double) -> Double {
        WebMercator.metersPerUnit(atLatitude: latitude) / pixelsPerUnit
    }
}
