import GPSCore

/// A fix time as GPX's `xsd:dateTime` needs it: a real calendar date in years 1...9999
/// and a time of day in 00:00:00..<24:00:00, UTC.
///
/// A leap second (`23:59:60.5`) is carried onto the next day (`00:00:00.5`), as
/// ``FixTime/microsecondsSinceEpoch`` counts it: most GPX readers reject second 60. A date
/// the calendar does not have (a receiver's 30 February) gives no timestamp at all rather
/// than a guessed one.
struct UTCTimestamp: Hashable {
    var date: CalendarDate
    /// Microseconds since midnight, 0..<86 400 000 000.
    var microsecondOfDay: Int64

    /// The timestamp of `time`, or `nil` when it has no date, or a date or time of day
    /// outside the calendar (month 13, 31 April, a time of day past 23:59:60.999999) or
    /// outside years 1...9999.
    init?(_ time: FixTime) {
        guard let date = time.date,
            (1...12).contains(date.month),
            (1...UTCTimestamp.daysInMonth(year: date.year, month: date.month)).contains(date.day),
            (0..<(TimeOfDay.microsecondsPerDay + TimeOfDay.microsecondsPerSecond))
                .contains(time.timeOfDay.microseconds)
        else { return nil }
        var timeOfDay = time.timeOfDay.microseconds
        var normalized = date
        if timeOfDay >= TimeOfDay.microsecondsPerDay {
            timeOfDay -= TimeOfDay.microsecondsPerDay
            normalized = date.next
        }
        guard (1...9999).contains(normalized.year) else { return nil }
        self.date = normalized
        self.microsecondOfDay = timeOfDay
    }

    /// Days in `month` (1...12) of the proleptic Gregorian `year`.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension UTCTimestamp {
    /// Most bytes ``ByteCursor/write(timestamp:)`` writes: `YYYY-MM-DDThh:mm:ss.ffffffZ`.
    static let maxBytes = 27
}

extension ByteCursor {
    /// Writes `YYYY-MM-DDThh:mm:ssZ`, with a fraction of the second only when it is not
    /// zero and without trailing zeros (`…:09.25Z`).
    @inline(__always)
    mutating func write(timestamp: UTCTimestamp) {
        write(timestamp.date.year, paddedTo: 4)
        write(byte: UInt8(ascii: "-"))
        write(timestamp.date.month, paddedTo: 2)
        write(byte: UInt8(ascii: "-"))
        write(timestamp.date.day, paddedTo: 2)
        write(byte: UInt8(ascii: "T"))
        let seconds = Int(timestamp.microsecondOfDay / TimeOfDay.microsecondsPerSecond)
        write(seconds / 3600, paddedTo: 2)
        write(byte: UInt8(ascii: ":"))
        write(seconds / 60 % 60, paddedTo: 2)
        write(byte: UInt8(ascii: ":"))
        write(seconds % 60, paddedTo: 2)
        var fraction = Int(timestamp.microsecondOfDay % TimeOfDay.microsecondsPerSecond)
        if fraction != 0 {
            var width = 6
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            write(byte: UInt8(ascii: "."))
            write(fraction, paddedTo: width)
        }
        write(byte: UInt8(ascii: "Z"))
    }
}

/// `time` as the writer writes a GPX `<time>`, or `nil` when the writer leaves the element
/// out (no date, or a date the calendar does not have). For tests and diagnostics.
package func gpxTimestampString(_ time: FixTime) -> String? {
    guard let timestamp = UTCTimestamp(time) else { return nil }
    var buffer = OutputBuffer(capacity: UTCTimestamp.maxBytes)
    buffer.write(reserving: UTCTimestamp.maxBytes) { $0.write(timestamp: timestamp) }
    return buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}
