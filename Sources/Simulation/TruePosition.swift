import GPSCore

/// Where the simulated receiver really is at one epoch, and whether it has a fix.
public struct TruePosition: Sendable, Hashable {
    /// UTC time of the epoch.
    public var time: FixTime
    public var coordinate: Coordinate
    /// Altitude above mean sea level, metres.
    public var altitudeMSLMeters: Double
    /// Speed over ground, m/s.
    public var speedMetersPerSecond: Double
    /// Direction of travel, degrees from true north, 0..<360 (the last one while standing).
    public var courseDegrees: Double
    /// Distance travelled along the path since the first epoch, metres.
    public var distanceMeters: Double
    /// Whether the receiver reports a position at this epoch (false during a fix loss).
    public var hasFix: Bool

    public init(
        time: FixTime, coordinate: Coordinate, altitudeMSLMeters: Double, speedMetersPerSecond: Double,
        courseDegrees: Double, distanceMeters: Double, hasFix: Bool
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitudeMSLMeters = altitudeMSLMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.distanceMeters = distanceMeters
        self.hasFix = hasFix
    }

    /// The columns of ``csvRow``.
    public static let csvHeader = "utc,lat,lon,alt_msl_m,speed_mps,course_deg,distance_m,fix"

    /// One CSV line without line ending: `2024-09-14T07:30:00.00Z,46.62405000,8.04137000,1340.00,1.183,41.2,0.00,1`.
    ///
    /// Latitude and longitude with 8 decimals (about 1 mm), altitude and distance with 2,
    /// speed with 3, course with 1; `fix` is 1 or 0.
    public var csvRow: String {
        var row = NMEAText.isoTime(time)
        row += "," + NMEAText.fixed(coordinate.latitude, 8)
        row += "," + NMEAText.fixed(coordinate.longitude, 8)
        row += "," + NMEAText.fixed(altitudeMSLMeters, 2)
        row += "," + NMEAText.fixed(speedMetersPerSecond, 3)
        row += "," + NMEAText.fixed(courseDegrees, 1)
        row += "," + NMEAText.fixed(distanceMeters, 2)
        row += hasFix ? ",1" : ",0"
        return row
    }
}
