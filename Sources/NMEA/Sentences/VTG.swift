import GPSCore

/// VTG: course and speed over ground.
///
/// | field | content |
/// |---|---|
/// | 1, 2 | course, degrees true, `T` |
/// | 3, 4 | course, degrees magnetic, `M` |
/// | 5, 6 | speed, knots, `N` |
/// | 7, 8 | speed, km/h, `K` |
/// | 9 | mode indicator (NMEA 2.3+) |
public struct VTG: Sendable, Hashable {
    public var courseDegrees: Double?
    public var magneticCourseDegrees: Double?
    public var speedMetersPerSecond: Double?
    public var mode: FixQuality?

    /// A VTG with every field absent.
    init() {}

    init(_ r: inout FieldReader) throws(NMEAError) {
        courseDegrees = try r.unsignedDouble("course in degrees true")
        try r.unit(UInt8(ascii: "T"), "T (true)")
        magneticCourseDegrees = try r.unsignedDouble("course in degrees magnetic")
        try r.unit(UInt8(ascii: "M"), "M (magnetic)")
        let knots = try r.unsignedDouble("speed in knots")
        try r.unit(UInt8(ascii: "N"), "N (knots)")
        let kmh = try r.unsignedDouble("speed in km/h")
        try r.unit(UInt8(ascii: "K"), "K (km/h)")
        speedMetersPerSecond = knots.map { $0 * knot } ?? kmh.map { $0 / 3.6 }
        mode = try r.modeIndicator(r.next())
    }
}
