import GPSCore
import NMEA
import Testing

/// An RMC as a receiver sent it and what it must decode to.
struct RMCCase: Sendable, CustomTestStringConvertible {
    var receiver: String
    var line: String
    var time: TimeOfDay?
    var isValid: Bool?
    var latitude: Double?
    var longitude: Double?
    var knots: Double?
    var course: Double?
    var date: CalendarDate?
    var variation: Double?
    var mode: FixQuality?
    var navigationalStatus: Character?

    var testDescription: String { receiver }
}

@Suite("RMC")
struct RMCTests {
    static let receivers: [RMCCase] = [
        RMCCase(receiver: "bu353s4 (NMEA 2.3 mode, no variation)",
                line: "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D",
                time: TimeOfDay(hour: 3, minute: 7, second: 19), isValid: true, latitude: -degrees(37, 47.0873),
                longitude: degrees(175, 18.8938), knots: 0.69, course: 181.39,
                date: CalendarDate(year: 2014, month: 12, day: 31), variation: nil, mode: .gps),
        RMCCase(receiver: "ublox-neo-m9n (NMEA 4.11: DGPS mode, navigational status V, no course)",
                line: "$GNRMC,223745.00,A,3806.62964,N,12237.61382,W,0.040,,110720,,,D,V*0E",
                time: TimeOfDay(hour: 22, minute: 37, second: 45), isValid: true, latitude: degrees(38, 6.62964),
                longitude: -degrees(122, 37.61382), knots: 0.04, course: nil,
                date: CalendarDate(year: 2020, month: 7, day: 11), variation: nil, mode: .dgps,
                navigationalStatus: "V"),
        RMCCase(receiver: "telit-pls83-w (Galileo, variation west)",
                line: "$GARMC,043539.00,A,4333.190206,N,00127.618380,E,0.0,,040925,1.7,W,A,V*6D",
                time: TimeOfDay(hour: 4, minute: 35, second: 39), isValid: true, latitude: degrees(43, 33.190206),
                longitude: degrees(1, 27.61838), knots: 0, course: nil,
                date: CalendarDate(year: 2025, month: 9, day: 4), variation: -1.7, mode: .gps,
                navigationalStatus: "V"),
        RMCCase(receiver: "ac12 (variation with leading zero)",
                line: "$GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A*2D",
                time: TimeOfDay(hour: 19, minute: 32, second: 21), isValid: true, latitude: degrees(20, 37.7279),
                longitude: -degrees(87, 4.0848), knots: 0.1, course: 201.8,
                date: CalendarDate(year: 2007, month: 12, day: 23), variation: -1, mode: .gps),
        RMCCase(receiver: "humminbird-M37 (NMEA 2.0: no mode)",
                line: "$INRMC,194101,A,4426.1130,N,07140.5596,W,5.2,77.3,160906,15.8,W*60",
                time: TimeOfDay(hour: 19, minute: 41, second: 1), isValid: true, latitude: degrees(44, 26.113),
                longitude: -degrees(71, 40.5596), knots: 5.2, course: 77.3,
                date: CalendarDate(year: 2006, month: 9, day: 16), variation: -15.8, mode: nil),
        RMCCase(receiver: "GPSmap-76S (simulator: status V, mode S)",
                line: "$GPRMC,125106,V,3854.5087,N,07726.4523,W,0.0,0.0,241011,10.5,W,S*28",
                time: TimeOfDay(hour: 12, minute: 51, second: 6), isValid: false, latitude: degrees(38, 54.5087),
                longitude: -degrees(77, 26.4523), knots: 0, course: 0,
                date: CalendarDate(year: 2011, month: 10, day: 24), variation: -10.5, mode: .simulated),
        RMCCase(receiver: "beidou-bd (no fix yet, date known)",
                line: "$GNRMC,074150.799,V,,,,,,,250215,,,N*52",
                time: TimeOfDay(hour: 7, minute: 41, second: 50, microsecond: 799_000), isValid: false,
                date: CalendarDate(year: 2015, month: 2, day: 25), mode: .invalid),
        RMCCase(receiver: "motorola-t805 (variation without E/W, its sign unknown: the mode moves up a field)",
                line: "$GPRMC,212607.891,V,,,,,,,181207,0,N*5C",
                time: TimeOfDay(hour: 21, minute: 26, second: 7, microsecond: 891_000), isValid: false,
                date: CalendarDate(year: 2007, month: 12, day: 18), variation: nil, mode: .invalid),
        RMCCase(receiver: "april6_2019 (year 99 as sent)",
                line: "$GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A*59",
                time: TimeOfDay(hour: 0, minute: 2, second: 31, microsecond: 420_000), isValid: true,
                latitude: degrees(48, 29.0005), longitude: degrees(0, 22.0016), knots: 0.16, course: 212.28,
                date: CalendarDate(year: 1999, month: 8, day: 22), mode: .gps),
    ]

