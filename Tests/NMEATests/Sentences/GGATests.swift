import GPSCore
import NMEA
import Testing

/// A GGA as a receiver sent it and what it must decode to.
struct GGACase: Sendable, CustomTestStringConvertible {
    var receiver: String
    var line: String
    var time: TimeOfDay?
    var latitude: Double?
    var longitude: Double?
    var quality: FixQuality?
    var satellites: Int?
    var hdop: Double?
    var altitude: Double?
    var geoidSeparation: Double?
    var dgpsStation: Int?

    var testDescription: String { receiver }
}

@Suite("GGA")
struct GGATests {
    static let receivers: [GGACase] = [
        GGACase(receiver: "bu353s4 (SiRF-IV)",
                line: "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D",
                time: TimeOfDay(hour: 3, minute: 7, second: 19), latitude: -degrees(37, 47.0873),
                longitude: degrees(175, 18.8938), quality: .gps, satellites: 8, hdop: 1.1, altitude: 59.9,
                geoidSeparation: 23.7, dgpsStation: 0),
        GGACase(receiver: "ublox-neo-m9n (DGPS, negative geoid separation)",
                line: "$GNGGA,223745.00,3806.62964,N,12237.61382,W,2,12,0.54,83.1,M,-29.5,M,,0000*44",
                time: TimeOfDay(hour: 22, minute: 37, second: 45), latitude: degrees(38, 6.62964),
                longitude: -degrees(122, 37.61382), quality: .dgps, satellites: 12, hdop: 0.54, altitude: 83.1,
                geoidSeparation: -29.5, dgpsStation: 0),
        GGACase(receiver: "ac12 (below sea level, fractional seconds)",
                line: "$GPGGA,193221.00,2037.72792,N,08704.08478,W,1,04,1.7,-30.40,M,-13.9,M,,*7D",
                time: TimeOfDay(hour: 19, minute: 32, second: 21), latitude: degrees(20, 37.72792),
                longitude: -degrees(87, 4.08478), quality: .gps, satellites: 4, hdop: 1.7, altitude: -30.4,
                geoidSeparation: -13.9, dgpsStation: nil),
        GGACase(receiver: "GPSmap-76S (simulator, whole seconds)",
                line: "$GPGGA,125106,3854.5087,N,07726.4523,W,8,10,2.0,268.8,M,-33.9,M,,*7F",
                time: TimeOfDay(hour: 12, minute: 51, second: 6), latitude: degrees(38, 54.5087),
                longitude: -degrees(77, 26.4523), quality: .simulated, satellites: 10, hdop: 2.0, altitude: 268.8,
                geoidSeparation: -33.9, dgpsStation: nil),
        GGACase(receiver: "humminbird-M37 (no geoid model)",
                line: "$INGGA,194104,4426.1138,N,07140.5536,W,2,10,0.9,267.9,M,,,,*13",
                time: TimeOfDay(hour: 19, minute: 41, second: 4), latitude: degrees(44, 26.1138),
                longitude: -degrees(71, 40.5536), quality: .dgps, satellites: 10, hdop: 0.9, altitude: 267.9,
                geoidSeparation: nil, dgpsStation: nil),
        GGACase(receiver: "ch-4711 (GLONASS, millisecond time)",
                line: "$GLGGA,135654.997,5543.0328,N,03724.7197,E,1,04,02.3,165.6,M,14.6,M,,*71",
                time: TimeOfDay(hour: 13, minute: 56, second: 54, microsecond: 997_000),
                latitude: degrees(55, 43.0328), longitude: degrees(37, 24.7197), quality: .gps, satellites: 4,
                hdop: 2.3, altitude: 165.6, geoidSeparation: 14.6, dgpsStation: nil),
        GGACase(receiver: "telit-pls83-w (Galileo, six decimals)",
                line: "$GAGGA,043539.00,4333.190206,N,00127.618380,E,1,01,1.3,250.8,M,50.0,M,,*77",
                time: TimeOfDay(hour: 4, minute: 35, second: 39), latitude: degrees(43, 33.190206),
                longitude: degrees(1, 27.61838), quality: .gps, satellites: 1, hdop: 1.3, altitude: 250.8,
                geoidSeparation: 50.0, dgpsStation: nil),
        GGACase(receiver: "beidou-bd (no fix yet)",
                line: "$GNGGA,074150.799,,,,,0,00,,,M,0.0,M,,0000,*64",
                time: TimeOfDay(hour: 7, minute: 41, second: 50, microsecond: 799_000), latitude: nil,
                longitude: nil, quality: .invalid, satellites: 0, hdop: nil, altitude: nil,
                geoidSeparation: 0.0, dgpsStation: 0),
    ]

    @Test("GGA from real receivers decodes every field", arguments: receivers)
    func realReceivers(c: GGACase) throws {
        let g = try #require(try decode(c.line).sentence.gga)
        #expect(g.time == c.time)
        #expect(agree(g.latitude, c.latitude))
        #expect(agree(g.longitude, c.longitude))
        #expect(g.quality == c.quality)
        #expect(g.satellitesUsed == c.satellites)
        #expect(g.hdop == c.hdop)
        #expect(g.altitudeMSLMeters == c.altitude)
        #expect(g.geoidSeparationMeters == c.geoidSeparation)
        #expect(g.dgpsAgeSeconds == nil)
        #expect(g.dgpsStationID == c.dgpsStation)
    }

