import GPSCore

/// GSA: DOP and the satellites used in the solution.
///
/// | field | content |
/// |---|---|
/// | 1 | selection mode: `M` manual, `A` automatic 2D/3D |
/// | 2 | fix mode: 1 none, 2 2D, 3 3D |
/// | 3-14 | satellite numbers used, up to 12 (empty for unused slots) |
/// | 15 | PDOP |
/// | 16 | HDOP |
/// | 17 | VDOP |
/// | 18 | GNSS system id (NMEA 4.10+): 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC |
///
/// Multi-constellation receivers send one GSA per system in each epoch (`GN` talker, with or
/// without field 18: ublox-neo-m9n-nmea).
public struct GSA: Sendable, Hashable {
    public var fixMode: FixMode?
    /// Satellites used, as sent (empty when decoded without satellite details).
    public var satellites: [Int]
    /// How many satellite numbers the sentence lists.
    public var satelliteCount: Int
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
    public var systemID: Int?

    init(_ r: inout FieldReader, satellites wanted: Bool = true) throws(NMEAError) {
        _ = r.next()
        let m = r.next()
        if !m.isEmpty {
            guard let v = m.looseInteger(), let mode = FixMode(rawValue: v) else {
                throw r.bad(m, expected: "fix mode 1, 2 or 3")
            }
            fixMode = mode
        }
        satellites = []
        satelliteCount = 0
        for _ in 0..<12 {
            let f = r.next()
            if f.isEmpty { continue }
            guard let prn = f.integer() else { throw r.bad(f, expected: "satellite number") }
            satelliteCount += 1
            if wanted { satellites.append(prn) }
        }
        pdop = try r.unsignedDouble("PDOP")
        hdop = try r.unsignedDouble("HDOP")
        vdop = try r.unsignedDouble("VDOP")
        let s = r.next()
        systemID = s.isEmpty ? nil : s.looseInteger()
    }
}
