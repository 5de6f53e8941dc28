import GPSCore

/// trackd's own GPX extension: what trackd knows about a point that neither GPX 1.1 nor
/// Garmin's TrackPointExtension can say.
///
/// Namespace `https://trackd.dev/xmlschemas/TrackdExtension/v1`, prefix `trackd`. Its one
/// element goes inside a `<trkpt>`'s `<extensions>`, after `<gpxtpx:TrackPointExtension>`:
///
/// ```xml
/// <trackd:accuracy horizontal="4.2" vertical="7.1" source="gst"/>
/// <trackd:accuracy horizontal="6.92" source="dop" uere="4"/>
/// ```
///
/// `accuracy` is the point's ``PositionAccuracy``:
/// - `horizontal` (required): radius in metres within which the true position lies with
///   95 % confidence; a decimal ≥ 0.
/// - `vertical` (optional): 95 % bound on the altitude error in metres; a decimal ≥ 0.
/// - `source` (required): where the estimate came from. `gst`: the receiver's own 1-sigma
///   errors (NMEA GST) scaled to 95 %; `dop`: dilution of precision times an assumed
///   user-range error, scaled to 95 %; `gpsd`: gpsd's `eph`/`epv`.
/// - `uere` (only with `source="dop"`): the assumed 1-sigma user-range error, metres.
///
/// An estimate whose horizontal radius is not a finite number ≥ 0 (of at most 18 digits)
/// is left out; a vertical bound or UERE that is not is left out alone. Readers that do not
/// know the namespace skip the element: GPX processes `<extensions>` laxly.
public enum TrackdGPXExtension {
    /// The namespace URI of trackd's GPX extension elements.
    public static let namespace = "https://trackd.dev/xmlschemas/TrackdExtension/v1"
    /// Decimals written for accuracy values: centimetres, finer than any estimate means.
    static let accuracyFractionDigits = 2
}

/// A ``PositionAccuracy`` reduced to what `<trackd:accuracy>` writes: each value scaled
/// to ``TrackdGPXExtension/accuracyFractionDigits`` decimals, or absent when it is not a
/// finite number ≥ 0 of at most 18 digits.
struct GPXAccuracy {
    var horizontal: Int64
    var vertical: Int64?
    var source: PositionAccuracy.Source
    var uere: Int64?

    /// `nil` when the horizontal radius cannot be written.
    @inline(__always)
    init?(_ accuracy: PositionAccuracy) {
        guard let horizontal = GPXAccuracy.scaled(accuracy.horizontalMeters) else { return nil }
        self.horizontal = horizontal
        self.vertical = accuracy.verticalMeters.flatMap(GPXAccuracy.scaled)
        self.source = accuracy.source
        if case .dop(let uereMeters) = accuracy.source {
            self.uere = GPXAccuracy.scaled(uereMeters)
        }
    }

    @inline(__always)
    private static func scaled(_ meters: Double) -> Int64? {
        guard meters >= 0 else { return nil }
        return gpxScaled(meters, fractionDigits: TrackdGPXExtension.accuracyFractionDigits)
    }
}

extension GPXAccuracy {
    /// Most bytes ``ByteCursor/write(accuracy:)`` writes.
    static let maxBytes = 96 + 3 * DecimalLimits.maxScaledDecimalBytes
}

extension ByteCursor {
    /// Writes `<trackd:accuracy …/>` (see ``TrackdGPXExtension``).
    @inline(__always)
    mutating func write(accuracy: GPXAccuracy) {
        let digits = TrackdGPXExtension.accuracyFractionDigits
        write("<trackd:accuracy horizontal=\"")
        write(scaled: accuracy.horizontal, fractionDigits: digits)
        if let vertical = accuracy.vertical {
            write("\" vertical=\"")
            write(scaled: vertical, fractionDigits: digits)
        }
        switch accuracy.source {
        case .gst:
            write("\" source=\"gst")
        case .gpsd:
            write("\" source=\"gpsd")
        case .dop:
            write("\" source=\"dop")
            if let uere = accuracy.uere {
                write("\" uere=\"")
                write(scaled: uere, fractionDigits: digits)
            }
        }
        write("\"/>")
    }
}
