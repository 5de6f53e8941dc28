import GPSCore

/// GLL: geographic position, latitude and longitude.
///
/// | field | content |
/// |---|---|
/// | 1, 2 | latitude, N/S |
/// | 3, 4 | longitude, E/W |
/// | 5 | UTC time (absent before NMEA 2.0; garmin48 sends it 1 s ahead of its RMC) |
/// | 6 | status `A` valid, `V` not valid |
/// | 7 | mode indicator (NMEA 2.3+) |
public struct GLL: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    public var time: TimeOfDay?
    public var isValid: Bool?
    public var mode: FixQuality?

    init(_ r: inout FieldReader) throws(NMEAError) {
        latitude = try r.latitude()
        longitude = try r.longitude()
        time = try r.time()
        isValid = try r.status()
        mode = try r.modeIndicator(r.next())
    }
}
