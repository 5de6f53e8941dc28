import GPSCore

/// ZDA: UTC time and full date.
///
/// | field | content |
/// |---|---|
/// | 1 | UTC time |
/// | 2 | day 01-31 |
/// | 3 | month 01-12 |
/// | 4 | year, four digits |
/// | 5 | local zone hours, -13...13 |
/// | 6 | local zone minutes |
///
/// Some receivers send it ahead of the cycle's other sentences (ac12: 2 s), so its time
/// sets the date but does not start an epoch.
public struct ZDA: Sendable, Hashable {
    public var time: TimeOfDay?
    public var date: CalendarDate?
    public var localZoneHours: Int?
    public var localZoneMinutes: Int?

    init(_ r: inout FieldReader) throws(NMEAError) {
        time = try r.time()
        let d = r.next(), m = r.next(), y = r.next()
        if !d.isEmpty || !m.isEmpty || !y.isEmpty {
            guard let day = d.integer(), (1...31).contains(day) else { throw r.bad(d, expected: "day 01-31") }
            guard let month = m.integer(), (1...12).contains(month) else { throw r.bad(m, expected: "month 01-12") }
            guard let year = y.integer(), y.count == 4 else { throw r.bad(y, expected: "four-digit year") }
            date = CalendarDate(year: year, month: month, day: day)
        }
        localZoneHours = try r.signedDouble("local zone hours").map { Int($0) }
        localZoneMinutes = try r.integer("local zone minutes")
    }
}
