import GPSCore
import GPX
import Testing

private func time(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, microsecond: Int = 0
) -> FixTime {
    FixTime(
        date: CalendarDate(year: year, month: month, day: day),
        timeOfDay: TimeOfDay(hour: hour, minute: minute, second: second, microsecond: microsecond)
    )
}

@Suite("Timestamps")
struct TimestampTests {
    @Test(
        "UTC time with the fraction only when non-zero, trailing zeros trimmed",
        arguments: [
            (time(2024, 3, 5, 7, 8, 9), "2024-03-05T07:08:09Z"),
            (time(2024, 3, 5, 7, 8, 9, microsecond: 250_000), "2024-03-05T07:08:09.25Z"),
            (time(2024, 3, 5, 7, 8, 9, microsecond: 100_000), "2024-03-05T07:08:09.1Z"),
            (time(2024, 3, 5, 7, 8, 9, microsecond: 1), "2024-03-05T07:08:09.000001Z"),
            (time(2024, 3, 5, 7, 8, 9, microsecond: 123_456), "2024-03-05T07:08:09.123456Z"),
            (time(1999, 12, 31, 23, 59, 59, microsecond: 999_999), "1999-12-31T23:59:59.999999Z"),
            (time(2024, 2, 29, 0, 0, 0), "2024-02-29T00:00:00Z"),
            (time(987, 1, 1, 0, 0, 0), "0987-01-01T00:00:00Z"),
        ] as [(FixTime, String)]
    )
    func formatted(time: FixTime, expected: String) {
        #expect(gpxTimestampString(time) == expected)
    }

    @Test("A leap second is written as the next day's first second, which xsd:dateTime accepts")
    func leapSecond() {
        #expect(gpxTimestampString(time(2016, 12, 31, 23, 59, 60, microsecond: 500_000)) == "2017-01-01T00:00:00.5Z")
        #expect(gpxTimestampString(time(2015, 6, 30, 23, 59, 60)) == "2015-07-01T00:00:00Z")
    }

    @Test(
        "A time without a real calendar date has no timestamp",
        arguments: [
            FixTime(date: nil, timeOfDay: TimeOfDay(hour: 7, minute: 8, second: 9)),
            time(2023, 2, 29, 0, 0, 0),
            time(2024, 2, 30, 0, 0, 0),
            time(2024, 4, 31, 0, 0, 0),
            time(2024, 13, 1, 0, 0, 0),
            time(2024, 0, 1, 0, 0, 0),
            time(0, 1, 1, 0, 0, 0),
            time(10_000, 1, 1, 0, 0, 0),
            time(9999, 12, 31, 23, 59, 60),
            FixTime(date: sampleDate, timeOfDay: TimeOfDay(microseconds: -1)),
            FixTime(date: sampleDate, timeOfDay: TimeOfDay(microseconds: 86_401_000_000)),
        ]
    )
    func noTimestamp(time: FixTime) {
        #expect(gpxTimestampString(time) == nil)
    }

    @Test("A point whose fix has no date has no <time>, and the document validates")
    func pointWithoutDate() throws {
        var fix = positionFix()
        fix.time = FixTime(date: nil, timeOfDay: TimeOfDay(hour: 7, minute: 8, second: 9))
        let document = try renderGPX([fix, positionFix(second: 1)]).text
        #expect(elementTexts("time", in: document) == ["2024-03-05T07:00:01Z"])
        try GPXSchema.expectValid(document)
    }

    @Test("Fractional and leap-second times in a document validate as xsd:dateTime")
    func documentTimesValidate() throws {
        let times = [
            time(2024, 3, 5, 7, 8, 9, microsecond: 250_000),
            time(2016, 12, 31, 23, 59, 60, microsecond: 500_000),
            time(2024, 3, 5, 7, 8, 9, microsecond: 1),
        ]
        let fixes = times.map { time -> Fix in
            var fix = positionFix()
            fix.time = time
            return fix
        }
        let document = try renderGPX(fixes).text
        #expect(elementTexts("time", in: document).count == times.count)
        try GPXSchema.expectValid(document)
    }
}
