import GPSCore

// The markup of one `<trkpt>` and of `<bounds>`, written straight into the output buffer.

extension ByteCursor {
    /// Writes `fix` as one `<trkpt>` line, at most ``GPXWriter/maxPointBytes`` bytes.
    ///
    /// `coordinate` is the fix's coordinate, checked valid by the caller.
    @inline(__always)
    mutating func write(point fix: Fix, at coordinate: Coordinate) {
        let coordinateDigits = GPXPrecision.coordinateFractionDigits
        write("      <trkpt lat=\"")
        if let latitude = scaledDecimal(coordinate.latitude, fractionDigits: coordinateDigits) {
            write(scaled: latitude, fractionDigits: coordinateDigits)
        }
        write("\" lon=\"")
        if var longitude = scaledDecimal(coordinate.longitude, fractionDigits: coordinateDigits) {
            // GPX's longitudeType is -180 ≤ x < 180: 180 is the same meridian as -180.
            let halfTurn = 180 * Int64(powerOfTen(coordinateDigits))
            if longitude >= halfTurn { longitude -= 2 * halfTurn }
            write(scaled: longitude, fractionDigits: coordinateDigits)
        }
        write("\">")

        write(fix.altitudeMSLMeters, fractionDigits: GPXPrecision.heightFractionDigits, between: "<ele>", and: "</ele>")
        if let time = fix.time, let timestamp = UTCTimestamp(time) {
            write("<time>")
            write(timestamp: timestamp)
            write("</time>")
        }
        if let variation = fix.magneticVariationDegrees.flatMap({
            scaledAngle($0, fractionDigits: GPXPrecision.angleFractionDigits)
        }) {
            write("<magvar>")
            write(scaled: variation, fractionDigits: GPXPrecision.angleFractionDigits)
            write("</magvar>")
        }
        write(
            fix.geoidSeparationMeters, fractionDigits: GPXPrecision.heightFractionDigits,
            between: "<geoidheight>", and: "</geoidheight>")
        switch (fix.quality, fix.mode) {
        case (.dgps, _), (.rtkFixed, _), (.rtkFloat, _): write("<fix>dgps</fix>")
        case (.pps, _): write("<fix>pps</fix>")
        case (_, .threeD): write("<fix>3d</fix>")
        case (_, .twoD): write("<fix>2d</fix>")
        case (_, .noFix): write("<fix>none</fix>")
        }
        if let satellites = fix.satellitesUsed, satellites >= 0 {
            write("<sat>")
            write(integer: satellites)
            write("</sat>")
        }
        write(fix.hdop, fractionDigits: GPXPrecision.dopFractionDigits, between: "<hdop>", and: "</hdop>")
        write(fix.vdop, fractionDigits: GPXPrecision.dopFractionDigits, between: "<vdop>", and: "</vdop>")
        write(fix.pdop, fractionDigits: GPXPrecision.dopFractionDigits, between: "<pdop>", and: "</pdop>")
        write(
            fix.dgpsAgeSeconds, fractionDigits: GPXPrecision.dgpsAgeFractionDigits,
            between: "<ageofdgpsdata>", and: "</ageofdgpsdata>")
        if let station = fix.dgpsStationID, GPXPrecision.dgpsStationIDs.contains(station) {
            write("<dgpsid>")
            write(integer: station)
            write("</dgpsid>")
        }
        write(extensionsOf: fix)
        write("</trkpt>\n")
    }

    /// Writes `value` between the tags when the writer may write it (see `gpxScaled`).
    @inline(__always)
    private mutating func write(
        _ value: Double?, fractionDigits: Int, between open: StaticString, and close: StaticString
    ) {
        guard let value, let scaled = gpxScaled(value, fractionDigits: fractionDigits) else { return }
        write(open)
        write(scaled: scaled, fractionDigits: fractionDigits)
        write(close)
    }

    @inline(__always)
    private mutating func write(extensionsOf fix: Fix) {
        let speed = fix.speedMetersPerSecond.flatMap {
            gpxScaled($0, fractionDigits: GPXPrecision.speedFractionDigits)
        }
        let course = fix.courseDegrees.flatMap { scaledAngle($0, fractionDigits: GPXPrecision.angleFractionDigits) }
        let accuracy = fix.accuracy.flatMap(GPXAccuracy.init)
        guard speed != nil || course != nil || accuracy != nil else { return }
        write("<extensions>")
        if speed != nil || course != nil {
            // TrackPointExtension v2 order: atemp, wtemp, depth, hr, cad, speed, course, bearing.
            write("<gpxtpx:TrackPointExtension>")
            if let speed {
                write("<gpxtpx:speed>")
                write(scaled: speed, fractionDigits: GPXPrecision.speedFractionDigits)
                write("</gpxtpx:speed>")
            }
            if let course {
                write("<gpxtpx:course>")
                write(scaled: course, fractionDigits: GPXPrecision.angleFractionDigits)
                write("</gpxtpx:course>")
            }
            write("</gpxtpx:TrackPointExtension>")
        }
        if let accuracy {
            write(accuracy: accuracy)
        }
        write("</extensions>")
    }

    /// Writes the `<bounds …/>` line of a valid box.
    ///
    /// Longitudes stay on their side: an east edge at 180° is written as 179.999999999,
    /// since GPX's `longitudeType` excludes 180 and -180 would turn the box inside out.
    mutating func write(bounds: GPXBounds) {
        let digits = GPXPrecision.coordinateFractionDigits
        let longitudeLimit = 180 * Int64(powerOfTen(digits)) - 1
        let edges = [bounds.minLatitude, bounds.minLongitude, bounds.maxLatitude, bounds.maxLongitude].map {
            scaledDecimal($0, fractionDigits: digits) ?? 0
        }
        write("    <bounds minlat=\"")
        write(scaled: edges[0], fractionDigits: digits)
        write("\" minlon=\"")
        write(scaled: Swift.min(edges[1], longitudeLimit), fractionDigits: digits)
        write("\" maxlat=\"")
        write(scaled: edges[2], fractionDigits: digits)
        write("\" maxlon=\"")
        write(scaled: Swift.min(edges[3], longitudeLimit), fractionDigits: digits)
        write("\"/>\n")
    }
}

/// Decimals written per field: enough to keep what the receiver reports, no more.
enum GPXPrecision {
    /// Latitude and longitude: 1e-9° is 0.1 mm; NMEA's `ddmm.mmmmm` resolves 1.7e-7°.
    static let coordinateFractionDigits = 9
    /// Altitude and geoid height, metres: millimetres.
    static let heightFractionDigits = 3
    /// Speed, m/s: mm/s.
    static let speedFractionDigits = 3
    /// Course and magnetic variation, degrees: NMEA sends at most two decimals.
    static let angleFractionDigits = 2
    /// HDOP, VDOP, PDOP: NMEA sends at most two decimals.
    static let dopFractionDigits = 2
    /// Age of DGPS corrections, seconds: milliseconds.
    static let dgpsAgeFractionDigits = 3
    /// GPX's `dgpsStationType`.
    static let dgpsStationIDs = 0...1023
}
