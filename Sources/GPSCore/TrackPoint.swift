/// One point of a track to draw: where and when it was, how high and how fast.
///
/// A track to draw is a list of segments, each a list of points in time order. Every field
/// but the coordinate may be missing; what is missing is left out of the totals and profiles
/// that need it, never read as zero.
public struct TrackPoint: Sendable, Hashable {
    public var coordinate: Coordinate
    /// UTC time in seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMeters: Double?
    /// Speed over ground, metres per second (the location manager's smoothed speed for a
    /// stored track, Garmin's `gpxtpx:speed` for a GPX file).
    public var speedMetersPerSecond: Double?
    /// The horizontal 95 % radius, metres (``PositionAccuracy/horizontalMeters``).
    public var horizontalAccuracyMeters: Double?

    public init(
        coordinate: Coordinate, secondsSinceEpoch: Double? = nil, altitudeMeters: Double? = nil,
        speedMetersPerSecond: Double? = nil, horizontalAccuracyMeters: Double? = nil
    ) {
        self.coordinate = coordinate
        self.secondsSinceEpoch = secondsSinceEpoch
        self.altitudeMeters = altitudeMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
    }

    /// The point of a fix with a valid position; nil for a fix without one.
    public init?(_ fix: Fix) {
        guard let coordinate = fix.coordinate, coordinate.isValid else { return nil }
        self.init(
            coordinate: coordinate, secondsSinceEpoch: fix.time?.secondsSinceEpoch,
            altitudeMeters: fix.altitudeMSLMeters, speedMetersPerSecond: fix.speedMetersPerSecond,
            horizontalAccuracyMeters: fix.accuracy?.horizontalMeters)
    }
}
