import GPSCore
import NMEA
import Testing

@Suite("GST")
struct GSTTests {
    @Test("GST from a u-blox NEO-M9N: every statistic")
    func ublox() throws {
        let g = try #require(try decode("$GNGST,223745.00,228650,2.5,2.4,126,0.98,1.0,3.1*41").sentence.gst)
        #expect(g.time == TimeOfDay(hour: 22, minute: 37, second: 45))
        #expect(g.rms == 228_650)
        #expect(g.semiMajorMeters == 2.5 && g.semiMinorMeters == 2.4 && g.orientationDegrees == 126)
        #expect(g.latitudeSigmaMeters == 0.98 && g.longitudeSigmaMeters == 1.0 && g.altitudeSigmaMeters == 3.1)
    }

    @Test("GST from a Septentrio PolaRx2")
    func polarx2() throws {
        let g = try #require(try decode("$GPGST,112257.00,0.387,317.719,3.872,1.791,317.563,10.659,180.746*61").sentence.gst)
        #expect(g.rms == 0.387)
        #expect(g.latitudeSigmaMeters == 317.563 && g.longitudeSigmaMeters == 10.659 && g.altitudeSigmaMeters == 180.746)
    }

    @Test("GST with zero-padded values (quectel-L70)")
    func zeroPadded() throws {
        let g = try #require(try decode("$GPGST,150119.000,004.0,008.7,004.7,132.3,006.8,007.2,00014*71").sentence.gst)
        #expect(g.rms == 4 && g.altitudeSigmaMeters == 14)
    }

    @Test("GST without the error ellipse (gr8013-w) has those fields nil, not 0")
    func noEllipse() throws {
        let g = try #require(try decode("$GNGST,181141.00,46,,,,4.7,1.9,5.3*4A").sentence.gst)
        #expect(g.semiMajorMeters == nil && g.semiMinorMeters == nil && g.orientationDegrees == nil)
        #expect(g.latitudeSigmaMeters == 4.7 && g.longitudeSigmaMeters == 1.9 && g.altitudeSigmaMeters == 5.3)
    }

    @Test("GST with every field empty decodes to nils")
    func emptyFields() throws {
        let g = try #require(try decode(sentence("GPGST,,,,,,,,")).sentence.gst)
        #expect(g.time == nil && g.rms == nil && g.semiMajorMeters == nil && g.semiMinorMeters == nil)
        #expect(g.orientationDegrees == nil && g.latitudeSigmaMeters == nil && g.longitudeSigmaMeters == nil)
        #expect(g.altitudeSigmaMeters == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPGST,112257.00,x,317.719,3.872,1.791,317.563,10.659,180.746"),
                     sentence: "GPGST", field: 2, found: "x", expecting: "RMS"),
        BadFieldCase(line: sentence("GPGST,112257.00,0.387,317.719,3.872,1.791,-317.563,10.659,180.746"),
                     sentence: "GPGST", field: 6, found: "-317.563", expecting: "latitude error"),
        BadFieldCase(line: sentence("GPGST,1122,0.387,317.719,3.872,1.791,317.563,10.659,180.746"),
                     sentence: "GPGST", field: 1, found: "1122", expecting: "time"),
    ]

    @Test("a bad GST field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
