import GPSCore
import NMEA
import Testing

@Suite("ZDA")
struct ZDATests {
    @Test("ZDA gives a four-digit date and the local zone", arguments: [
        ("$GPZDA,193223.00,23,12,2007,00,00*69", TimeOfDay(hour: 19, minute: 32, second: 23),
         CalendarDate(year: 2007, month: 12, day: 23), 0 as Int?, 0 as Int?),
        ("$INZDA,194104,16,09,2006,-05,00*73", TimeOfDay(hour: 19, minute: 41, second: 4),
         CalendarDate(year: 2006, month: 9, day: 16), -5, 0),
        ("$GNZDA,213712.000,12,02,2026,,*4B", TimeOfDay(hour: 21, minute: 37, second: 12),
         CalendarDate(year: 2026, month: 2, day: 12), nil, nil),
    ])
    func realReceivers(line: String, time: TimeOfDay, date: CalendarDate, zoneHours: Int?, zoneMinutes: Int?) throws {
        let z = try #require(try decode(line).sentence.zda)
        #expect(z.time == time)
        #expect(z.date == date)
        #expect(z.localZoneHours == zoneHours)
        #expect(z.localZoneMinutes == zoneMinutes)
    }

    @Test("ZDA before the receiver knows the time (bt451) has no time and no date")
    func unknownTime() throws {
        let z = try #require(try decode("$GPZDA,,,,,00,00*48").sentence.zda)
        #expect(z.time == nil && z.date == nil)
        #expect(z.localZoneHours == 0 && z.localZoneMinutes == 0)
    }

    @Test("ZDA with every field empty decodes to nils")
    func emptyFields() throws {
        let z = try #require(try decode(sentence("GPZDA,,,,,,")).sentence.zda)
        #expect(z.time == nil && z.date == nil && z.localZoneHours == nil && z.localZoneMinutes == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPZDA,193223.00,32,12,2007,00,00"),
                     sentence: "GPZDA", field: 2, found: "32", expecting: "day"),
        BadFieldCase(line: sentence("GPZDA,193223.00,23,13,2007,00,00"),
                     sentence: "GPZDA", field: 3, found: "13", expecting: "month"),
        BadFieldCase(line: sentence("GPZDA,193223.00,23,12,07,00,00"),
                     sentence: "GPZDA", field: 4, found: "07", expecting: "four-digit year"),
        BadFieldCase(line: sentence("GPZDA,193223.00,23,12,2007,x,00"),
                     sentence: "GPZDA", field: 5, found: "x", expecting: "zone"),
        BadFieldCase(line: sentence("GPZDA,19:32:23,23,12,2007,00,00"),
                     sentence: "GPZDA", field: 1, found: "19:32:23", expecting: "time"),
    ]

    @Test("a bad ZDA field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
