import GPSCore
import NMEA
import Testing

@Suite("GLL")
struct GLLTests {
    @Test("GLL with time, status and NMEA 2.3 mode (ais-nmea)")
    func withMode() throws {
        let g = try #require(try decode("$GPGLL,5250.53669,N,00542.34920,E,213950.00,A,A*67").sentence.gll)
        #expect(close(g.latitude, degrees(52, 50.53669)))
        #expect(close(g.longitude, degrees(5, 42.3492)))
        #expect(g.time == TimeOfDay(hour: 21, minute: 39, second: 50))
        #expect(g.isValid == true)
        #expect(g.mode == .gps)
    }

    @Test("GLL from a multi-constellation u-blox with DGPS mode")
    func dgps() throws {
        let g = try #require(try decode("$GNGLL,3806.62964,N,12237.61382,W,223745.00,A,D*6C").sentence.gll)
        #expect(close(g.longitude, -degrees(122, 37.61382)))
        #expect(g.mode == .dgps)
    }

    @Test("GLL from NMEA 2.0 (humminbird-M37): no mode")
    func noMode() throws {
        let g = try #require(try decode("$INGLL,4426.1130,N,07140.5579,W,194102,A*2C").sentence.gll)
        #expect(g.time == TimeOfDay(hour: 19, minute: 41, second: 2))
        #expect(g.isValid == true)
        #expect(g.mode == nil)
    }

    @Test("GLL from a simulator (GPSmap-76S): status V, mode S")
    func simulator() throws {
        let g = try #require(try decode("$GPGLL,3854.5087,N,07726.4523,W,125106,V,S*55").sentence.gll)
        #expect(g.isValid == false)
        #expect(g.mode == .simulated)
    }

    @Test("GLL before NMEA 2.0 has a position only")
    func positionOnly() throws {
        let g = try #require(try decode(sentence("GPGLL,4916.45,N,12311.12,W")).sentence.gll)
        #expect(close(g.latitude, degrees(49, 16.45)))
        #expect(close(g.longitude, -degrees(123, 11.12)))
        #expect(g.time == nil && g.isValid == nil && g.mode == nil)
    }

    @Test("GLL with every field empty decodes to nils")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GPGLL,,,,,,,")).sentence.gll)
        #expect(g.latitude == nil && g.longitude == nil && g.time == nil && g.isValid == nil && g.mode == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPGLL,48x7.038,N,01131.000,E,120000,A,A"),
                     sentence: "GPGLL", field: 1, found: "48x7.038", expecting: "latitude"),
        BadFieldCase(line: sentence("GPGLL,4807.038,E,01131.000,E,120000,A,A"),
                     sentence: "GPGLL", field: 2, found: "E", expecting: "N or S"),
        BadFieldCase(line: sentence("GPGLL,4807.038,N,19131.000,E,120000,A,A"),
                     sentence: "GPGLL", field: 3, found: "19131.000", expecting: "180"),
        BadFieldCase(line: sentence("GPGLL,4807.038,N,01131.000,,120000,A,A"),
                     sentence: "GPGLL", field: 4, found: nil, expecting: "E or W"),
        BadFieldCase(line: sentence("GPGLL,4807.038,N,01131.000,E,12000,A,A"),
                     sentence: "GPGLL", field: 5, found: "12000", expecting: "time"),
        BadFieldCase(line: sentence("GPGLL,4807.038,N,01131.000,E,120000,X,A"),
                     sentence: "GPGLL", field: 6, found: "X", expecting: "A or V"),
        BadFieldCase(line: sentence("GPGLL,4807.038,N,01131.000,E,120000,A,Q"),
                     sentence: "GPGLL", field: 7, found: "Q", expecting: "mode"),
    ]

    @Test("a bad GLL field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
