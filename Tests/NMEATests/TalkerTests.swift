import GPSCore
import NMEA
import Testing

@Suite("Talkers")
struct TalkerTests {
    /// Every talker id trackd names, the older aliases, and two it does not.
    static let talkers: [(id: String, talker: Talker, constellation: Constellation?)] = [
        ("GP", .gps, .gps), ("GL", .glonass, .glonass), ("GA", .galileo, .galileo), ("GB", .beidou, .beidou),
        ("BD", .beidou, .beidou), ("GQ", .qzss, .qzss), ("QZ", .qzss, .qzss), ("GI", .navic, .navic),
        ("GN", .combined, nil), ("IN", .other(UInt8(ascii: "I"), UInt8(ascii: "N")), nil),
        ("II", .other(UInt8(ascii: "I"), UInt8(ascii: "I")), nil),
    ]

    @Test("a GGA from every talker decodes, with its talker and constellation", arguments: talkers)
    func everyTalker(id: String, talker: Talker, constellation: Constellation?) throws {
        let decoded = try decode(sentence("\(id)GGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(decoded.talker == talker)
        #expect(decoded.talker.constellation == constellation)
        let g = try #require(decoded.sentence.gga)
        #expect(close(g.latitude, degrees(48, 7.038)))
    }

    @Test("talkers print as their canonical two letters", arguments: [
        (Talker.gps, "GP"), (.beidou, "GB"), (.qzss, "GQ"), (.combined, "GN"), (.other(0x49, 0x4E), "IN"),
    ])
    func descriptions(talker: Talker, text: String) {
        #expect(talker.description == text)
    }

    @Test("the same sentence type from two talkers has two addresses")
    func addressesDiffer() throws {
        let gp = try decode(sentence("GPGSA,A,1,,,,,,,,,,,,,,,"))
        let gn = try decode(sentence("GNGSA,A,1,,,,,,,,,,,,,,,"))
        let gp2 = try decode("$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33")
        #expect(gp.address != gn.address)
        #expect(gp.address == gp2.address)
    }
}
