import GPSCore

/// Text of NMEA 0183 fields and sentences, written with integer arithmetic only so that the
/// same numbers give the same characters on every platform.
enum NMEAText {
    /// `$body*hh` with CRLF: the checksum is the XOR of every byte of `body`.
    static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        return "$" + body + "*" + hex2(checksum) + "\r\n"
    }

    /// `value` with exactly `decimals` digits after the point, rounded half away from zero;
    /// never `-0.0`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        let scaled = (value * Double(decimalPowerOfTen(decimals))).rounded()
        let magnitude = Int64(scaled.magnitude)
        let scale = decimalPowerOfTen(decimals)
        var text = magnitude == 0 || scaled > 0 ? "" : "-"
        text += String(magnitude / scale)
        if decimals > 0 {
            text += "." + padded(Int(magnitude % scale), decimals)
        }
        return text
    }

    /// Latitude as `ddmm.mmmmm` and `N`/`S` (RMC and GGA fields 3-4 and 2-3).
    static func latitude(_ degrees: Double) -> (String, String) {
        let (d, minutes) = degreesAndMinutes(degrees.magnitude)
        return (padded(d, 2) + minutes, degrees < 0 ? "S" : "N")
    }

    /// Longitude as `dddmm.mmmmm` and `E`/`W`.
    static func longitude(_ degrees: Double) -> (String, String) {
        let (d, minutes) = degreesAndMinutes(degrees.magnitude)
        return (padded(d, 3) + minutes, degrees < 0 ? "W" : "E")
    }

    /// UTC time of day as `hhmmss.ss`.
    static func time(_ t: TimeOfDay) -> String {
        let centiseconds = Int(t.microseconds / 10_000)
        let seconds = centiseconds / 100
        return padded(seconds / 3600, 2) + padded(seconds / 60 % 60, 2) + padded(seconds % 60, 2)
            + "." + padded(centiseconds % 100, 2)
    }

    /// Date as `ddmmyy` (RMC field 9).
    static func date(_ d: CalendarDate) -> String {
        padded(d.day, 2) + padded(d.month, 2) + padded(d.year % 100, 2)
    }

    /// ISO 8601 with centiseconds: `2024-09-14T07:30:00.00Z`.
    static func isoTime(_ time: FixTime) -> String {
        let t = time.timeOfDay
        let centiseconds = Int(t.microseconds / 10_000)
        let seconds = centiseconds / 100
        var text = ""
        if let d = time.date {
            text = padded(d.year, 4) + "-" + padded(d.month, 2) + "-" + padded(d.day, 2) + "T"
        }
        return text + padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":"
            + padded(seconds % 60, 2) + "." + padded(centiseconds % 100, 2) + (time.date == nil ? "" : "Z")
    }

    /// `value` in decimal with at least `width` digits, zero-padded.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.utf8.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// Whole degrees and `mm.mmmmm`, rounded to 1e-5 minute (about 2 cm) with the carry
    /// into the degrees done in integers, so 59.999999' becomes the next degree.
    private static func degreesAndMinutes(_ magnitude: Double) -> (Int, String) {
        let units = Int64((magnitude * 60 * 100_000).rounded())
        let perDegree: Int64 = 60 * 100_000
        let degrees = Int(units / perDegree)
        let rest = Int(units % perDegree)
        return (degrees, padded(rest / 100_000, 2) + "." + padded(rest % 100_000, 5))
    }
}
