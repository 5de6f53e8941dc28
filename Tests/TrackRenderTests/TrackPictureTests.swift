import Foundation
import GPSCore
import Testing
@testable import TrackRender

@Suite("The picture: segments, pins, legend, totals, errors")
struct TrackPictureTests {
    static func threeSegments() -> [[TrackPoint]] {
        [
            Fixtures.walk(count: 120, speed: 0.8),
            Fixtures.walk(northBy: 200, count: 120, startTime: 1_726_000_300, speed: 1.5),
            Fixtures.walk(northBy: 500, eastDegrees: 0.00002, count: 120, startTime: 1_726_000_600, speed: 2.5),
        ]
    }

    @Test("one segment group per segment, each with its colour runs")
    func segmentGroups() throws {
        let picture = try TrackPicture(title: "three", segments: Self.threeSegments())
        let svg = picture.svg
        #expect(Fixtures.occurrences(of: "<g class=\"segment\"", in: svg) == 3)
        #expect(Fixtures.occurrences(of: "<polyline class=\"casing\"", in: svg) == 3)
        let runs = picture.runs.reduce(0) { $0 + $1.count }
        #expect(Fixtures.occurrences(of: "<polyline class=\"run ", in: svg) == runs)
        // Three speeds, three different bins.
        let bins = Set(picture.runs.joined().compactMap(\.bin))
        #expect(bins.count == 3, "\(bins)")
    }

    @Test("each run's colour is the bin of its speed, and the legend labels hold those speeds")
    func binsMatchLegend() throws {
        let picture = try TrackPicture(title: "three", segments: Self.threeSegments())
        for (segment, speed) in zip(picture.runs, [0.8, 1.5, 2.5]) {
            let bin = picture.speedScale.bin(speed)
            #expect(segment.allSatisfy { $0.bin == bin })
            let label = picture.speedScale.label(bin)
            #expect(picture.svg.contains(">\(label)</text>"), "\(label)")
        }
        #expect(Fixtures.occurrences(of: "class=\"legend-swatch", in: picture.svg) == SpeedScale.binCount)
    }

    @Test("the start and end pins are at the first and last points' projected positions")
    func pins() throws {
        let segments = Self.threeSegments()
        let picture = try TrackPicture(title: "three", segments: segments)
        let svg = picture.svg
        let first = try #require(segments.first?.first), last = try #require(segments.last?.last)
        for (id, point) in [("start", first), ("end", last)] {
            let expected = picture.frame.pixel(WebMercator.project(point.coordinate))
            let cx = try #require(Fixtures.attribute("cx", ofElementWith: "id=\"\(id)\"", in: svg))
            let cy = try #require(Fixtures.attribute("cy", ofElementWith: "id=\"\(id)\"", in: svg))
            #expect(abs(cx - expected.x) <= 0.05 && abs(cy - expected.y) <= 0.05, "\(id) at \(cx),\(cy), not \(expected)")
        }
        // The end is north of the start: drawn higher up.
        #expect(picture.end.y < picture.start.y)
    }

    @Test("a single point is a picture with one pin and a map about 500 m across")
    func singlePoint() throws {
        let point = TrackPoint(coordinate: Coordinate(latitude: 46.6, longitude: 8.0), secondsSinceEpoch: 0, altitudeMeters: 1200)
        let picture = try TrackPicture(title: "one", segments: [[point]])
        let svg = picture.svg
        #expect(Fixtures.occurrences(of: "class=\"pin\"", in: svg) == 1)
        #expect(svg.contains("id=\"start\""))
        #expect(!svg.contains("id=\"end\""))
        #expect(Fixtures.occurrences(of: "<g class=\"segment\"", in: svg) == 1)
        let inner = picture.layout.map.insetBy(PictureLayout.mapMargin)
        let shownMeters = min(inner.width, inner.height) * picture.frame.metersPerPixel(atLatitude: 46.6)
        #expect(abs(shownMeters - TrackPicture.minimumSpanMeters) < 1, "\(shownMeters) m")
        #expect(picture.scaleBar.meters >= 50 && picture.scaleBar.meters <= 500)
        #expect(picture.measurement.totals.distanceMeters == 0)
        #expect(svg.contains("id=\"total-distance\" class=\"total\" data-value=\"0\""))
    }

