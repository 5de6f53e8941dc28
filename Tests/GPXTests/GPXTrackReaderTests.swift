import GPSCore
import GPX
import Testing

@Suite("GPX reader")
struct GPXTrackReaderTests {
    static func read(_ text: String) throws(GPXReadError) -> GPXTrackReader {
        try GPXTrackReader(bytes: Array(text.utf8), path: "walk.gpx")
    }

    @Test("What the writer writes reads back: segments, coordinates, time, elevation, speed and accuracy")
    func roundTrip() throws {
        var full = fullFix()
        full.coordinate = Coordinate(latitude: 47.38, longitude: 8.55)
        let document = try renderGPX(trackName: "Ridge & back") { writer in
            try writer.beginSegment()
            for second in 0..<3 { try writer.append(positionFix(second: second)) }
            try writer.beginSegment()
            try writer.append(full)
        }.text
        let gpx = try Self.read(document)
        #expect(gpx.name == "Ridge & back")
        #expect(gpx.segments.map(\.count) == [3, 1])
        let first = try #require(gpx.segments.first?.first)
        #expect(first.coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        #expect(first.secondsSinceEpoch == positionFix(second: 0).time?.secondsSinceEpoch)
        let last = try #require(gpx.segments.last?.last)
        #expect(last.altitudeMeters == 408.25)
        #expect(last.speedMetersPerSecond == 1.234)
        #expect(last.horizontalAccuracyMeters == 4.2)
        #expect(last.secondsSinceEpoch == full.time?.secondsSinceEpoch)
        #expect(gpx.skippedPoints == 0)
    }

    @Test("GPX 1.0's <speed>, a byte-order mark, comments, CDATA and other tracks' segments are read; the metadata name stands in")
    func otherProducers() throws {
        let document = "\u{FEFF}" + """
            <?xml version="1.0"?>
            <!-- from an old logger -->
            <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0">
              <metadata><name>Day out</name></metadata>
              <trk><trkseg>
                <trkpt lat="46.5" lon="7.5"><ele>1000</ele><speed>2.5</speed><desc><![CDATA[a <b> c]]></desc></trkpt>
              </trkseg></trk>
              <trk><trkseg><trkpt lat="46.6" lon="7.6"/></trkseg></trk>
            </gpx>
            """
        let gpx = try Self.read(document)
        #expect(gpx.name == "Day out")
        #expect(gpx.segments.map(\.count) == [1, 1])
        #expect(gpx.segments[0][0].speedMetersPerSecond == 2.5)
        #expect(gpx.segments[0][0].altitudeMeters == 1000)
        #expect(gpx.segments[1][0].coordinate == Coordinate(latitude: 46.6, longitude: 7.6))
    }

    @Test("A point with a missing or out-of-range lat or lon is skipped and counted")
    func invalidPointsSkipped() throws {
        let gpx = try Self.read("""
            <gpx><trk><trkseg>
              <trkpt lat="46.5" lon="7.5"/><trkpt lat="91" lon="7.5"/><trkpt lon="7.5"/><trkpt lat="x" lon="1"/>
              <trkpt lat="46.6" lon="7.6"/>
            </trkseg></trk></gpx>
            """)
        #expect(gpx.segments.map(\.count) == [2])
        #expect(gpx.skippedPoints == 3)
    }

    @Test("Not XML, another XML document and broken XML are errors naming the file, and the line for broken XML", arguments: [
        ("$GPRMC,123519,A,4807.038,N,01131.000,E*6A\n", "walk.gpx is not a GPX file", "not XML"),
        ("<kml><Document/></kml>", "walk.gpx is not a GPX file", "root element is <kml>"),
        ("<gpx>\n<trk>\n<trkseg>\n</trk></gpx>", "walk.gpx is not well-formed XML at line 4", "is the file complete?"),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">", "walk.gpx is not well-formed XML at line 1", "is the file complete?"),
        ("", "walk.gpx is not a GPX file", "not XML"),
    ])
    func errors(text: String, start: String, detail: String) {
        do {
            _ = try Self.read(text)
            Issue.record("\(text) was read as GPX")
        } catch {
            #expect(error.description.hasPrefix(start), "\(error)")
            #expect(error.description.contains(detail), "\(error)")
        }
    }
}
