import GPSCore
import GRDB

/// Writes a ``Fix`` into the columns the `point` and `raw_fix` tables share, and reads it back.
///
/// | column | meaning |
/// |---|---|
/// | `time_us` | microseconds since 1970 (POSIX, UTC), when the date is known; for ordering and queries |
/// | `time_of_day_us` | microseconds since midnight UTC as received (`23:59:60` stays itself) |
/// | `mode` | 1 no fix, 2 2D, 3 3D |
/// | `quality` | `gps`, `dgps`, `rtk-fixed`, … (``FixQuality``) |
/// | `latitude`, `longitude` | WGS-84 degrees |
/// | `altitude_msl_m`, `geoid_separation_m` | metres |
/// | `receiver_speed_mps`, `course_deg`, `magnetic_variation_deg` | as the receiver sent them |
/// | `hdop`, `vdop`, `pdop`, `satellites_used` | |
/// | `satellites_in_view`, `sky` | the count, and each satellite as `constellation:prn:elevation:azimuth:snr:signal:used` |
/// | `accuracy_m`, `vertical_accuracy_m` | 95 % radius and vertical bound, metres |
/// | `accuracy_source`, `uere_m` | `gst`, `dop` (with the assumed user-range error) or `gpsd` |
/// | `dgps_age_s`, `dgps_station` | differential corrections |
enum FixColumns {
    static func encode(_ fix: Fix, to container: inout PersistenceContainer) {
        container["time_us"] = fix.time?.microsecondsSinceEpoch
        container["time_of_day_us"] = fix.time?.timeOfDay.microseconds
        container["mode"] = fix.mode.rawValue
        container["quality"] = fix.quality.description
        container["latitude"] = fix.coordinate?.latitude
        container["longitude"] = fix.coordinate?.longitude
        container["altitude_msl_m"] = fix.altitudeMSLMeters
        container["geoid_separation_m"] = fix.geoidSeparationMeters
        container["receiver_speed_mps"] = fix.speedMetersPerSecond
        container["course_deg"] = fix.courseDegrees
        container["magnetic_variation_deg"] = fix.magneticVariationDegrees
        container["hdop"] = fix.hdop
        container["vdop"] = fix.vdop
        container["pdop"] = fix.pdop
        container["satellites_used"] = fix.satellitesUsed
        container["satellites_in_view"] = fix.satellitesInView.count
        container["sky"] = fix.satellitesInView.isEmpty ? nil : sky(fix.satellitesInView)
        container["accuracy_m"] = fix.accuracy?.horizontalMeters
        container["vertical_accuracy_m"] = fix.accuracy?.verticalMeters
        container["accuracy_source"] = fix.accuracy?.source.description
        if case .dop(let uere) = fix.accuracy?.source {
            container["uere_m"] = uere
        } else {
            container["uere_m"] = nil
        }
        container["dgps_age_s"] = fix.dgpsAgeSeconds
        container["dgps_station"] = fix.dgpsStationID
    }

    static func decode(_ row: Row) -> Fix {
        var fix = Fix()
        if let timeOfDay: Int64 = row["time_of_day_us"] {
            let date: CalendarDate? = (row["time_us"] as Int64?).map { posix in
                CalendarDate(daysSinceEpoch: Int(floorDivide(posix - timeOfDay, TimeOfDay.microsecondsPerDay)))
            }
            fix.time = FixTime(date: date, timeOfDay: TimeOfDay(microseconds: timeOfDay))
        }
        fix.mode = FixMode(rawValue: row["mode"] ?? 1) ?? .noFix
        let quality: String = row["quality"] ?? ""
        fix.quality = FixQuality.allCases.first { $0.description == quality } ?? .invalid
        if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
            fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        fix.altitudeMSLMeters = row["altitude_msl_m"]
        fix.geoidSeparationMeters = row["geoid_separation_m"]
        fix.speedMetersPerSecond = row["receiver_speed_mps"]
        fix.courseDegrees = row["course_deg"]
        fix.magneticVariationDegrees = row["magnetic_variation_deg"]
        fix.hdop = row["hdop"]
        fix.vdop = row["vdop"]
        fix.pdop = row["pdop"]
        fix.satellitesUsed = row["satellites_used"]
        fix.satellitesInView = satellites(row["sky"] ?? "")
        if let horizontal: Double = row["accuracy_m"] {
            let source: PositionAccuracy.Source
            switch row["accuracy_source"] as String? {
            case "gst": source = .gst
            case "gpsd": source = .gpsd
            default: source = .dop(uereMeters: row["uere_m"] ?? PositionAccuracy.userRangeErrorMeters(for: fix.quality))
            }
            fix.accuracy = PositionAccuracy(horizontalMeters: horizontal, verticalMeters: row["vertical_accuracy_m"], source: source)
        }
        fix.dgpsAgeSeconds = row["dgps_age_s"]
        fix.dgpsStationID = row["dgps_station"]
        return fix
    }

    /// `2:65:40:120:38::1 0:12:…`: constellation, PRN, elevation, azimuth, SNR, signal id,
    /// used (1 or 0); an unknown value is empty.
    static func sky(_ satellites: [SatelliteInView]) -> String {
        func text(_ value: Int?) -> String { value.map(String.init) ?? "" }
        return satellites.map { s in
            [String(s.constellation.rawValue), String(s.prn), text(s.elevationDegrees), text(s.azimuthDegrees),
             text(s.snr), text(s.signalID), s.used ? "1" : "0"].joined(separator: ":")
        }.joined(separator: " ")
    }

    static func satellites(_ sky: String) -> [SatelliteInView] {
        sky.split(separator: " ").compactMap { item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 7, let c = parts[0], let constellation = Constellation(rawValue: c), let prn = parts[1]
            else { return nil }
            return SatelliteInView(
                constellation: constellation, prn: prn, elevationDegrees: parts[2], azimuthDegrees: parts[3],
                snr: parts[4], signalID: parts[5], used: parts[6] == 1)
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
