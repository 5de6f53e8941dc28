import Foundation
import GPSCore
import GPX
import Testing

@Suite("GPX document")
struct GPXWriterTests {
    @Test("A fix with every field writes each trkpt element once, and the document validates")
    func everyField() throws {
        let rendered = try renderGPX([fullFix()])
        let document = rendered.text
        try GPXSchema.expectValid(document)

        #expect(document.contains(#"<trkpt lat="47.376912345" lon="-8.541723456">"#))
        let expected: [(String, String)] = [
            ("ele", "408.25"), ("time", "2024-03-05T07:08:09.25Z"), ("magvar", "2.25"),
            ("geoidheight", "47.6"), ("fix", "dgps"), ("sat", "12"), ("hdop", "0.9"), ("vdop", "1.25"),
            ("pdop", "1.54"), ("ageofdgpsdata", "2.5"), ("dgpsid", "402"),
            ("gpxtpx:speed", "1.234"), ("gpxtpx:course", "271.5"),
        ]
        for (element, value) in expected {
            #expect(elementTexts(element, in: document) == [value], "<\(element)>")
        }
        #expect(document.contains(#"<trackd:accuracy horizontal="4.2" vertical="7.1" source="gst"/>"#))
        #expect(rendered.writer.pointsWritten == 1)
        #expect(rendered.writer.segmentsWritten == 1)
    }

