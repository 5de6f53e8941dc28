import CGPSShim
import GPSCore

/// What trackd keeps of gpsd's latest SKY report, to attach to the TPV fixes after it.
package struct GPSDSky: Sendable, Hashable {
    package var satellitesInView: [SatelliteInView]
    /// Satellites used in the solution; nil when the SKY listed none at all.
    package var satellitesUsed: Int?
    package var hdop: Double?
    package var vdop: Double?
    package var pdop: Double?

    package init(
        satellitesInView: [SatelliteInView] = [], satellitesUsed: Int? = nil,
        hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil
    ) {
        self.satellitesInView = satellitesInView
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }
}

/// The pure mapping from what libgps read (``trackd_gps_report``) to trackd's values.
///
/// gpsd leaves unknown numbers NaN; here they become `nil`.
package enum GPSDFixMapping {
    /// Whether the read was a TPV report: libgps starts a TPV's `set` mask with STATUS_SET,
    /// and the shim clears the mask before each read.
    package static func isTPV(_ report: trackd_gps_report) -> Bool {
        report.set & TRACKD_GPS_STATUS_SET != 0
    }

    /// Whether the read was a SKY report with satellites.
    package static func isSKY(_ report: trackd_gps_report) -> Bool {
        report.set & TRACKD_GPS_SATELLITE_SET != 0
    }

    /// The fix of a TPV report, with the satellites and DOPs of the latest SKY; nil when the
    /// TPV has no time (gpsd sends such TPVs before the receiver knows the time).
    ///
    /// - Mode 2 or 3 with a valid latitude and longitude is a fix with a coordinate; anything
    ///   else (mode 0 or 1, or NaN coordinates) is a no-fix with its time.
    /// - `altitudeMSLMeters` is gpsd's `altMSL`; `geoidSeparationMeters` is
    ///   `altHAE − altMSL` when both are known.
    /// - `accuracy`: gpsd's accuracy fields are 95 % estimates, the statistic trackd's
    ///   ``PositionAccuracy`` speaks, so they are taken as they are, with source `.gpsd`:
    ///   horizontal is `eph` (gpsd's 95 % horizontal error); when `eph` is unknown but
    ///   `epx` and `epy` (95 % bounds on the longitude and latitude errors) are known, it is
    ///   sqrt(epx² + epy²), the radius of the box they span, which is at least the 95 %
    ///   radius. Vertical is `epv`. Only fixes with a coordinate get an accuracy.
    /// - `quality` from gpsd's status (see ``quality(status:hasPosition:)``).
    package static func fix(from report: trackd_gps_report, sky: GPSDSky?) -> Fix? {
        guard isTPV(report), report.set & TRACKD_GPS_TIME_SET != 0, report.time_seconds != 0,
              let time = fixTime(seconds: report.time_seconds, nanoseconds: report.time_nanoseconds)
        else { return nil }
        var fix = Fix(time: time)
        let coordinate = Coordinate(latitude: report.latitude, longitude: report.longitude)
        if Int(report.mode) >= FixMode.twoD.rawValue, coordinate.isValid {
            fix.mode = Int(report.mode) >= FixMode.threeD.rawValue ? .threeD : .twoD
            fix.coordinate = coordinate
            fix.accuracy = accuracy(report)
        }
        fix.quality = quality(status: report.status, hasPosition: fix.hasPosition)
        fix.altitudeMSLMeters = known(report.alt_msl)
        if let hae = known(report.alt_hae), let msl = known(report.alt_msl) {
            fix.geoidSeparationMeters = hae - msl
        }
        fix.speedMetersPerSecond = known(report.speed)
        fix.courseDegrees = known(report.track)
        if let sky {
            fix.satellitesInView = sky.satellitesInView
            fix.satellitesUsed = sky.satellitesUsed
            fix.hdop = sky.hdop
            fix.vdop = sky.vdop
            fix.pdop = sky.pdop
        }
        return fix
    }

    /// What a SKY report says of the sky: satellites, how many are used, DOPs.
    package static func sky(from report: trackd_gps_report) -> GPSDSky {
        let count = max(0, min(Int(report.satellite_count), Int(TRACKD_GPS_MAX_SATELLITES)))
        let satellites = withUnsafeBytes(of: report.satellites) { raw in
            raw.bindMemory(to: trackd_gps_satellite.self).prefix(count).map(satellite)
        }
        return GPSDSky(
            satellitesInView: satellites,
            satellitesUsed: report.satellites_visible > 0 ? Int(report.satellites_used) : nil,
            hdop: known(report.hdop), vdop: known(report.vdop), pdop: known(report.pdop)
        )
    }

    /// The 95 % accuracy of a TPV report, or nil when gpsd gave no horizontal estimate.
    static func accuracy(_ report: trackd_gps_report) -> PositionAccuracy? {
        let horizontal: Double
        if let eph = known(report.eph) {
            horizontal = eph
        } else if let epx = known(report.epx), let epy = known(report.epy) {
            horizontal = (epx * epx + epy * epy).squareRoot()
        } else {
            return nil
        }
        return PositionAccuracy(horizontalMeters: horizontal, verticalMeters: known(report.epv), source: .gpsd)
    }

    /// The quality of a fix from gpsd's status (gps.h 3.22 STATUS_*): DGPS, RTK fixed and
    /// float, dead reckoning (`estimated`), surveyed-in or manual position (`manual`),
    /// simulated and PPS as such; any other status with a position is autonomous `gps`;
    /// without a position, `invalid`.
    package static func quality(status: Int32, hasPosition: Bool) -> FixQuality {
        guard hasPosition else { return .invalid }
        switch status {
        case TRACKD_GPS_STATUS_DGPS: return .dgps
        case TRACKD_GPS_STATUS_RTK_FIX: return .rtkFixed
        case TRACKD_GPS_STATUS_RTK_FLT: return .rtkFloat
        case TRACKD_GPS_STATUS_DR: return .estimated
        case TRACKD_GPS_STATUS_TIME: return .manual
        case TRACKD_GPS_STATUS_SIM: return .simulated
        case TRACKD_GPS_STATUS_PPS: return .pps
        default: return .gps
        }
    }

    /// The constellation of a u-blox gnssId, as gpsd reports it in SKY.
    package static func constellation(gnssID: Int32) -> Constellation {
        switch gnssID {
        case 0: .gps
        case 1: .sbas
        case 2: .galileo
        case 3: .beidou
        case 5: .qzss
        case 6: .glonass
        case 7: .navic
        default: .unknown  // 4 is IMES, indoor transmitters trackd has no name for
        }
    }

    /// One SKY satellite: the NMEA-style PRN gpsd gives (the svid when it gives none);
    /// elevation, azimuth and SNR rounded to whole units, SNR nil when 0 (not tracked).
    static func satellite(_ sat: trackd_gps_satellite) -> SatelliteInView {
        SatelliteInView(
            constellation: constellation(gnssID: sat.gnssid),
            prn: Int(sat.prn > 0 ? sat.prn : sat.svid),
            elevationDegrees: whole(sat.elevation),
            azimuthDegrees: whole(sat.azimuth),
            snr: whole(sat.ss).flatMap { $0 > 0 ? $0 : nil },
            used: sat.used
        )
    }

    /// UTC seconds and nanoseconds since 1970 as a dated ``FixTime``, to the nearest microsecond.
    static func fixTime(seconds: Int64, nanoseconds: Int64) -> FixTime? {
        guard (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        let microseconds = seconds * 1_000_000 + (nanoseconds + 500) / 1000
        let (days, inDay) = microseconds.quotientAndRemainder(dividingBy: TimeOfDay.microsecondsPerDay)
        let (day, micros) = inDay < 0 ? (days - 1, inDay + TimeOfDay.microsecondsPerDay) : (days, inDay)
        return FixTime(date: CalendarDate(daysSinceEpoch: Int(day)), timeOfDay: TimeOfDay(microseconds: micros))
    }

    /// `value`, or nil when libgps left it NaN (or it is infinite).
    static func known(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }

    static func whole(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e6 else { return nil }
        return Int(value.rounded())
    }
}