    @Test("RMC from real receivers decodes every field", arguments: receivers)
    func realReceivers(c: RMCCase) throws {
        let r = try #require(try decode(c.line).sentence.rmc)
        #expect(r.time == c.time)
        #expect(r.isValid == c.isValid)
        #expect(agree(r.latitude, c.latitude))
        #expect(agree(r.longitude, c.longitude))
        #expect(agree(r.speedMetersPerSecond, c.knots.map { $0 * 1852 / 3600 }))
        #expect(r.courseDegrees == c.course)
        #expect(r.date == c.date)
        #expect(r.magneticVariationDegrees == c.variation)
        #expect(r.mode == c.mode)
        #expect(r.navigationalStatus == c.navigationalStatus?.asciiValue)
    }

    @Test("RMC with every field empty decodes to nils, never zeros")
    func emptyFields() throws {
        let r = try #require(try decode("$GPRMC,,V,,,,,,,,,,N*53").sentence.rmc)
        #expect(r.time == nil && r.latitude == nil && r.longitude == nil)
        #expect(r.speedMetersPerSecond == nil && r.courseDegrees == nil && r.date == nil)
        #expect(r.magneticVariationDegrees == nil && r.navigationalStatus == nil)
        #expect(r.isValid == false && r.mode == .invalid)
        let bare = try #require(try decode(sentence("GPRMC,,,,,,,,,,,,")).sentence.rmc)
        #expect(bare.isValid == nil && bare.mode == nil)
    }

    @Test("RMC variation east is positive")
    func variationEast() throws {
        let r = try #require(try decode(sentence("GPRMC,120000,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,E,A"))
            .sentence.rmc)
        #expect(r.magneticVariationDegrees == 3.1)
    }

    @Test("RMC navigational status letters of NMEA 4.10 are kept", arguments: ["S", "C", "U", "V"])
    func navigationalStatus(letter: String) throws {
        let r = try #require(try decode(sentence("GNRMC,120000,A,4807.038,N,01131.000,E,0.1,,230394,,,A,\(letter)"))
            .sentence.rmc)
        #expect(r.navigationalStatus == Character(letter).asciiValue)
    }

    @Test("RMC mode letters map to every quality", arguments: zip(
        ["A", "D", "P", "R", "F", "E", "M", "S", "N"],
        [FixQuality.gps, .dgps, .pps, .rtkFixed, .rtkFloat, .estimated, .manual, .simulated, .invalid]))
    func modes(letter: String, quality: FixQuality) throws {
        let r = try #require(try decode(sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,230394,,,\(letter)"))
            .sentence.rmc)
        #expect(r.mode == quality)
    }

    @Test("two-digit years: 80-99 are 1980-1999, 00-79 are 2000-2079", arguments: [
        (99, 1999), (80, 1980), (19, 2019), (0, 2000), (79, 2079), (14, 2014),
    ])
    func twoDigitYears(yy: Int, year: Int) throws {
        #expect(CalendarDate.nmeaYear(twoDigit: yy) == year)
        let ddmmyy = "0101" + (yy < 10 ? "0" : "") + String(yy)
        let r = try #require(try decode(sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,\(ddmmyy),,,A")).sentence.rmc)
        #expect(r.date == CalendarDate(year: year, month: 1, day: 1))
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: "$GPRMC,000231.099,A,4829.0005,N,00022.0015,E,0.15,212.28,2208-1,,,A*73",
                     sentence: "GPRMC", field: 9, found: "2208-1", expecting: "date"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,320394,,,A"),
                     sentence: "GPRMC", field: 9, found: "320394", expecting: "date"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,011394,,,A"),
                     sentence: "GPRMC", field: 9, found: "011394", expecting: "date"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,000394,,,A"),
                     sentence: "GPRMC", field: 9, found: "000394", expecting: "date"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,23031994,,,A"),
                     sentence: "GPRMC", field: 9, found: "23031994", expecting: "date"),
        BadFieldCase(line: sentence("GPRMC,120000,X,4807.038,N,01131.000,E,0.1,,230394,,,A"),
                     sentence: "GPRMC", field: 2, found: "X", expecting: "A or V"),
        BadFieldCase(line: sentence("GPRMC,120000,A,48x7.038,N,01131.000,E,0.1,,230394,,,A"),
                     sentence: "GPRMC", field: 3, found: "48x7.038", expecting: "latitude"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,Q,01131.000,E,0.1,,230394,,,A"),
                     sentence: "GPRMC", field: 4, found: "Q", expecting: "N or S"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,-0.1,,230394,,,A"),
                     sentence: "GPRMC", field: 7, found: "-0.1", expecting: "knots"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,north,230394,,,A"),
                     sentence: "GPRMC", field: 8, found: "north", expecting: "course"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,230394,3.1,X,A"),
                     sentence: "GPRMC", field: 11, found: "X", expecting: "E or W"),
        BadFieldCase(line: sentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.1,,230394,,,Z"),
                     sentence: "GPRMC", field: 12, found: "Z", expecting: "mode"),
    ]

    @Test("a bad RMC field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