    @Test("The root declares GPX 1.1, the http XMLSchema-instance namespace and both extension namespaces")
    func header() throws {
        let document = try renderGPX(creator: "trackd 1.0", metadata: GPXMetadata()) { _ in }.text
        #expect(document.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        for declaration in [
            #"version="1.1""#, #"creator="trackd 1.0""#,
            #"xmlns="http://www.topografix.com/GPX/1/1""#,
            #"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#,
            #"xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2""#,
            #"xmlns:trackd="\#(TrackdGPXExtension.namespace)""#,
        ] {
            #expect(document.contains(declaration), "\(declaration)")
        }
        #expect(!document.contains("https://www.w3.org/2001/XMLSchema-instance"))
    }

    @Test("Two beginSegment runs give two trksegs; repeated or early calls make no empty segment")
    func segments() throws {
        let rendered = try renderGPX(trackName: "Commute") { writer in
            try writer.beginSegment()
            for second in 0..<3 { try writer.append(positionFix(second: second)) }
            try writer.beginSegment()
            try writer.beginSegment()
            for second in 10..<12 { try writer.append(positionFix(second: second)) }
        }
        let document = rendered.text
        try GPXSchema.expectValid(document)
        #expect(occurrences(of: "<trkseg>", in: document) == 2)
        #expect(occurrences(of: "</trkseg>", in: document) == 2)
        #expect(occurrences(of: "<trk>", in: document) == 1)
        #expect(rendered.writer.segmentsWritten == 2)
        #expect(rendered.writer.pointsWritten == 5)
        let segments = document.components(separatedBy: "<trkseg>").dropFirst()
        #expect(segments.map { occurrences(of: "<trkpt ", in: $0) } == [3, 2])
        #expect(elementTexts("name", in: document) == ["Commute"])
    }

    @Test("A document without points has no trk and validates", arguments: [
        GPXMetadata(),
        GPXMetadata(name: "Nothing recorded", time: FixTime(date: sampleDate, timeOfDay: TimeOfDay(microseconds: 0))),
    ])
    func empty(metadata: GPXMetadata) throws {
        let rendered = try renderGPX(metadata: metadata, trackName: "Unused") { writer in
            try writer.beginSegment()
            try writer.append(Fix())
        }
        let document = rendered.text
        try GPXSchema.expectValid(document)
        #expect(!document.contains("<trk"))
        #expect(document.contains("<metadata>") == (metadata.name != nil))
        #expect(document.hasSuffix("</gpx>\n"))
        #expect(rendered.writer.pointsWritten == 0)
        #expect(rendered.writer.segmentsWritten == 0)
    }

    @Test("Metadata writes name, desc, time and bounds in schema order")
    func metadata() throws {
        let metadata = GPXMetadata(
            name: "Üetliberg", description: "Hike, then train",
            time: FixTime(date: sampleDate, timeOfDay: TimeOfDay(hour: 6, minute: 30, second: 0)),
            bounds: GPXBounds(minLatitude: 47.3, minLongitude: 8.4, maxLatitude: 47.4, maxLongitude: 8.55)
        )
        let document = try renderGPX(metadata: metadata) { _ in }.text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("name", in: document) == ["Üetliberg"])
        #expect(elementTexts("desc", in: document) == ["Hike, then train"])
        #expect(elementTexts("time", in: document) == ["2024-03-05T06:30:00Z"])
        #expect(document.contains(#"<bounds minlat="47.3" minlon="8.4" maxlat="47.4" maxlon="8.55"/>"#))
    }

    @Test("Text escapes <&\"> and drops control characters XML forbids, and reads back unchanged")
    func escaping() throws {
        let hostile = "Tom & Jerry's <\"route\">\u{1}\u{1B}\u{FFFE} \tend"
        let readable = "Tom & Jerry's <\"route\"> \tend"
        let document = try renderGPX(
            creator: hostile, metadata: GPXMetadata(name: hostile, description: hostile), trackName: hostile
        ) { try $0.append(positionFix()) }.text
        try GPXSchema.expectValid(document)
        #expect(document.contains("Tom &amp; Jerry's &lt;&quot;route&quot;&gt;"))

        let root = "/*[local-name()='gpx']"
        let paths = [
            "string(\(root)/@creator)",
            "string(\(root)/*[local-name()='metadata']/*[local-name()='name'])",
            "string(\(root)/*[local-name()='metadata']/*[local-name()='desc'])",
            "string(\(root)/*[local-name()='trk']/*[local-name()='name'])",
        ]
        for path in paths {
            #expect(try GPXSchema.evaluate(path, in: document) == readable, "\(path)")
        }
    }

    @Test("Text of any length, even all quotes, is written whole")
    func longText() throws {
        let quotes = String(repeating: "\"", count: 5_000)
        let long = String(repeating: "Grüezi <Zürich> & ", count: 10_000)  // larger than the buffer
        let document = try renderGPX(metadata: GPXMetadata(name: quotes, description: long), trackName: quotes) {
            try $0.append(positionFix())
        }.text
        try GPXSchema.expectValid(document)
        let metadata = "/*[local-name()='gpx']/*[local-name()='metadata']"
        #expect(try GPXSchema.evaluate("string(\(metadata)/*[local-name()='name'])", in: document) == quotes)
        #expect(try GPXSchema.evaluate("string(\(metadata)/*[local-name()='desc'])", in: document) == long)
    }

    @Test("A carriage return and line feed in a name survive parsing")
    func lineEnds() throws {
        let name = "line one\r\nline two"
        let document = try renderGPX(metadata: GPXMetadata(name: name)) { _ in }.text
        let path = "string(/*[local-name()='gpx']/*[local-name()='metadata']/*[local-name()='name'])"
        #expect(try GPXSchema.evaluate(path, in: document) == name)
    }

    @Test("A west (negative) magnetic variation is written as 360 minus it")
    func negativeMagneticVariation() throws {
        var fix = positionFix()
        fix.magneticVariationDegrees = -3.5
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("magvar", in: document) == ["356.5"])
    }

    @Test("A DGPS station id outside 0...1023 is left out", arguments: [-1, 1024, 5000, Int.max])
    func dgpsStationOutOfRange(station: Int) throws {
        var fix = positionFix()
        fix.dgpsStationID = station
        fix.dgpsAgeSeconds = 3
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("dgpsid", in: document).isEmpty)
        #expect(elementTexts("ageofdgpsdata", in: document) == ["3"])
    }

    @Test("A DGPS station id in 0...1023 is written", arguments: [0, 1023])
    func dgpsStationInRange(station: Int) throws {
        var fix = positionFix()
        fix.dgpsStationID = station
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("dgpsid", in: document) == [String(station)])
    }

    @Test(
        "The fix element comes from the quality, then the mode",
        arguments: [
            (FixQuality.dgps, FixMode.threeD, "dgps"),
            (.rtkFixed, .threeD, "dgps"),
            (.rtkFloat, .twoD, "dgps"),
            (.pps, .threeD, "pps"),
            (.gps, .threeD, "3d"),
            (.gps, .twoD, "2d"),
            (.estimated, .twoD, "2d"),
            (.invalid, .noFix, "none"),
        ] as [(FixQuality, FixMode, String)]
    )
    func fixType(quality: FixQuality, mode: FixMode, expected: String) throws {
        var fix = positionFix()
        fix.quality = quality
        fix.mode = mode
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("fix", in: document) == [expected])
    }

    @Test("Non-finite values leave their element out")
    func nonFiniteValues() throws {
        var fix = fullFix()
        fix.altitudeMSLMeters = .nan
        fix.geoidSeparationMeters = .infinity
        fix.hdop = -.infinity
        fix.magneticVariationDegrees = .nan
        fix.speedMetersPerSecond = .nan
        fix.courseDegrees = .infinity
        fix.accuracy = PositionAccuracy(horizontalMeters: .nan, verticalMeters: 3, source: .gst)
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        for element in ["ele", "geoidheight", "hdop", "magvar", "extensions"] {
            #expect(!document.contains("<\(element)>"), "<\(element)>")
        }
        #expect(elementTexts("vdop", in: document) == ["1.25"])
        for forbidden in ["nan", "inf", "e+", "e-"] {
            #expect(!document.lowercased().contains(forbidden), "\(forbidden)")
        }
    }

    @Test("Values needing more than 18 digits are left out; 18 digits are written")
    func oversizedValues() throws {
        var fix = positionFix()
        fix.altitudeMSLMeters = 1e300
        fix.hdop = 1e16  // 19 digits at 2 decimals
        fix.vdop = 1_234_567_890_123_456.75  // 18 digits at 2 decimals, exact in binary
        fix.speedMetersPerSecond = -1e20
        fix.accuracy = PositionAccuracy(horizontalMeters: 1e17, verticalMeters: 2, source: .gst)
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        for element in ["ele", "hdop", "extensions"] {
            #expect(!document.contains("<\(element)>"), "<\(element)>")
        }
        #expect(elementTexts("vdop", in: document) == ["1234567890123456.75"])
    }

    @Test("A point with every value at its longest fits the bytes reserved for a point, and validates")
    func longestPoint() throws {
        let longest = Fix(
            time: FixTime(date: sampleDate, timeOfDay: TimeOfDay(hour: 23, minute: 59, second: 59, microsecond: 999_999)),
            mode: .threeD, quality: .dgps,
            coordinate: Coordinate(latitude: -89.123_456_789, longitude: -179.123_456_789),
            altitudeMSLMeters: -987_654_321_098_765.4, geoidSeparationMeters: -987_654_321_098_765.4,
            speedMetersPerSecond: -987_654_321_098_765.4, courseDegrees: -0.01, magneticVariationDegrees: -0.01,
            hdop: -9_876_543_210_987_654, vdop: -9_876_543_210_987_654, pdop: -9_876_543_210_987_654,
            satellitesUsed: Int.max,
            accuracy: PositionAccuracy(
                horizontalMeters: 9_876_543_210_987_654, verticalMeters: 9_876_543_210_987_654,
                source: .dop(uereMeters: 9_876_543_210_987_654)),
            dgpsAgeSeconds: -987_654_321_098_765.4, dgpsStationID: 1023
        )
        let document = try renderGPX([longest]).text
        try GPXSchema.expectValid(document)
        let line = try #require(document.split(separator: "\n").first { $0.contains("<trkpt ") })
        #expect(line.utf8.count + 1 <= GPXWriter.maxPointBytes)
        for element in ["ele", "time", "magvar", "geoidheight", "sat", "hdop", "vdop", "pdop", "ageofdgpsdata", "dgpsid"] {
            #expect(elementTexts(element, in: document).count == 1, "<\(element)>")
        }
        #expect(line.contains(#"uere=""#))
        #expect(line.contains("<gpxtpx:speed>-"))
    }

    @Test("A fix without a valid coordinate is skipped and counted")
    func skippedFixes() throws {
        var outOfRange = positionFix()
        outOfRange.coordinate = Coordinate(latitude: 91, longitude: 0)
        var notANumber = positionFix()
        notANumber.coordinate = Coordinate(latitude: .nan, longitude: 0)
        let rendered = try renderGPX([Fix(), positionFix(), outOfRange, notANumber])
        try GPXSchema.expectValid(rendered.text)
        #expect(rendered.writer.pointsSkipped == 3)
        #expect(rendered.writer.pointsWritten == 1)
        #expect(occurrences(of: "<trkpt ", in: rendered.text) == 1)
    }

    @Test(
        "Longitude rounding to 180 is written as -180, which GPX's longitudeType allows",
        arguments: [180.0, 179.999_999_999_6, -180.0]
    )
    func antimeridian(longitude: Double) throws {
        let document = try renderGPX([positionFix(latitude: -16.5, longitude: longitude)]).text
        try GPXSchema.expectValid(document)
        #expect(document.contains(#"<trkpt lat="-16.5" lon="-180">"#))
    }

    @Test("Bounds reaching 180 keep their east edge just west of it and validate")
    func boundsAtAntimeridian() throws {
        let bounds = GPXBounds(minLatitude: -17, minLongitude: 179.5, maxLatitude: -16, maxLongitude: 180)
        let document = try renderGPX(metadata: GPXMetadata(bounds: bounds)) { _ in }.text
        try GPXSchema.expectValid(document)
        #expect(document.contains(#"minlon="179.5" maxlat="-16" maxlon="179.999999999""#))
    }

    @Test("Invalid bounds are left out", arguments: [
        GPXBounds(minLatitude: 10, minLongitude: 0, maxLatitude: 5, maxLongitude: 1),
        GPXBounds(minLatitude: .nan, minLongitude: 0, maxLatitude: 5, maxLongitude: 1),
        GPXBounds(minLatitude: 0, minLongitude: -181, maxLatitude: 5, maxLongitude: 1),
    ])
    func invalidBounds(bounds: GPXBounds) throws {
        let document = try renderGPX(metadata: GPXMetadata(bounds: bounds)) { _ in }.text
        try GPXSchema.expectValid(document)
        #expect(!document.contains("<bounds"))
        #expect(!document.contains("<metadata>"))
    }

    @Test("Course rounding to 360 is written as 0")
    func courseWraps() throws {
        var fix = positionFix()
        fix.courseDegrees = 359.999
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(elementTexts("gpxtpx:course", in: document) == ["0"])
    }

    @Test("Extensions are left out when empty, and hold only what the fix has")
    func extensionsContent() throws {
        var accuracyOnly = positionFix()
        accuracyOnly.accuracy = PositionAccuracy.fromDOP(hdop: 1, vdop: nil, uereMeters: 4)
        var speedOnly = positionFix(second: 1)
        speedOnly.speedMetersPerSecond = 0
        let plain = positionFix(second: 2)
        let document = try renderGPX([accuracyOnly, speedOnly, plain]).text
        try GPXSchema.expectValid(document)

        let points: [String] = Array(document.components(separatedBy: "<trkpt ").dropFirst(1))
        #expect(points.count == 3)
        guard points.count == 3 else { return }
        #expect(points[0].contains(#"<extensions><trackd:accuracy horizontal="6.92" source="dop" uere="4"/></extensions>"#))
        #expect(!points[0].contains("TrackPointExtension"))
        #expect(points[1].contains(
            "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>0</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
        ))
        #expect(!points[2].contains("<extensions>"))
    }

    @Test("gpsd accuracy without a vertical bound writes only the horizontal radius")
    func gpsdAccuracy() throws {
        var fix = positionFix()
        fix.accuracy = PositionAccuracy(horizontalMeters: 12.345, verticalMeters: nil, source: .gpsd)
        let document = try renderGPX([fix]).text
        try GPXSchema.expectValid(document)
        #expect(document.contains(#"<trackd:accuracy horizontal="12.35" source="gpsd"/>"#))
    }

    @Test("Random tracks with missing, odd and extreme values always validate")
    func randomTracks() throws {
        var generator = SeededGenerator(seed: 2024)
        func maybe(_ value: Double) -> Double? {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: nil
            case 1: .nan
            case 2: -.infinity
            case 3: Double(bitPattern: generator.next())
            default: value
            }
        }
        let sources: [PositionAccuracy.Source] = [.gst, .gpsd, .dop(uereMeters: 4)]
        let rendered = try renderGPX(trackName: "Random") { writer in
            for index in 0..<300 {
                if index > 0 && index % 50 == 0 { try writer.beginSegment() }
                let date = CalendarDate(
                    year: Int.random(in: 1980...2100, using: &generator), month: Int.random(in: 1...12, using: &generator),
                    day: Int.random(in: 1...31, using: &generator))
                let fix = Fix(
                    time: FixTime(
                        date: Bool.random(using: &generator) ? date : nil,
                        timeOfDay: TimeOfDay(microseconds: Int64.random(in: 0..<86_401_000_000, using: &generator))),
                    mode: FixMode.allCases.randomElement(using: &generator) ?? .threeD,
                    quality: FixQuality.allCases.randomElement(using: &generator) ?? .gps,
                    coordinate: Coordinate(
                        latitude: Double.random(in: -90...90, using: &generator),
                        longitude: Double.random(in: -180...180, using: &generator)),
                    altitudeMSLMeters: maybe(Double.random(in: -400...9000, using: &generator)),
                    geoidSeparationMeters: maybe(Double.random(in: -110...90, using: &generator)),
                    speedMetersPerSecond: maybe(Double.random(in: 0...400, using: &generator)),
                    courseDegrees: maybe(Double.random(in: -720...720, using: &generator)),
                    magneticVariationDegrees: maybe(Double.random(in: -180...180, using: &generator)),
                    hdop: maybe(Double.random(in: 0...99.99, using: &generator)),
                    vdop: maybe(Double.random(in: 0...99.99, using: &generator)),
                    pdop: maybe(Double.random(in: 0...99.99, using: &generator)),
                    satellitesUsed: Int.random(in: -2...64, using: &generator),
                    accuracy: Bool.random(using: &generator)
                        ? PositionAccuracy(
                            horizontalMeters: maybe(Double.random(in: 0...500, using: &generator)) ?? 1,
                            verticalMeters: maybe(Double.random(in: 0...500, using: &generator)),
                            source: sources.randomElement(using: &generator) ?? .gst)
                        : nil,
                    dgpsAgeSeconds: maybe(Double.random(in: 0...999, using: &generator)),
                    dgpsStationID: Int.random(in: -10...1100, using: &generator)
                )
                try writer.append(fix)
            }
        }
        try GPXSchema.expectValid(rendered.text)
        #expect(rendered.writer.pointsWritten == 300)
        #expect(rendered.writer.segmentsWritten == 6)
    }
}

