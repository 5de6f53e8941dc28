import GPSCore

/// GGA: time, position and fix data.
///
/// | field | content |
/// |---|---|
/// | 1 | UTC time hhmmss.ss |
/// | 2, 3 | latitude ddmm.mmmm, N/S |
/// | 4, 5 | longitude dddmm.mmmm, E/W |
/// | 6 | quality: 0 none, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 estimated, 7 manual, 8 simulator |
/// | 7 | satellites used (`08`, and `8.0` from some receivers) |
/// | 8 | HDOP |
/// | 9, 10 | altitude above mean sea level, `M` |
/// | 11, 12 | geoid separation, `M` (empty on receivers without a geoid model: humminbird-M37) |
/// | 13 | age of differential data, seconds |
/// | 14 | differential station id (`0000` from SiRF: bu353s4) |
public struct GGA: Sendable, Hashable {
    public var time: TimeOfDay?
    public var latitude: Double?
    public var longitude: Double?
    public var quality: FixQuality?
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitudeMSLMeters: Double?
    public var geoidSeparationMeters: Double?
    public var dgpsAgeSeconds: Double?
    public var dgpsStationID: Int?

    init(_ r: inout FieldReader) throws(NMEAError) {
        time = try r.time()
        latitude = try r.latitude()
        longitude = try r.longitude()
        let q = r.next()
        if !q.isEmpty {
            guard let v = q.integer(), let quality = FixQuality(ggaQuality: v) else {
                throw r.bad(q, expected: "fix quality 0-8")
            }
            self.quality = quality
        }
        satellitesUsed = try r.integer("satellite count")
        hdop = try r.unsignedDouble("HDOP")
        altitudeMSLMeters = try r.signedDouble("altitude in metres")
        try r.unit(UInt8(ascii: "M"), "M (metres)")
        geoidSeparationMeters = try r.signedDouble("geoid separation in metres")
        try r.unit(UInt8(ascii: "M"), "M (metres)")
        dgpsAgeSeconds = try r.unsignedDouble("age of differential data in seconds")
        dgpsStationID = try r.integer("differential station id")
    }
}
