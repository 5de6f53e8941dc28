/// A Gregorian calendar date in UTC, as a receiver reports it.
///
/// Not validated against the calendar beyond month 1...12 and day 1...31: a receiver's
/// date bug (a GPS week-rollover-shifted year, say) passes through unchanged so that it
/// can be seen, not silently "corrected".
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (proleptic Gregorian; negative before).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch z0: Int) {
        // Howard Hinnant's civil_from_days.
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// The next calendar day.
    public var next: CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + 1) }
    /// The previous calendar day.
    public var previous: CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch - 1) }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// ISO 8601 `YYYY-MM-DD`.
    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}

/// A UTC time of day with microsecond resolution, as an NMEA `hhmmss.sss` field gives it.
///
/// `microseconds` runs from 0 up to (but not including) 86 401 s, so that a leap second
/// (`235960`) can be represented.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let microsecondsPerSecond: Int64 = 1_000_000
    public static let microsecondsPerDay: Int64 = 86_400 * microsecondsPerSecond

    /// Microseconds since 00:00:00 UTC.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public init(hour: Int, minute: Int, second: Int, microsecond: Int = 0) {
        self.microseconds = Int64((hour * 60 + minute) * 60 + second) * TimeOfDay.microsecondsPerSecond
            + Int64(microsecond)
    }

    public var hour: Int { Int(microseconds / 3_600_000_000) }
    public var minute: Int { Int(microseconds / 60_000_000 % 60) }
    /// Whole seconds within the minute, 0...60.
    public var second: Int {
        let s = Int(microseconds / 1_000_000)
        return s >= 86_400 ? 60 : s % 60
    }
    /// Fraction of the second in microseconds, 0..<1_000_000.
    public var microsecond: Int { Int(microseconds % 1_000_000) }

    /// Seconds since midnight, with fraction.
    public var seconds: Double { Double(microseconds) / 1e6 }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.microseconds < b.microseconds }

    /// `hh:mm:ss` with the fraction only when it is not zero (`hh:mm:ss.25`).
    public var description: String {
        let hour = Int(min(microseconds, TimeOfDay.microsecondsPerDay - 1) / 3_600_000_000)
        var s = pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        let frac = microsecond
        if frac != 0 {
            var digits = pad(frac, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            s += "." + digits
        }
        return s
    }
}

/// The UTC time of a fix: always a time of day, and a date once one is known.
///
/// A receiver sends the time of day in every cycle but the date only in RMC or ZDA. Until a
/// date has been seen, `date` is `nil`: trackd never invents one.
public struct FixTime: Sendable, Hashable, CustomStringConvertible {
    public var date: CalendarDate?
    public var timeOfDay: TimeOfDay

    public init(date: CalendarDate?, timeOfDay: TimeOfDay) {
        self.date = date
        self.timeOfDay = timeOfDay
    }

    /// The time `microseconds` after 1970-01-01T00:00:00Z, with its date.
    public init(microsecondsSinceEpoch microseconds: Int64) {
        let (days, rest) = microseconds.quotientAndRemainder(dividingBy: TimeOfDay.microsecondsPerDay)
        let (day, time) = rest < 0 ? (days - 1, rest + TimeOfDay.microsecondsPerDay) : (days, rest)
        self.init(date: CalendarDate(daysSinceEpoch: Int(day)), timeOfDay: TimeOfDay(microseconds: time))
    }

    /// The time `seconds` after 1970-01-01T00:00:00Z, rounded to the microsecond.
    public init(secondsSinceEpoch seconds: Double) {
        self.init(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded()))
    }

    /// Microseconds since 1970-01-01T00:00:00Z, when the date is known. Leap seconds are
    /// not counted (POSIX time): `23:59:60` maps onto the next day's `00:00:00`.
    public var microsecondsSinceEpoch: Int64? {
        guard let date else { return nil }
        return Int64(date.daysSinceEpoch) * TimeOfDay.microsecondsPerDay + timeOfDay.microseconds
    }

    /// Seconds since 1970-01-01T00:00:00Z, when the date is known.
    public var secondsSinceEpoch: Double? {
        microsecondsSinceEpoch.map { Double($0) / 1e6 }
    }

    /// ISO 8601 (`2014-12-31T03:07:19Z`, with a fraction only when present), or the
    /// time of day alone (`03:07:19`) without a date.
    public var description: String {
        guard let date else { return timeOfDay.description }
        return date.description + "T" + timeOfDay.description + "Z"
    }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    var digits = String(value < 0 ? -value : value)
    while digits.utf8.count < width { digits = "0" + digits }
    return value < 0 ? "-" + digits : digits
}
