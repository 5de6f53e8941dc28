/// A receiver's solution for one epoch.
///
/// Every source (NMEA sentences merged by the epoch assembler, gpsd's reports, the
/// simulator) yields `Fix` values. Every field a receiver may leave out is optional:
/// an absent value is `nil`, never zero. "No fix" is a valid `Fix` with
/// `mode == .noFix` and no `coordinate`.
public struct Fix: Sendable, Hashable {
    /// UTC time of the epoch; `nil` only when the receiver sent no time at all.
    public var time: FixTime?
    public var mode: FixMode
    public var quality: FixQuality
    /// The position; `nil` exactly when `mode == .noFix`.
    public var coordinate: Coordinate?
    /// Altitude above mean sea level (the geoid), metres.
    public var altitudeMSLMeters: Double?
    /// Geoid height above the WGS-84 ellipsoid, metres (GGA field 11).
    public var geoidSeparationMeters: Double?
    /// Speed over ground, metres per second.
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees from true north, 0..<360.
    public var courseDegrees: Double?
    /// Magnetic variation in degrees, east positive.
    public var magneticVariationDegrees: Double?
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    /// Satellites used in the solution (GGA field 7, or the count of GSA's PRNs).
    public var satellitesUsed: Int?
    /// Satellites in view, from the epoch's GSV sentences; empty when none were sent.
    public var satellitesInView: [SatelliteInView]
    /// The 95 % accuracy estimate and where it came from.
    public var accuracy: PositionAccuracy?
    /// Age of differential corrections in seconds (GGA field 13).
    public var dgpsAgeSeconds: Double?
    /// Differential reference station id (GGA field 14).
    public var dgpsStationID: Int?

    public init(
        time: FixTime? = nil, mode: FixMode = .noFix, quality: FixQuality = .invalid,
        coordinate: Coordinate? = nil, altitudeMSLMeters: Double? = nil, geoidSeparationMeters: Double? = nil,
        speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil, magneticVariationDegrees: Double? = nil,
        hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil, satellitesUsed: Int? = nil,
        satellitesInView: [SatelliteInView] = [], accuracy: PositionAccuracy? = nil,
        dgpsAgeSeconds: Double? = nil, dgpsStationID: Int? = nil
    ) {
        self.time = time
        self.mode = mode
        self.quality = quality
        self.coordinate = coordinate
        self.altitudeMSLMeters = altitudeMSLMeters
        self.geoidSeparationMeters = geoidSeparationMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
        self.magneticVariationDegrees = magneticVariationDegrees
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
        self.accuracy = accuracy
        self.dgpsAgeSeconds = dgpsAgeSeconds
        self.dgpsStationID = dgpsStationID
    }

    /// Whether this fix has a position.
    public var hasPosition: Bool { coordinate != nil }

    /// Altitude above the WGS-84 ellipsoid (MSL + geoid separation), when both are known.
    public var altitudeHAEMeters: Double? {
        guard let msl = altitudeMSLMeters, let sep = geoidSeparationMeters else { return nil }
        return msl + sep
    }
}
