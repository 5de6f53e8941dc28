/// A WGS-84 position in decimal degrees, latitude first.
///
/// Latitude is in -90...90 (north positive), longitude in -180...180 (east positive).
/// The parser never builds a `Coordinate` outside those ranges.
public struct Coordinate: Sendable, Hashable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both components are finite and inside their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }
}

extension Coordinate {
    /// Mean Earth radius in metres (IUGG R1), the radius the great-circle distance uses.
    public static let earthMeanRadiusMeters = 6_371_008.8

    /// Great-circle (haversine) distance to `other`, in metres.
    ///
    /// Accurate to about 0.5 % against the ellipsoid, which is far below the noise of a
    /// consumer receiver; it is stable for the short steps between successive fixes.
    public func distance(to other: Coordinate) -> Double {
        let rad = Double.pi / 180
        let phi1 = latitude * rad
        let phi2 = other.latitude * rad
        let dPhi = (other.latitude - latitude) * rad
        let dLambda = (other.longitude - longitude) * rad
        let sinPhi = _sin(dPhi / 2)
        let sinLambda = _sin(dLambda / 2)
        let a = sinPhi * sinPhi + _cos(phi1) * _cos(phi2) * sinLambda * sinLambda
        let c = 2 * _atan2(a.squareRoot(), (1 - a).squareRoot())
        return Coordinate.earthMeanRadiusMeters * c
    }
}
