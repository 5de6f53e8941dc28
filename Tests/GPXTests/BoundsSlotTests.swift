import Foundation
import GPSCore
import GPX
import Testing

@Suite("bounds filled in after streaming")
struct BoundsSlotTests {
    @Test("the reserved room takes the bounds of the points written, and the document validates")
    func reservedBoundsArePatched() throws {
        var document: [UInt8] = []
        var writer = GPXWriter(metadata: GPXMetadata(name: "patched", reservesBounds: true)) { bytes in
            document.append(contentsOf: bytes)
        }
        let coordinates = [(47.1, 8.5), (47.3, 8.2), (46.9, 8.9), (47.0, -0.1)]
        for (lat, lon) in coordinates {
            try writer.append(Fix(mode: .twoD, quality: .gps, coordinate: Coordinate(latitude: lat, longitude: lon)))
        }
        try writer.finish()
        let slot = try #require(writer.boundsSlot)
        let bounds = try #require(writer.pointBounds)
        #expect(bounds == GPXBounds(minLatitude: 46.9, minLongitude: -0.1, maxLatitude: 47.3, maxLongitude: 8.9))
        #expect(writer.bytesWritten == document.count)
        // Before patching, the room is blank.
        #expect(document[slot.offset..<slot.offset + slot.length].allSatisfy { $0 == 0x20 || $0 == 0x0A })
        let element = GPXWriter.boundsElement(bounds)
        #expect(element.count == slot.length)
        document.replaceSubrange(slot.offset..<slot.offset + slot.length, with: element)
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains(#"<bounds minlat="46.9" minlon="-0.1" maxlat="47.3" maxlon="8.9"/>"#))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(document).write(to: file)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/schemas/gpx-1.1.xsd")
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        lint.arguments = ["--noout", "--schema", schema.path, file.path]
        lint.standardError = FileHandle.nullDevice
        try lint.run()
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0)
    }

    @Test("without points the reserved room stays blank and no bounds are offered")
    func emptyTrackKeepsBlankRoom() throws {
        var document: [UInt8] = []
        var writer = GPXWriter(metadata: GPXMetadata(reservesBounds: true)) { document.append(contentsOf: $0) }
        try writer.finish()
        #expect(writer.pointBounds == nil)
        #expect(writer.boundsSlot != nil)
        #expect(!String(decoding: document, as: UTF8.self).contains("<bounds"))
    }

    @Test("the longest bounds element fits the room")
    func longestBoundsFit() {
        let element = GPXWriter.boundsElement(
            GPXBounds(minLatitude: -89.999999999, minLongitude: -179.999999999, maxLatitude: -89.999999998, maxLongitude: -179.999999998))
        #expect(element.count == GPXWriter.boundsSlotLength)
        #expect(element.last == 0x0A)
        #expect(String(decoding: element, as: UTF8.self).contains("/>"))
    }
}
