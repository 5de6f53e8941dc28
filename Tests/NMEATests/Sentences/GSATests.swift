import GPSCore
import NMEA
import Testing

@Suite("GSA")
struct GSATests {
    @Test("GSA from a GPS-only receiver (bu353s4)")
    func gpsOnly() throws {
        let g = try #require(try decode("$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33").sentence.gsa)
        #expect(g.fixMode == .threeD)
        #expect(g.satellites == [17, 28, 6, 1, 30, 20, 26, 13])
        #expect(g.pdop == 1.8 && g.hdop == 1.1 && g.vdop == 1.5)
        #expect(g.systemID == nil)
    }

    @Test("GSA of NMEA 4.11 names its system in field 18 (ublox-neo-m9n)", arguments: [
        ("$GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1*0E", 1, [29, 20, 18, 16, 51, 13, 44, 26]),
        ("$GNGSA,A,3,82,73,74,67,81,83,68,,,,,,0.99,0.54,0.83,2*08", 2, [82, 73, 74, 67, 81, 83, 68]),
        ("$GNGSA,A,3,03,05,30,27,15,,,,,,,,0.99,0.54,0.83,3*0D", 3, [3, 5, 30, 27, 15]),
        ("$GNGSA,A,3,32,28,30,33,27,,,,,,,,0.99,0.54,0.83,4*03", 4, [32, 28, 30, 33, 27]),
    ])
    func systemID(line: String, system: Int, satellites: [Int]) throws {
        let g = try #require(try decode(line).sentence.gsa)
        #expect(g.systemID == system)
        #expect(g.satellites == satellites)
        #expect(g.pdop == 0.99 && g.hdop == 0.54 && g.vdop == 0.83)
    }

    @Test("GSA 2D from a GLONASS receiver with zero-padded DOPs (ch-4711)")
    func glonass2D() throws {
        let g = try #require(try decode("$GLGSA,A,2,67,84,83,75,,,,,,,,,02.5,02.3,01.0*1C").sentence.gsa)
        #expect(g.fixMode == .twoD)
        #expect(g.satellites == [67, 84, 83, 75])
        #expect(g.pdop == 2.5 && g.hdop == 2.3 && g.vdop == 1.0)
    }

    @Test("GSA with no fix and no satellites leaves everything but the mode nil", arguments: [
        "$GNGSA,A,1,,,,,,,,,,,,,,,*00", "$BDGSA,A,1,,,,,,,,,,,,,,,,*23",
    ])
    func noFix(line: String) throws {
        let g = try #require(try decode(line).sentence.gsa)
        #expect(g.fixMode == .noFix)
        #expect(g.satellites.isEmpty)
        #expect(g.pdop == nil && g.hdop == nil && g.vdop == nil && g.systemID == nil)
    }

    @Test("GSA with every field empty decodes to nils")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GPGSA,,,,,,,,,,,,,,,,,,")).sentence.gsa)
        #expect(g.fixMode == nil && g.satellites.isEmpty && g.pdop == nil && g.hdop == nil && g.vdop == nil)
        #expect(g.systemID == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPGSA,A,4,17,28,,,,,,,,,,,1.8,1.1,1.5"),
                     sentence: "GPGSA", field: 2, found: "4", expecting: "fix mode"),
        BadFieldCase(line: sentence("GPGSA,A,3D,17,28,,,,,,,,,,,1.8,1.1,1.5"),
                     sentence: "GPGSA", field: 2, found: "3D", expecting: "fix mode"),
        BadFieldCase(line: sentence("GPGSA,A,3,17,2B,,,,,,,,,,,1.8,1.1,1.5"),
                     sentence: "GPGSA", field: 4, found: "2B", expecting: "satellite number"),
        BadFieldCase(line: sentence("GPGSA,A,3,17,28,,,,,,,,,,,1.8,1.1,-1.5"),
                     sentence: "GPGSA", field: 17, found: "-1.5", expecting: "VDOP"),
    ]

    @Test("a bad GSA field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
