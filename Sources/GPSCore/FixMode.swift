/// Whether a fix has a position, and in how many dimensions.
///
/// The values match gpsd's TPV `mode` and NMEA GSA field 2.
public enum FixMode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The receiver reported, but has no position.
    case noFix = 1
    /// Latitude and longitude only (too few satellites for altitude).
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    /// Whether the fix carries a position.
    public var hasPosition: Bool { self != .noFix }

    public var description: String {
        switch self {
        case .noFix: "none"
        case .twoD: "2d"
        case .threeD: "3d"
        }
    }
}

/// How a position was obtained: GGA field 6, or the RMC/GLL/GNS mode indicator.
public enum FixQuality: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No position (GGA quality 0, mode indicator `N`).
    case invalid
    /// Autonomous GNSS (GGA 1, mode `A`).
    case gps
    /// Differential: DGPS or SBAS corrections (GGA 2, mode `D`).
    case dgps
    /// Precise positioning service (GGA 3, mode `P`).
    case pps
    /// RTK with fixed integers (GGA 4, mode `R`).
    case rtkFixed
    /// RTK with float integers (GGA 5, mode `F`).
    case rtkFloat
    /// Estimated: dead reckoning (GGA 6, mode `E`).
    case estimated
    /// Position entered by hand (GGA 7, mode `M`).
    case manual
    /// Simulator output (GGA 8, mode `S`).
    case simulated

    /// Whether a position of this quality is a real position at all.
    public var isValid: Bool { self != .invalid }

    public var description: String {
        switch self {
        case .invalid: "invalid"
        case .gps: "gps"
        case .dgps: "dgps"
        case .pps: "pps"
        case .rtkFixed: "rtk-fixed"
        case .rtkFloat: "rtk-float"
        case .estimated: "estimated"
        case .manual: "manual"
        case .simulated: "simulated"
        }
    }
}
