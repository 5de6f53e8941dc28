import Foundation
import GPSCore
import GPX
import Testing

// MARK: - Writing documents

/// Collects every byte a writer hands to its sink.
final class ByteCollector {
    var bytes: [UInt8] = []
    var calls: [Int] = []

    func receive(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
        calls.append(chunk.count)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A finished document and the writer that made it.
struct RenderedGPX {
    var text: String
    var writer: GPXWriter
    var sinkCalls: [Int]
}

/// Runs `body` against a fresh writer, finishes it, and returns what reached the sink.
func renderGPX(
    creator: String = "trackd", metadata: GPXMetadata = GPXMetadata(), trackName: String? = nil,
    _ body: (inout GPXWriter) throws -> Void
) throws -> RenderedGPX {
    let collector = ByteCollector()
    var writer = GPXWriter(creator: creator, metadata: metadata, trackName: trackName) { collector.receive($0) }
    try body(&writer)
    try writer.finish()
    return RenderedGPX(text: collector.text, writer: writer, sinkCalls: collector.calls)
}

/// A document holding `fixes` in one segment.
func renderGPX(_ fixes: [Fix]) throws -> RenderedGPX {
    try renderGPX { writer in
        for fix in fixes { try writer.append(fix) }
    }
}

/// Every text content of `<name>…</name>` (exact tag) in `document`, in order.
func elementTexts(_ name: String, in document: String) -> [String] {
    var texts: [String] = []
    var rest = document[...]
    while let open = rest.range(of: "<\(name)>") {
        guard let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) else { break }
        texts.append(String(rest[open.upperBound..<close.lowerBound]))
        rest = rest[close.upperBound...]
    }
    return texts
}

/// How many times `needle` occurs in `haystack`.
func occurrences(of needle: String, in haystack: String) -> Int {
    haystack.components(separatedBy: needle).count - 1
}

// MARK: - Fixes

let sampleDate = CalendarDate(year: 2024, month: 3, day: 5)

/// A 3D fix at `latitude`, `longitude`, with a time `second` seconds after 07:00:00 on
/// ``sampleDate``.
func positionFix(latitude: Double = 47.3769, longitude: Double = 8.5417, second: Int = 0) -> Fix {
    Fix(
        time: FixTime(date: sampleDate, timeOfDay: TimeOfDay(microseconds: Int64(7 * 3600 + second) * 1_000_000)),
        mode: .threeD, quality: .gps,
        coordinate: Coordinate(latitude: latitude, longitude: longitude)
    )
}

/// A fix with every field a GPX `<trkpt>` can hold.
func fullFix() -> Fix {
    Fix(
        time: FixTime(date: sampleDate, timeOfDay: TimeOfDay(hour: 7, minute: 8, second: 9, microsecond: 250_000)),
        mode: .threeD, quality: .dgps,
        coordinate: Coordinate(latitude: 47.376_912_345, longitude: -8.541_723_456),
        altitudeMSLMeters: 408.25, geoidSeparationMeters: 47.6,
        speedMetersPerSecond: 1.234, courseDegrees: 271.5, magneticVariationDegrees: 2.25,
        hdop: 0.9, vdop: 1.25, pdop: 1.54, satellitesUsed: 12,
        accuracy: PositionAccuracy(horizontalMeters: 4.2, verticalMeters: 7.1, source: .gst),
        dgpsAgeSeconds: 2.5, dgpsStationID: 402
    )
}

// MARK: - Random values

/// SplitMix64: a small, seeded generator, so every run draws the same values.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Schema validation

/// Validates documents with libxml2's `xmllint` against the GPX 1.1 schema and, through a
/// wrapper schema, against Garmin's TrackPointExtension v2 and trackd's extension schema.
enum GPXSchema {
    static let xmllint = URL(fileURLWithPath: "/usr/bin/xmllint")

    /// `../shared/schemas`, next to the repository (this file is Tests/GPXTests/Support/…).
    static let schemasDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // GPXTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .deletingLastPathComponent()  // the folder holding it and `shared`
        .appendingPathComponent("shared/schemas", isDirectory: true)

