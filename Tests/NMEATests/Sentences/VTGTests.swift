import GPSCore
import NMEA
import Testing

@Suite("VTG")
struct VTGTests {
    private let knot = 1852.0 / 3600

    @Test("VTG with true and magnetic course (GPSmap-76S, NMEA 2.0)")
    func courses() throws {
        let v = try #require(try decode("$GPVTG,0.0,T,10.5,M,0.0,N,0.0,K*7A").sentence.vtg)
        #expect(v.courseDegrees == 0 && v.magneticCourseDegrees == 10.5)
        #expect(v.speedMetersPerSecond == 0)
        #expect(v.mode == nil)
    }

    @Test("VTG while moving (humminbird-M37): speed from knots")
    func moving() throws {
        let v = try #require(try decode("$INVTG,77.5,T,93.3,M,5.2,N,9.7,K*5B").sentence.vtg)
        #expect(v.courseDegrees == 77.5 && v.magneticCourseDegrees == 93.3)
        #expect(close(v.speedMetersPerSecond, 5.2 * knot))
    }

    @Test("VTG without a course (u-blox standing still) has it nil, not 0", arguments: [
        ("$GPVTG,,T,,M,0.020,N,0.038,K,A*2A", 0.02, FixQuality.gps),
        ("$GNVTG,,T,,M,0.040,N,0.075,K,D*3E", 0.04, .dgps),
    ])
    func noCourse(line: String, knots: Double, mode: FixQuality) throws {
        let v = try #require(try decode(line).sentence.vtg)
        #expect(v.courseDegrees == nil && v.magneticCourseDegrees == nil)
        #expect(close(v.speedMetersPerSecond, knots * knot))
        #expect(v.mode == mode)
    }

    @Test("VTG with only km/h takes the speed from it")
    func kilometresPerHour() throws {
        let v = try #require(try decode(sentence("GPVTG,90.0,T,,M,,N,36.0,K,A")).sentence.vtg)
        #expect(close(v.speedMetersPerSecond, 10))
    }

    @Test("VTG with every field empty decodes to nils")
    func emptyFields() throws {
        let v = try #require(try decode(sentence("GPVTG,,,,,,,,,")).sentence.vtg)
        #expect(v.courseDegrees == nil && v.magneticCourseDegrees == nil && v.speedMetersPerSecond == nil && v.mode == nil)
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPVTG,77.5,M,93.3,M,5.2,N,9.7,K,A"),
                     sentence: "GPVTG", field: 2, found: "M", expecting: "T"),
        BadFieldCase(line: sentence("GPVTG,77.5,T,93.3,M,-5.2,N,9.7,K,A"),
                     sentence: "GPVTG", field: 5, found: "-5.2", expecting: "knots"),
        BadFieldCase(line: sentence("GPVTG,77.5,T,93.3,M,5.2,K,9.7,K,A"),
                     sentence: "GPVTG", field: 6, found: "K", expecting: "N"),
        BadFieldCase(line: sentence("GPVTG,77.5,T,93.3,M,5.2,N,9.7,K,W"),
                     sentence: "GPVTG", field: 9, found: "W", expecting: "mode"),
    ]

    @Test("a bad VTG field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