    @Test("GGA with every field empty decodes to nils, never zeros")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GPGGA,,,,,,,,,,,,,,")).sentence.gga)
        #expect(g == (try #require(try decode(sentence("GPGGA")).sentence.gga)))
        #expect(g.time == nil && g.latitude == nil && g.longitude == nil && g.quality == nil)
        #expect(g.satellitesUsed == nil && g.hdop == nil && g.altitudeMSLMeters == nil)
        #expect(g.geoidSeparationMeters == nil && g.dgpsAgeSeconds == nil && g.dgpsStationID == nil)
    }

    @Test("GGA differential age and station are read", arguments: [
        ("GPGGA,120000,4807.038,N,01131.000,E,2,08,0.9,545.4,M,46.9,M,3.2,0120", 3.2, 120),
        ("GPGGA,120000,4807.038,N,01131.000,E,4,08,0.9,545.4,M,46.9,M,1,0", 1.0, 0),
    ])
    func differential(body: String, age: Double, station: Int) throws {
        let g = try #require(try decode(sentence(body)).sentence.gga)
        #expect(g.dgpsAgeSeconds == age)
        #expect(g.dgpsStationID == station)
    }

    @Test("GGA quality 0...8 maps to every FixQuality", arguments: zip(0...8, [
        FixQuality.invalid, .gps, .dgps, .pps, .rtkFixed, .rtkFloat, .estimated, .manual, .simulated,
    ]))
    func qualities(value: Int, quality: FixQuality) throws {
        let g = try #require(try decode(sentence("GPGGA,120000,4807.038,N,01131.000,E,\(value),08,0.9,545.4,M,46.9,M,,"))
            .sentence.gga)
        #expect(g.quality == quality)
    }

    @Test("GGA satellite count written with a zero fraction is read as an integer")
    func looseSatelliteCount() throws {
        let g = try #require(try decode(sentence("GPGGA,120000,4807.038,N,01131.000,E,1,8.0,0.9,545.4,M,46.9,M,,"))
            .sentence.gga)
        #expect(g.satellitesUsed == 8)
    }

    @Test("a latitude exactly at a pole and a longitude exactly at the date line are accepted")
    func rangeLimits() throws {
        let g = try #require(try decode(sentence("GPGGA,120000,9000.000,S,18000.000,W,1,08,0.9,,,,,,")).sentence.gga)
        #expect(g.latitude == -90)
        #expect(g.longitude == -180)
    }

    @Test("a coordinate with as many decimals as fit is decoded, not overflowed", arguments: [
        ("1.00000000000000000", 1.0 / 60),
        ("5.12345678901234567", 5.12345678901234567 / 60),
        ("4807.03800000000000", degrees(48, 7.038)),
    ])
    func manyDecimals(field: String, latitude: Double) throws {
        let g = try #require(try decode(sentence("GPGGA,120000,\(field),N,01131.000,E,1,08,0.9,,,,,,")).sentence.gga)
        #expect(close(g.latitude, latitude, 1e-12))
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPGGA,123519,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 2, found: "48x7.038", expecting: "latitude"),
        BadFieldCase(line: sentence("GPGGA,123519,4860.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 2, found: "4860.000", expecting: "minutes under 60"),
        BadFieldCase(line: sentence("GPGGA,123519,9100.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 2, found: "9100.000", expecting: "90"),
        BadFieldCase(line: sentence("GPGGA,123519,9000.001,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 2, found: "9000.001", expecting: "90"),
        BadFieldCase(line: sentence("GPGGA,123519,-4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 2, found: "-4807.038", expecting: "latitude"),
        BadFieldCase(line: sentence("GPGGA,123519,0.000000000000000001,N,01131.000,E,1,08,0.9,,,,,,"),
                     sentence: "GPGGA", field: 2, found: "0.000000000000000001", expecting: "latitude"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 3, found: "X", expecting: "N or S"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,NS,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 3, found: "NS", expecting: "N or S"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 3, found: nil, expecting: "N or S"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,18000.001,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 4, found: "18000.001", expecting: "180"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01160.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 4, found: "01160.000", expecting: "minutes under 60"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01131.000,N,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 5, found: "N", expecting: "E or W"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 6, found: "9", expecting: "quality"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01131.000,E,1,eight,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 7, found: "eight", expecting: "satellite"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,-0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 8, found: "-0.9", expecting: "HDOP"),
        BadFieldCase(line: sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,F,46.9,M,,"),
                     sentence: "GPGGA", field: 10, found: "F", expecting: "M"),
        BadFieldCase(line: sentence("GPGGA,251519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 1, found: "251519", expecting: "time"),
        BadFieldCase(line: sentence("GPGGA,1235,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 1, found: "1235", expecting: "time"),
        BadFieldCase(line: sentence("GPGGA,126019,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 1, found: "126019", expecting: "time"),
        BadFieldCase(line: sentence("GPGGA,123519:00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                     sentence: "GPGGA", field: 1, found: "123519:00", expecting: "time"),
    ]

    @Test("a bad GGA field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }

    @Test("a leap second 23:59:60 is a valid time")
    func leapSecond() throws {
        let g = try #require(try decode(sentence("GPGGA,235960.5,,,,,0,00,,,M,,M,,")).sentence.gga)
        #expect(g.time == TimeOfDay(hour: 23, minute: 59, second: 60, microsecond: 500_000))
    }
}
