import GPSCore
import NMEA
import Testing

@Suite("GSV")
struct GSVTests {
    @Test("GSV from a GPS receiver: set position, count in view, four satellites (bu353s4)")
    func fourSatellites() throws {
        let g = try #require(try decode("$GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23*7B")
            .sentence.gsv)
        #expect(g.sentenceCount == 3 && g.sentenceNumber == 1 && g.satellitesInView == 12)
        #expect(g.signalID == nil)
        #expect(g.satellites == [
            SatelliteInView(constellation: .gps, prn: 17, elevationDegrees: 72, azimuthDegrees: 207, snr: 32),
            SatelliteInView(constellation: .gps, prn: 28, elevationDegrees: 59, azimuthDegrees: 95, snr: 31),
            SatelliteInView(constellation: .gps, prn: 6, elevationDegrees: 35, azimuthDegrees: 347, snr: 25),
            SatelliteInView(constellation: .gps, prn: 1, elevationDegrees: 29, azimuthDegrees: 132, snr: 23),
        ])
    }

    @Test("GSV satellites not tracked have no SNR, never 0 (bu353s4)")
    func untracked() throws {
        let g = try #require(try decode("$GPGSV,3,3,12,11,12,132,04,08,38,008,,02,35,348,,03,14,091,*73").sentence.gsv)
        #expect(g.satellites.map(\.snr) == [4, nil, nil, nil])
        #expect(g.satellites.map(\.prn) == [11, 8, 2, 3])
    }

    @Test("GSV of NMEA 4.10 ends with a signal id, given to each of its satellites", arguments: [
        ("$GPGSV,4,1,16,05,01,047,,10,29,224,,13,22,062,23,15,40,094,,1*65", Constellation.gps, 1, 4),
        ("$GLGSV,3,3,10,83,52,346,29,84,05,307,,1*72", .glonass, 1, 2),
        ("$GAGSV,3,1,10,03,44,149,40,05,42,071,39,08,08,190,,09,06,034,,7*74", .galileo, 7, 4),
        ("$GBGSV,3,1,10,29,76,355,50,35,35,274,41,30,31,073,48,26,30,301,,1*71", .beidou, 1, 4),
    ])
    func signalID(line: String, constellation: Constellation, signal: Int, count: Int) throws {
        let g = try #require(try decode(line).sentence.gsv)
        #expect(g.signalID == signal)
        #expect(g.satellites.count == count)
        #expect(g.satellites.allSatisfy { $0.signalID == signal && $0.constellation == constellation })
    }

    @Test("GSV with empty elevation and azimuth (quectel-eg25-g) has them nil")
    func emptyAngles() throws {
        let g = try #require(try decode("$GAGSV,1,1,03,07,23,126,,12,,,,24,19,329,,7*76").sentence.gsv)
        #expect(g.satellites.map(\.prn) == [7, 12, 24])
        #expect(g.satellites[1].elevationDegrees == nil && g.satellites[1].azimuthDegrees == nil)
        #expect(g.satellites.map(\.snr) == [nil, nil, nil])
        #expect(g.signalID == 7)
    }

    @Test("GSV empty satellite blocks are left out (QZSS from sl869)")
    func emptyBlocks() throws {
        let g = try #require(try decode("$QZGSV,1,1,01,193,34,332,,,,,,,,,,,,,*6A").sentence.gsv)
        #expect(g.satellites == [SatelliteInView(constellation: .qzss, prn: 193, elevationDegrees: 34, azimuthDegrees: 332)])
    }

    @Test("GSV constellation comes from the talker", arguments: [
        ("$BDGSV,1,1,03,214,34,246,25,206,08,330,,212,04,172,26*65", Constellation.beidou),
        ("$GBGSV,2,1,05,201,00,000,44,202,14,089,35,204,00,000,42,205,27,091,*66", .beidou),
        ("$GLGSV,3,1,10,79,81,336,,69,50,211,,70,47,307,,78,33,058,*6D", .glonass),
        ("$GAGSV,2,1,08,301,26,315,40,304,9,225,37,307,12,45,33,318,23,75,41*53", .galileo),
        (sentence("GQGSV,1,1,02,02,45,120,38,03,30,200,"), .qzss),
        (sentence("GIGSV,1,1,02,02,45,120,38,05,30,200,"), .navic),
    ])
    func constellationByTalker(line: String, constellation: Constellation) throws {
        let g = try #require(try decode(line).sentence.gsv)
        #expect(!g.satellites.isEmpty)
        #expect(g.satellites.allSatisfy { $0.constellation == constellation })
    }

    @Test("GSV from a combined or non-GNSS talker takes the constellation from the satellite number",
          arguments: ["GN", "IN"])
    func constellationByNumber(talker: String) throws {
        let g = try #require(try decode(sentence("\(talker)GSV,2,1,08,05,45,120,38,46,30,200,,70,10,010,20,303,60,300,41"))
            .sentence.gsv)
        #expect(g.satellites.map(\.constellation) == [.gps, .sbas, .glonass, .galileo])
    }

    @Test("GSV values out of range are dropped, not kept", arguments: [
        "GPGSV,1,1,01,12,91,120,38", "GPGSV,1,1,01,12,45,360,38", "GPGSV,1,1,01,12,45,120,100",
    ])
    func outOfRange(body: String) throws {
        let g = try #require(try decode(sentence(body)).sentence.gsv)
        let s = try #require(g.satellites.first)
        #expect(s.prn == 12)
        #expect([s.elevationDegrees, s.azimuthDegrees, s.snr].contains(nil))
    }

    @Test("GSV with every field empty decodes to nils")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GPGSV,,,,,,,")).sentence.gsv)
        #expect(g.sentenceCount == nil && g.sentenceNumber == nil && g.satellitesInView == nil)
        #expect(g.satellites.isEmpty && g.signalID == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPGSV,x,1,12,17,72,207,32"),
                     sentence: "GPGSV", field: 1, found: "x", expecting: "number of sentences"),
        BadFieldCase(line: sentence("GPGSV,3,1,12,1A,72,207,32"),
                     sentence: "GPGSV", field: 4, found: "1A", expecting: "satellite number"),
        BadFieldCase(line: sentence("GPGSV,3,1,12,17,high,207,32"),
                     sentence: "GPGSV", field: 5, found: "high", expecting: "elevation"),
        BadFieldCase(line: sentence("GPGSV,3,1,12,17,72,207,32,28,59,-95,31"),
                     sentence: "GPGSV", field: 10, found: "-95", expecting: "azimuth"),
        BadFieldCase(line: sentence("GPGSV,3,1,12,17,72,207,3.5"),
                     sentence: "GPGSV", field: 7, found: "3.5", expecting: "SNR"),
    ]

    @Test("a bad GSV field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
