import GPSCore

/// GST: the receiver's own pseudorange error statistics, 1-sigma, in metres.
///
/// | field | content |
/// |---|---|
/// | 1 | UTC time |
/// | 2 | RMS of the pseudorange residuals |
/// | 3 | error ellipse semi-major axis, 1-sigma |
/// | 4 | error ellipse semi-minor axis, 1-sigma |
/// | 5 | orientation of the semi-major axis, degrees from true north |
/// | 6 | latitude error, 1-sigma |
/// | 7 | longitude error, 1-sigma |
/// | 8 | altitude error, 1-sigma |
public struct GST: Sendable, Hashable {
    public var time: TimeOfDay?
    public var rms: Double?
    public var semiMajorMeters: Double?
    public var semiMinorMeters: Double?
    public var orientationDegrees: Double?
    public var latitudeSigmaMeters: Double?
    public var longitudeSigmaMeters: Double?
    public var altitudeSigmaMeters: Double?

    init(_ r: inout FieldReader) throws(NMEAError) {
        time = try r.time()
        rms = try r.unsignedDouble("RMS in metres")
        semiMajorMeters = try r.unsignedDouble("semi-major axis in metres")
        semiMinorMeters = try r.unsignedDouble("semi-minor axis in metres")
        orientationDegrees = try r.unsignedDouble("orientation in degrees")
        latitudeSigmaMeters = try r.unsignedDouble("latitude error in metres")
        longitudeSigmaMeters = try r.unsignedDouble("longitude error in metres")
        altitudeSigmaMeters = try r.unsignedDouble("altitude error in metres")
    }
}
