import GPSCore

/// RMC: recommended minimum data: time, date, status, position, speed and course.
///
/// | field | content |
/// |---|---|
/// | 1 | UTC time hhmmss.ss |
/// | 2 | status: `A` valid, `V` warning (no fix, or a simulator: garmin-geko201) |
/// | 3, 4 | latitude, N/S |
/// | 5, 6 | longitude, E/W |
/// | 7 | speed over ground, knots |
/// | 8 | course over ground, degrees true |
/// | 9 | date ddmmyy (two-digit year: see ``CalendarDate/init(nmeaYear:)``; april6_2019 sends `2208-1`) |
/// | 10, 11 | magnetic variation, E/W |
/// | 12 | mode indicator (NMEA 2.3+): A D E F M N P R S |
/// | 13 | navigational status (NMEA 4.10+): S safe, C caution, U unsafe, V not valid |
public struct RMC: Sendable, Hashable {
    public var time: TimeOfDay?
    /// `true` for status `A`, `false` for `V`, nil when empty.
    public var isValid: Bool?
    public var latitude: Double?
    public var longitude: Double?
    public var speedMetersPerSecond: Double?
    public var courseDegrees: Double?
    public var date: CalendarDate?
    public var magneticVariationDegrees: Double?
    public var mode: FixQuality?
    public var navigationalStatus: UInt8?

    init(_ r: inout FieldReader) throws(NMEAError) {
        time = try r.time()
        isValid = try r.status()
        latitude = try r.latitude()
        longitude = try r.longitude()
        speedMetersPerSecond = try r.unsignedDouble("speed in knots").map { $0 * knot }
        courseDegrees = try r.unsignedDouble("course in degrees")
        let d = r.next()
        if !d.isEmpty {
            guard let v = d.integer(), d.count == 6 else { throw r.bad(d, expected: "date ddmmyy") }
            let day = v / 10_000, month = v / 100 % 100, year = v % 100
            guard (1...31).contains(day), (1...12).contains(month) else { throw r.bad(d, expected: "date ddmmyy") }
            date = CalendarDate(year: CalendarDate.nmeaYear(twoDigit: year), month: month, day: day)
        }
        let variation = try r.unsignedDouble("magnetic variation in degrees")
        let h = r.next()
        var m = r.next()
        switch h.character {
        case UInt8(ascii: "E"), nil: magneticVariationDegrees = variation
        case UInt8(ascii: "W"): magneticVariationDegrees = variation.map { -$0 }
        default:
            // motorola-t805 sends the variation without its E/W, so the mode lands in field 11.
            guard m.isEmpty, !r.hasMore, h.count == 1, let c = h.character, FixQuality(modeIndicator: c) != nil else {
                throw r.bad(h, expected: "E or W")
            }
            m = h
        }
        mode = try r.modeIndicator(m)
        navigationalStatus = r.letter()
    }
}

/// One knot in metres per second (1852 m per hour).
let knot = 1852.0 / 3600.0

extension CalendarDate {
    /// The full year for an NMEA two-digit year: 80-99 are 1980-1999 (GPS began in 1980),
    /// 00-79 are 2000-2079.
    ///
    /// A date shifted by a receiver's GPS week-rollover bug (1024 weeks, about 19.6 years)
    /// is passed through as sent, not corrected: april6_2019 reports `99` for 2019.
    public static func nmeaYear(twoDigit yy: Int) -> Int {
        yy >= 80 ? 1900 + yy : 2000 + yy
    }
}
