/// A position on the picture, in pixels from its top-left corner.
public struct PixelPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle on the picture, in pixels.
public struct PixelRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle shrunk by `inset` on every side.
    public func insetBy(_ inset: Double) -> PixelRect {
        PixelRect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
    }

    /// Whether `point` lies inside or on the edge, with `tolerance` pixels of slack.
    public func contains(_ point: PixelPoint, tolerance: Double = 0) -> Bool {
        point.x >= x - tolerance && point.x <= maxX + tolerance && point.y >= y - tolerance && point.y <= maxY + tolerance
    }
}

/// The bounds of points on the Web Mercator plane, world units.
public struct MercatorBounds: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// The smallest bounds holding every point; nil for none.
    public init?<S: Sequence>(_ points: S) where S.Element == MercatorPoint {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        while let p = iterator.next() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: MercatorPoint { MercatorPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
}
