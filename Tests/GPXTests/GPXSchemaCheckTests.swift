import GPX
import Testing

/// A GPX document around one `<trkpt>` whose inside is `point`.
private func document(point: String, longitude: String = "8.5") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1" \
    xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
    xmlns:trackd="\(TrackdGPXExtension.namespace)">
    <trk><trkseg><trkpt lat="47.3" lon="\(longitude)">\(point)</trkpt></trkseg></trk>
    </gpx>

    """
}

/// The validation the other tests rely on rejects what it should: these documents are
/// written by hand, each with one mistake.
@Suite("Schema checks")
struct GPXSchemaCheckTests {
    @Test("A hand-written document without mistakes passes both checks")
    func control() throws {
        let valid = document(
            point: """
                <ele>1</ele><time>2024-03-05T07:00:00Z</time><extensions><gpxtpx:TrackPointExtension>\
                <gpxtpx:speed>1</gpxtpx:speed><gpxtpx:course>2</gpxtpx:course></gpxtpx:TrackPointExtension>\
                <trackd:accuracy horizontal="1" source="gst"/></extensions>
                """)
        #expect(try GPXSchema.validate(valid, against: .gpx).isValid)
        #expect(try GPXSchema.validate(valid, against: .combined).isValid)
    }

    @Test(
        "The GPX schema rejects what GPX 1.1 forbids",
        arguments: [
            document(point: "<time>2024-03-05T07:00:00Z</time><ele>1</ele>"),
            document(point: "", longitude: "180"),
            document(point: "<ele>1e3</ele>"),
            document(point: "<magvar>360</magvar>"),
            document(point: "<time>2016-12-31T23:59:60Z</time>"),
            document(point: "<dgpsid>1024</dgpsid>"),
        ]
    )
    func gpxSchemaRejects(invalid: String) throws {
        #expect(!(try GPXSchema.validate(invalid, against: .gpx).isValid))
    }

    @Test(
        "The combined schema rejects bad extension content that the GPX schema lets through",
        arguments: [
            document(point: """
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:course>2</gpxtpx:course>\
                <gpxtpx:speed>1</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>
                """),
            document(point: """
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:course>360.5</gpxtpx:course>\
                </gpxtpx:TrackPointExtension></extensions>
                """),
            document(point: #"<extensions><trackd:accuracy horizontal="1" source="guess"/></extensions>"#),
            document(point: #"<extensions><trackd:accuracy horizontal="-1" source="gst"/></extensions>"#),
            document(point: #"<extensions><trackd:accuracy source="gst"/></extensions>"#),
        ]
    )
    func combinedSchemaRejects(invalid: String) throws {
        #expect(try GPXSchema.validate(invalid, against: .gpx).isValid)
        #expect(!(try GPXSchema.validate(invalid, against: .combined).isValid))
    }
}
