import GPSCore

/// The two-letter talker id at the start of a standard sentence's address (`GP` in `$GPGGA`).
///
/// Every talker is accepted: the constellation ones are named, and any other pair of
/// letters (`IN` from an integrated navigation system, `II` from instruments) is `.other`.
public enum Talker: Sendable, Hashable, CustomStringConvertible {
    /// GPS (`GP`).
    case gps
    /// GLONASS (`GL`).
    case glonass
    /// Galileo (`GA`).
    case galileo
    /// BeiDou (`GB`, or the older `BD`).
    case beidou
    /// QZSS (`GQ`, or the older `QZ`).
    case qzss
    /// NavIC / IRNSS (`GI`).
    case navic
    /// A combined multi-constellation solution (`GN`).
    case combined
    /// Any other talker, as its two ASCII bytes.
    case other(UInt8, UInt8)

    /// The talker for the two address bytes `a` `b`.
    @inlinable
    public init(_ a: UInt8, _ b: UInt8) {
        switch (a, b) {
        case (UInt8(ascii: "G"), UInt8(ascii: "P")): self = .gps
        case (UInt8(ascii: "G"), UInt8(ascii: "N")): self = .combined
        case (UInt8(ascii: "G"), UInt8(ascii: "L")): self = .glonass
        case (UInt8(ascii: "G"), UInt8(ascii: "A")): self = .galileo
        case (UInt8(ascii: "G"), UInt8(ascii: "B")), (UInt8(ascii: "B"), UInt8(ascii: "D")): self = .beidou
        case (UInt8(ascii: "G"), UInt8(ascii: "Q")), (UInt8(ascii: "Q"), UInt8(ascii: "Z")): self = .qzss
        case (UInt8(ascii: "G"), UInt8(ascii: "I")): self = .navic
        default: self = .other(a, b)
        }
    }

    /// The constellation this talker speaks for, or `nil` for `GN` and non-GNSS talkers.
    public var constellation: Constellation? {
        switch self {
        case .gps: .gps
        case .glonass: .glonass
        case .galileo: .galileo
        case .beidou: .beidou
        case .qzss: .qzss
        case .navic: .navic
        case .combined, .other: nil
        }
    }

    public var description: String {
        switch self {
        case .gps: "GP"
        case .glonass: "GL"
        case .galileo: "GA"
        case .beidou: "GB"
        case .qzss: "GQ"
        case .navic: "GI"
        case .combined: "GN"
        case .other(let a, let b): String(decoding: [a, b], as: UTF8.self)
        }
    }
}

extension Constellation {
    /// The constellation for an NMEA 4.10+ GNSS system id (GSA field 18, GSV signal tables).
    ///
    /// 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC (NMEA 4.11).
    public init?(nmeaSystemID id: Int) {
        switch id {
        case 1: self = .gps
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        case 6: self = .navic
        default: return nil
        }
    }

    /// The constellation a satellite number implies when the talker does not say (`GN`,
    /// NMEA before 4.10): 1-32 GPS, 33-64 SBAS, 65-96 GLONASS, 193-202 QZSS, 201-235 and
    /// 401-437 BeiDou (u-blox and SiRF numbering), 301-336 Galileo.
    public init(nmeaSatelliteNumber prn: Int) {
        switch prn {
        case 1...32: self = .gps
        case 33...64, 120...158: self = .sbas
        case 65...96: self = .glonass
        case 193...200: self = .qzss
        case 201...235, 401...437: self = .beidou
        case 301...336: self = .galileo
        default: self = .unknown
        }
    }
}
