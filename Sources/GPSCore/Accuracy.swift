/// An estimate of how far the reported position may be from the truth.
///
/// trackd always speaks of the **95 % radius**: the horizontal distance within which the
/// true position lies 95 % of the time (and, for `verticalMeters`, the 95 % bound on the
/// altitude error). Receivers report other statistics; `source` says where the number
/// came from and how it was converted.
public struct PositionAccuracy: Sendable, Hashable {
    /// Horizontal 95 % radius in metres.
    public var horizontalMeters: Double
    /// Vertical 95 % error bound in metres, when the source gives one.
    public var verticalMeters: Double?
    public var source: Source

    public init(horizontalMeters: Double, verticalMeters: Double?, source: Source) {
        self.horizontalMeters = horizontalMeters
        self.verticalMeters = verticalMeters
        self.source = source
    }

    /// Where an accuracy estimate came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The receiver's own 1-sigma error estimates (NMEA GST), scaled to 95 %.
        case gst
        /// Dilution of precision times an assumed 1-sigma user-range error (metres), scaled to 95 %.
        case dop(uereMeters: Double)
        /// gpsd's `eph`/`epv`, which gpsd documents as 95 % estimates.
        case gpsd

        public var description: String {
            switch self {
            case .gst: "gst"
            case .dop: "dop"
            case .gpsd: "gpsd"
            }
        }
    }
}

extension PositionAccuracy {
    /// Factor from a per-axis 1-sigma error to a 95 % horizontal radius, for a circular
    /// bivariate normal error: sqrt(-2 ln 0.05) = 2.4477.
    public static let horizontal95PerAxisSigma = 2.447_746_830_680_816
    /// Factor from a 1-sigma error to a two-sided 95 % bound, for a normal error.
    public static let vertical95PerSigma = 1.959_963_984_540_054

    /// An estimate from GST's 1-sigma latitude, longitude and altitude errors (metres).
    ///
    /// The two horizontal sigmas are pooled as sqrt((σlat² + σlon²) / 2) and scaled by
    /// ``horizontal95PerAxisSigma``; exact for a circular error, close for a mildly elliptic one.
    public static func fromGST(latitudeSigma: Double, longitudeSigma: Double, altitudeSigma: Double?)
        -> PositionAccuracy
    {
        let pooled = ((latitudeSigma * latitudeSigma + longitudeSigma * longitudeSigma) / 2).squareRoot()
        return PositionAccuracy(
            horizontalMeters: pooled * horizontal95PerAxisSigma,
            verticalMeters: altitudeSigma.map { $0 * vertical95PerSigma },
            source: .gst
        )
    }

    /// An estimate from HDOP (and VDOP) times an assumed 1-sigma user-range error.
    ///
    /// HDOP × UERE is the 1-sigma horizontal error summed over both axes (DRMS), so the
    /// per-axis sigma is HDOP × UERE / √2, scaled by ``horizontal95PerAxisSigma``.
    public static func fromDOP(hdop: Double, vdop: Double?, uereMeters: Double) -> PositionAccuracy {
        PositionAccuracy(
            horizontalMeters: hdop * uereMeters / 2.0.squareRoot() * horizontal95PerAxisSigma,
            verticalMeters: vdop.map { $0 * uereMeters * vertical95PerSigma },
            source: .dop(uereMeters: uereMeters)
        )
    }

    /// The assumed 1-sigma user-range error, in metres, for a fix of the given quality.
    ///
    /// Autonomous single-frequency GNSS is dominated by ionospheric and multipath error:
    /// 4 m is a typical modern figure (the GPS SPS performance standard's budget is larger,
    /// but receivers of the last decade do better). Differential and SBAS corrections bring
    /// it near 1 m; RTK to centimetres.
    public static func userRangeErrorMeters(for quality: FixQuality) -> Double {
        switch quality {
        case .dgps, .pps: 1.0
        case .rtkFixed: 0.02
        case .rtkFloat: 0.3
        case .estimated, .manual, .simulated, .invalid, .gps: 4.0
        }
    }
}
