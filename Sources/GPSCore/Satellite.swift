/// A global (or regional) navigation satellite system.
public enum Constellation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case gps
    case sbas
    case glonass
    case galileo
    case beidou
    case qzss
    case navic
    /// The talker or system id did not say (a `GN` sentence without a system id).
    case unknown

    public var description: String {
        switch self {
        case .gps: "GPS"
        case .sbas: "SBAS"
        case .glonass: "GLONASS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .qzss: "QZSS"
        case .navic: "NavIC"
        case .unknown: "unknown"
        }
    }
}

/// One satellite as a GSV sentence reports it.
public struct SatelliteInView: Sendable, Hashable {
    public var constellation: Constellation
    /// The satellite number as the receiver sent it (NMEA "PRN"; its range depends on the talker).
    public var prn: Int
    /// Elevation above the horizon in degrees, 0...90, when reported.
    public var elevationDegrees: Int?
    /// Azimuth from true north in degrees, 0...359, when reported.
    public var azimuthDegrees: Int?
    /// Carrier-to-noise density in dB-Hz, 0...99; absent when the satellite is not tracked.
    public var snr: Int?
    /// NMEA 4.10+ signal id (GSV last field), when sent.
    public var signalID: Int?
    /// Whether a GSA of the same epoch lists this satellite as used in the solution.
    public var used: Bool

    public init(
        constellation: Constellation, prn: Int, elevationDegrees: Int? = nil, azimuthDegrees: Int? = nil,
        snr: Int? = nil, signalID: Int? = nil, used: Bool = false
    ) {
        self.constellation = constellation
        self.prn = prn
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
        self.snr = snr
        self.signalID = signalID
        self.used = used
    }
}