    static var gpxSchema: URL { schemasDirectory.appendingPathComponent("gpx-1.1.xsd") }
    static var trackPointExtensionSchema: URL {
        schemasDirectory.appendingPathComponent("TrackPointExtensionv2.xsd")
    }

    /// trackd's extension, as documented on `TrackdGPXExtension`.
    static let trackdExtensionSchema = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"
          targetNamespace="\(TrackdGPXExtension.namespace)"
          xmlns="\(TrackdGPXExtension.namespace)"
          elementFormDefault="qualified">
          <xsd:element name="accuracy" type="Accuracy_t"/>
          <xsd:complexType name="Accuracy_t">
            <xsd:attribute name="horizontal" type="Meters_t" use="required"/>
            <xsd:attribute name="vertical" type="Meters_t"/>
            <xsd:attribute name="source" type="Source_t" use="required"/>
            <xsd:attribute name="uere" type="Meters_t"/>
          </xsd:complexType>
          <xsd:simpleType name="Meters_t">
            <xsd:restriction base="xsd:decimal"><xsd:minInclusive value="0"/></xsd:restriction>
          </xsd:simpleType>
          <xsd:simpleType name="Source_t">
            <xsd:restriction base="xsd:string">
              <xsd:enumeration value="gst"/>
              <xsd:enumeration value="dop"/>
              <xsd:enumeration value="gpsd"/>
            </xsd:restriction>
          </xsd:simpleType>
        </xsd:schema>

        """

    /// A schema with no namespace of its own that imports the three; GPX's `<extensions>`
    /// are processed laxly, so extension elements are checked once their schema is known.
    static var combinedSchema: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
          <xsd:import namespace="http://www.topografix.com/GPX/1/1" schemaLocation="\(gpxSchema.absoluteString)"/>
          <xsd:import namespace="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
            schemaLocation="\(trackPointExtensionSchema.absoluteString)"/>
          <xsd:import namespace="\(TrackdGPXExtension.namespace)" schemaLocation="trackd-extension-v1.xsd"/>
        </xsd:schema>

        """
    }

    struct Result {
        var status: Int32
        var messages: String
        var isValid: Bool { status == 0 }
    }

    enum Schema {
        /// gpx-1.1.xsd alone.
        case gpx
        /// GPX 1.1 plus TrackPointExtension v2 plus trackd's extension.
        case combined
    }

    /// Runs `xmllint` with `arguments` on `document`, written to a temporary directory
    /// together with the combined schema files.
    static func xmllint(_ document: String, arguments: (_ directory: URL) -> [String]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackd-gpx-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let documentURL = directory.appendingPathComponent("track.gpx")
        try Data(document.utf8).write(to: documentURL)
        try Data(trackdExtensionSchema.utf8).write(to: directory.appendingPathComponent("trackd-extension-v1.xsd"))
        try Data(combinedSchema.utf8).write(to: directory.appendingPathComponent("combined.xsd"))

        let process = Process()
        process.executableURL = xmllint
        process.arguments = arguments(directory) + [documentURL.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let messages = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, messages: messages)
    }

    /// Validates `document` against `schema`.
    static func validate(_ document: String, against schema: Schema) throws -> Result {
        try xmllint(document) { directory in
            switch schema {
            case .gpx: ["--noout", "--nonet", "--schema", gpxSchema.path]
            case .combined: ["--noout", "--nonet", "--schema", directory.appendingPathComponent("combined.xsd").path]
            }
        }
    }

    /// The string value of `xpath` in `document`, as libxml2 parses it.
    static func evaluate(_ xpath: String, in document: String) throws -> String {
        var value = try xmllint(document) { _ in ["--xpath", xpath] }.messages
        if value.hasSuffix("\n") { value.removeLast() }  // xmllint ends its output with a line feed
        return value
    }

    /// Expects `document` to be valid GPX 1.1 with valid extension content.
    static func expectValid(_ document: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for schema in [Schema.gpx, .combined] {
            let result = try validate(document, against: schema)
            #expect(result.isValid, "\(schema) schema: \(result.messages)", sourceLocation: sourceLocation)
        }
    }
}
