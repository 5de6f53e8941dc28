import GPSCore

/// GSV: satellites in view, up to four per sentence.
///
/// | field | content |
/// |---|---|
/// | 1 | number of GSV sentences in this set |
/// | 2 | this sentence's number, from 1 |
/// | 3 | satellites in view in all |
/// | 4-7, 8-11, 12-15, 16-19 | per satellite: number, elevation (deg), azimuth (deg), SNR (dB-Hz, empty when not tracked) |
/// | last | signal id (NMEA 4.10+): present when the field count is 4 k + 4 |
public struct GSV: Sendable, Hashable {
    public var sentenceCount: Int?
    public var sentenceNumber: Int?
    public var satellitesInView: Int?
    /// The satellites of this sentence, with `constellation` from the talker (or the
    /// satellite number for `GN`).
    public var satellites: [SatelliteInView]
    public var signalID: Int?

    init(_ r: inout FieldReader, talker: Talker, satellites wanted: Bool = true) throws(NMEAError) {
        sentenceCount = try r.integer("number of sentences")
        sentenceNumber = try r.integer("sentence number")
        satellitesInView = try r.integer("satellites in view")
        satellites = []
        guard wanted else { return }
        satellites.reserveCapacity(4)
        // Count the remaining fields to tell a trailing signal id from a satellite block.
        var probe = r
        var remaining = 0
        while probe.hasMore { _ = probe.next(); remaining += 1 }
        let blocks = min(remaining / 4, 4)
        for _ in 0..<blocks {
            let n = r.next()
            let elevation = try r.integer("elevation in degrees")
            let azimuth = try r.integer("azimuth in degrees")
            let snr = try r.integer("SNR in dB-Hz")
            if n.isEmpty { continue }
            guard let prn = n.integer() else { throw r.bad(n, expected: "satellite number") }
            let constellation = talker.constellation ?? Constellation(nmeaSatelliteNumber: prn)
            satellites.append(SatelliteInView(
                constellation: constellation, prn: prn,
                elevationDegrees: elevation.flatMap { $0 <= 90 ? $0 : nil },
                azimuthDegrees: azimuth.flatMap { $0 < 360 ? $0 : nil },
                snr: snr.flatMap { $0 <= 99 ? $0 : nil }))
        }
        if remaining % 4 == 1 {
            let s = r.next()
            if !s.isEmpty, let id = s.integer() {
                signalID = id
                for i in satellites.indices { satellites[i].signalID = id }
            }
        }
    }
}
