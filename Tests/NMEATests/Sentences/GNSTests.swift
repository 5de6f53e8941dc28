import GPSCore
import NMEA
import Testing

@Suite("GNS")
struct GNSTests {
    @Test("GNS from a Quectel EG25-G (NMEA 4.10: mode per system, navigational status)")
    func quectel() throws {
        let g = try #require(try decode("$GNGNS,051347.00,6001.336799,N,03014.169008,E,AAN,09,0.9,16.5,18.0,,,V*55")
            .sentence.gns)
        #expect(g.time == TimeOfDay(hour: 5, minute: 13, second: 47))
        #expect(close(g.latitude, degrees(60, 1.336799)))
        #expect(close(g.longitude, degrees(30, 14.169008)))
        #expect(g.quality == .gps)
        #expect(g.satellitesUsed == 9)
        #expect(g.hdop == 0.9)
        #expect(g.altitudeMSLMeters == 16.5)
        #expect(g.geoidSeparationMeters == 18.0)
        #expect(g.dgpsAgeSeconds == nil && g.dgpsStationID == nil)
        #expect(g.navigationalStatus == UInt8(ascii: "V"))
    }

    @Test("GNS from a Telit PLS83-W with five systems")
    func telit() throws {
        let g = try #require(try decode("$GNGNS,043539.00,4333.190206,N,00127.618380,E,AAAAN,14,1.3,250.8,50.0,,,V*62")
            .sentence.gns)
        #expect(g.quality == .gps)
        #expect(g.satellitesUsed == 14)
        #expect(g.altitudeMSLMeters == 250.8)
    }

    @Test("GNS from a PolaRx2 (NMEA 3.0: no altitude, no navigational status)")
    func polarx2() throws {
        let g = try #require(try decode("$GPGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,*57").sentence.gns)
        #expect(close(g.latitude, degrees(38, 44.24011)))
        #expect(close(g.longitude, -degrees(9, 8.43828)))
        #expect(g.quality == .gps)
        #expect(g.hdop == 10.5)
        #expect(g.altitudeMSLMeters == nil && g.geoidSeparationMeters == nil && g.navigationalStatus == nil)
    }

    @Test("GNS with every system N is a no-fix with empty position fields")
    func noFix() throws {
        let g = try #require(try decode("$GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000*63").sentence.gns)
        #expect(g.quality == .invalid)
        #expect(g.latitude == nil && g.longitude == nil && g.hdop == nil && g.altitudeMSLMeters == nil)
        #expect(g.satellitesUsed == 0)
        #expect(g.geoidSeparationMeters == 0)
        #expect(g.dgpsStationID == 0)
    }

    @Test("GNS quality is the best mode over all systems", arguments: [
        ("NDA", FixQuality.dgps), ("ANR", .rtkFixed), ("FA", .rtkFloat), ("NNE", .estimated), ("SN", .simulated),
        ("N", .invalid), ("A", .gps), ("PA", .pps), ("MN", .manual),
    ])
    func bestMode(modes: String, quality: FixQuality) throws {
        let g = try #require(try decode(sentence("GNGNS,120000,4807.038,N,01131.000,E,\(modes),08,0.9,545.4,46.9,,,S"))
            .sentence.gns)
        #expect(g.quality == quality)
    }

    @Test("GNS with every field empty decodes to nils")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GNGNS,,,,,,,,,,,,,")).sentence.gns)
        #expect(g.time == nil && g.latitude == nil && g.longitude == nil && g.quality == nil)
        #expect(g.satellitesUsed == nil && g.hdop == nil && g.altitudeMSLMeters == nil)
        #expect(g.geoidSeparationMeters == nil && g.dgpsAgeSeconds == nil && g.dgpsStationID == nil)
        #expect(g.navigationalStatus == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GNGNS,120000,4807.038,N,01131.000,E,AXN,08,0.9,545.4,46.9,,,S"),
                     sentence: "GNGNS", field: 6, found: "AXN", expecting: "mode"),
        BadFieldCase(line: sentence("GNGNS,120000,4807.038,N,01131.000,E,A1,08,0.9,545.4,46.9,,,S"),
                     sentence: "GNGNS", field: 6, found: "A1", expecting: "mode"),
        BadFieldCase(line: sentence("GNGNS,120000,4867.038,N,01131.000,E,AA,08,0.9,545.4,46.9,,,S"),
                     sentence: "GNGNS", field: 2, found: "4867.038", expecting: "minutes under 60"),
        BadFieldCase(line: sentence("GNGNS,120000,4807.038,N,01131.000,W,AA,x8,0.9,545.4,46.9,,,S"),
                     sentence: "GNGNS", field: 7, found: "x8", expecting: "satellite"),
        BadFieldCase(line: sentence("GNGNS,120000,4807.038,N,01131.000,W,AA,08,0.9,545.4m,46.9,,,S"),
                     sentence: "GNGNS", field: 9, found: "545.4m", expecting: "altitude"),
    ]

    @Test("a bad GNS field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
