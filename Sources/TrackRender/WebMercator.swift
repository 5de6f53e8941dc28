import GPSCore

/// A position on the Web Mercator plane (EPSG:3857, as OpenStreetMap and MapKit tiles use),
/// in world units: the whole world is the square 0...1 × 0...1, x east from the
/// antimeridian, y south from the northern edge (85.05113° N), so north is up on screen.
///
/// x may leave 0...1 for a track unwrapped across the antimeridian (see
/// ``WebMercator/unwrap(_:)``).
public struct MercatorPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The spherical Web Mercator projection.
public enum WebMercator {
    /// The latitude of the projection's northern and southern edges, degrees: where the
    /// square world ends (atan(sinh π)). Latitudes beyond are drawn at the edge.
    public static let maximumLatitude = 85.051_128_779_806_59

    /// The world position of `coordinate`.
    public static func project(_ coordinate: Coordinate) -> MercatorPoint {
        let latitude = min(max(coordinate.latitude, -maximumLatitude), maximumLatitude)
        let phi = latitude * .pi / 180
        let x = (coordinate.longitude + 180) / 360
        let y = (1 - _log(_tan(.pi / 4 + phi / 2)) / .pi) / 2
        return MercatorPoint(x: x, y: y)
    }

    /// The coordinate at world position `point`; longitudes are brought back into -180...180.
    public static func coordinate(at point: MercatorPoint) -> Coordinate {
        var longitude = point.x * 360 - 180
        while longitude > 180 { longitude -= 360 }
        while longitude < -180 { longitude += 360 }
        let latitude = (2 * _atan(_exp(.pi * (1 - 2 * point.y))) - .pi / 2) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Ground metres per world unit at `latitude` (degrees): the parallel's length,
    /// 2πR·cos φ, with the mean Earth radius the track's distances use, so the scale bar
    /// and the distance total agree.
    public static func metersPerUnit(atLatitude latitude: Double) -> Double {
        2 * .pi * Coordinate.earthMeanRadiusMeters * _cos(latitude * .pi / 180)
    }

    /// The world positions of `segments`, with x shifted by whole worlds so that no step
    /// between successive points (across segments too) is longer than half the world: a
    /// track across the antimeridian stays one continuous path, and its bounds are the
    /// short way round. The first point keeps its x in 0...1.
    public static func unwrap(_ segments: [[Coordinate]]) -> [[MercatorPoint]] {
        var previousX: Double?
        return segments.map { segment in
            segment.map { coordinate in
                var point = project(coordinate)
                if let previous = previousX {
                    while point.x - previous > 0.5 { point.x -= 1 }
                    while previous - point.x > 0.5 { point.x += 1 }
                }
                previousX = point.x
                return point
            }
        }
    }
}