    @Test("a track without points is an error naming it", arguments: [[[TrackPoint]](), [[], []]])
    func empty(segments: [[TrackPoint]]) {
        #expect(throws: RenderError.noPoints(track: "track 3")) {
            try TrackPicture(title: "track 3", segments: segments)
        }
        #expect(RenderError.noPoints(track: "track 3").description == "track 3 has no points; nothing to draw")
    }

    @Test("a picture smaller than the layout needs is an error giving the minimum")
    func tooSmall() {
        #expect(throws: RenderError.canvasTooSmall(width: 300, height: 900, minimumWidth: 480, minimumHeight: 400)) {
            try TrackPicture(title: "t", segments: Self.threeSegments(), width: 300, height: 900)
        }
    }

    @Test("the totals are written with their values: distance in km, moving time, gain, loss, max speed")
    func totals() throws {
        let picture = try TrackPicture(title: "three", segments: Self.threeSegments())
        let svg = picture.svg
        let totals = picture.measurement.totals
        let distance = try #require(Fixtures.attribute("data-value", ofElementWith: "id=\"total-distance\"", in: svg))
        #expect(abs(distance - totals.distanceMeters) < 0.001)
        #expect(svg.contains(">\(DecimalText.fixed(totals.distanceMeters / 1000, digits: 2)) km</text>"))
        #expect(svg.contains("id=\"total-max-speed\""))
        #expect(svg.contains(">9.0 km/h</text>"), "max speed 2.5 m/s")
        #expect(svg.contains("id=\"total-moving-time\""))
        #expect(svg.contains("id=\"total-elevation-gain\"") && svg.contains("id=\"total-elevation-loss\""))
    }

    @Test("the picture has its size, a grid without a basemap, a scale bar and both profiles")
    func parts() throws {
        let picture = try TrackPicture(title: "a <b> & c", segments: Self.threeSegments(), width: 800, height: 600)
        let svg = picture.svg
        #expect(svg.contains("width=\"800\" height=\"600\" viewBox=\"0 0 800 600\""))
        #expect(svg.contains("<g id=\"grid\""))
        #expect(svg.contains("<g id=\"scale-bar\""))
        #expect(svg.contains("<g id=\"elevation-profile\"") && svg.contains("<g id=\"speed-profile\""))
        #expect(svg.contains("<title>a &lt;b&gt; &amp; c</title>"))
    }

    @Test("a basemap replaces the grid with the tiles under the map, embedded as PNG")
    func basemap() throws {
        let picture = try TrackPicture(title: "tiles", segments: Self.threeSegments())
        let needed = picture.tilesNeeded
        #expect(!needed.isEmpty)
        let size = try #require(needed.first?.rect.width)
        #expect(size <= 256 && size > 128, "tiles drawn at \(size) px")
        let map = picture.layout.map
        #expect(needed.contains { $0.rect.x <= map.x && $0.rect.y <= map.y })
        #expect(needed.contains { $0.rect.maxX >= map.maxX && $0.rect.maxY >= map.maxY })
        let svg = picture.svg(basemap: picture.basemap { _ in [1, 2, 3] })
        #expect(!svg.contains("<g id=\"grid\""))
        #expect(Fixtures.occurrences(of: "href=\"data:image/png;base64,AQID\"", in: svg) == needed.count)
    }

    @Test("base64 as RFC 4648's test vectors", arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func base64(input: String, output: String) {
        #expect(Base64.encode(Array(input.utf8)) == output)
    }
}