@Suite("GPX bounds")
struct GPXBoundsTests {
    @Test("Bounds enclose every valid coordinate and ignore invalid ones")
    func enclosing() throws {
        let coordinates = [
            Coordinate(latitude: 47.1, longitude: 8.2),
            Coordinate(latitude: .nan, longitude: 100),
            Coordinate(latitude: 46.9, longitude: 8.7),
            Coordinate(latitude: 95, longitude: 8.5),
            Coordinate(latitude: 47.3, longitude: 8.4),
        ]
        let bounds = try #require(GPXBounds(enclosing: coordinates))
        #expect(bounds == GPXBounds(minLatitude: 46.9, minLongitude: 8.2, maxLatitude: 47.3, maxLongitude: 8.7))
        #expect(bounds.isValid)
        #expect(GPXBounds(enclosing: [Coordinate(latitude: .nan, longitude: 0)]) == nil)
        #expect(GPXBounds(enclosing: [Coordinate]()) == nil)
    }

    @Test("Extending bounds grows only the edges the coordinate lies beyond")
    func extend() {
        var bounds = GPXBounds(enclosing: Coordinate(latitude: 10, longitude: 20))
        bounds.extend(toInclude: Coordinate(latitude: 12, longitude: 19))
        #expect(bounds == GPXBounds(minLatitude: 10, minLongitude: 19, maxLatitude: 12, maxLongitude: 20))
        bounds.extend(toInclude: Coordinate(latitude: 11, longitude: 19.5))
        #expect(bounds == GPXBounds(minLatitude: 10, minLongitude: 19, maxLatitude: 12, maxLongitude: 20))
        #expect(bounds.extended(toInclude: Coordinate(latitude: -1, longitude: 21))
            == GPXBounds(minLatitude: -1, minLongitude: 19, maxLatitude: 12, maxLongitude: 21))
    }
}
