import GPSCore

/// GNS: GNSS fix data (NMEA 3.0+), the multi-constellation GGA.
///
/// | field | content |
/// |---|---|
/// | 1 | UTC time |
/// | 2, 3 | latitude, N/S |
/// | 4, 5 | longitude, E/W |
/// | 6 | mode per system, one letter each (GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC): `AAN` |
/// | 7 | satellites used |
/// | 8 | HDOP |
/// | 9 | altitude above mean sea level, metres |
/// | 10 | geoid separation, metres |
/// | 11 | age of differential data |
/// | 12 | differential station id |
/// | 13 | navigational status (NMEA 4.10+) |
public struct GNS: Sendable, Hashable {
    public var time: TimeOfDay?
    public var latitude: Double?
    public var longitude: Double?
    /// The best mode over all systems (`.invalid` when every system says `N`).
    public var quality: FixQuality?
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitudeMSLMeters: Double?
    public var geoidSeparationMeters: Double?
    public var dgpsAgeSeconds: Double?
    public var dgpsStationID: Int?
    public var navigationalStatus: UInt8?

    init(_ r: inout FieldReader) throws(NMEAError) {
        time = try r.time()
        latitude = try r.latitude()
        longitude = try r.longitude()
        let m = r.next()
        if !m.isEmpty {
            var best: FixQuality = .invalid
            for i in 0..<m.count {
                guard let q = FixQuality(modeIndicator: m[i]) else {
                    throw r.bad(m, expected: "mode letters A D E F M N P R S, one per system")
                }
                if q.rank > best.rank { best = q }
            }
            quality = best
        }
        satellitesUsed = try r.integer("satellite count")
        hdop = try r.unsignedDouble("HDOP")
        altitudeMSLMeters = try r.signedDouble("altitude in metres")
        geoidSeparationMeters = try r.signedDouble("geoid separation in metres")
        dgpsAgeSeconds = try r.unsignedDouble("age of differential data in seconds")
        dgpsStationID = try r.integer("differential station id")
        navigationalStatus = r.letter()
    }
}

extension FixQuality {
    /// Orders qualities from none to best, to pick the best of several systems' modes.
    var rank: Int {
        switch self {
        case .invalid: 0
        case .simulated: 1
        case .manual: 2
        case .estimated: 3
        case .gps: 4
        case .dgps: 5
        case .pps: 6
        case .rtkFloat: 7
        case .rtkFixed: 8
        }
    }
}
