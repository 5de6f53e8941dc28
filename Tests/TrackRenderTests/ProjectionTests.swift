import Foundation
import GPSCore
import Testing
@testable import TrackRender

@Suite("Web Mercator and the map frame")
struct ProjectionTests {
    @Test("projecting and unprojecting gives the coordinate back", arguments: [
        (0.0, 0.0), (46.62405, 8.04137), (-33.8688, 151.2093), (64.1466, -21.9426), (-54.8, -68.3), (85.0, 179.999),
    ])
    func roundTrip(latitude: Double, longitude: Double) {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        let back = WebMercator.coordinate(at: WebMercator.project(coordinate))
        #expect(abs(back.latitude - latitude) < 1e-9)
        #expect(abs(back.longitude - longitude) < 1e-9)
    }

    @Test("the equator and Greenwich are the middle of the world, 85.0511° N its top edge, north up")
    func knownPoints() {
        let middle = WebMercator.project(Coordinate(latitude: 0, longitude: 0))
        #expect(abs(middle.x - 0.5) < 1e-12 && abs(middle.y - 0.5) < 1e-12)
        let corner = WebMercator.project(Coordinate(latitude: WebMercator.maximumLatitude, longitude: -180))
        #expect(abs(corner.x) < 1e-12 && abs(corner.y) < 1e-9)
        let north = WebMercator.project(Coordinate(latitude: 10, longitude: 0))
        #expect(north.y < middle.y, "north must be drawn above")
    }

    @Test("a pixel and its world position convert back and forth")
    func frameRoundTrip() {
        let frame = MapFrame(area: PixelRect(x: 0, y: 36, width: 1200, height: 600), pixelsPerUnit: 1e7, center: MercatorPoint(x: 0.52, y: 0.35))
        let pixel = PixelPoint(x: 123.4, y: 456.7)
        let back = frame.pixel(frame.worldPoint(pixel))
        #expect(abs(back.x - pixel.x) < 1e-6 && abs(back.y - pixel.y) < 1e-6)
    }

    @Test("the path is fitted inside the margins and touches them on its longer axis", arguments: [
        // (north speed m/s, east degrees per second): tall, wide, diagonal.
        (1.2, 0.0), (0.0, 0.0002), (1.2, 0.00002),
    ])
    func fitting(speed: Double, east: Double) throws {
        let shifted = Fixtures.walk(eastDegrees: east, count: 600, speed: speed)
        let picture = try TrackPicture(title: "fit", segments: [shifted])
        let inner = picture.layout.map.insetBy(PictureLayout.mapMargin)
        let all = picture.path.joined()
        for pixel in all { #expect(inner.contains(pixel, tolerance: 1e-6), "\(pixel) outside \(inner)") }
        let xs: [Double] = all.map { $0.x }
        let ys: [Double] = all.map { $0.y }
        let minX = xs.min() ?? 0, maxX = xs.max() ?? 0
        let minY = ys.min() ?? 0, maxY = ys.max() ?? 0
        let touchesLeft: Bool = abs(minX - inner.x) < 1e-6
        let touchesRight: Bool = abs(maxX - inner.maxX) < 1e-6
        let touchesTop: Bool = abs(minY - inner.y) < 1e-6
        let touchesBottom: Bool = abs(maxY - inner.maxY) < 1e-6
        let touchesSides = touchesLeft && touchesRight
        let touchesTopAndBottom = touchesTop && touchesBottom
        #expect(touchesSides || touchesTopAndBottom, "bounds x \(minX)...\(maxX), y \(minY)...\(maxY) in \(inner)")
        // Centred on the other axis.
        let centre = PixelPoint(x: inner.x + inner.width / 2, y: inner.y + inner.height / 2)
        #expect(abs((minX + maxX) / 2 - centre.x) < 1e-6)
        #expect(abs((minY + maxY) / 2 - centre.y) < 1e-6)
    }

    @Test("a track across the antimeridian is one short path, not a line around the world")
    func antimeridian() throws {
        // 40 points from 179.99° E eastwards to 179.99° W along the equator.
        let points = (0..<41).map { i in
            var longitude = 179.99 + Double(i) * 0.0005
            if longitude > 180 { longitude -= 360 }
            return TrackPoint(coordinate: Coordinate(latitude: -16.5, longitude: longitude), secondsSinceEpoch: Double(i) * 10)
        }
        #expect(points.contains { $0.coordinate.longitude < 0 } && points.contains { $0.coordinate.longitude > 0 })
        let picture = try TrackPicture(title: "dateline", segments: [points])
        let xs = picture.path[0].map(\.x)
        for (a, b) in zip(xs, xs.dropFirst()) { #expect(b > a, "the path turns back at the antimeridian") }
        let inner = picture.layout.map.insetBy(PictureLayout.mapMargin)
        #expect(abs((xs.first ?? 0) - inner.x) < 1e-6 && abs((xs.last ?? 0) - inner.maxX) < 1e-6, "not fitted the short way round")
        let degrees = 0.02 * Fixtures.metersPerDegreeLatitude * 0.958_8  // cos 16.5°
        #expect(abs(picture.measurement.totals.distanceMeters - degrees) < 5, "\(picture.measurement.totals.distanceMeters)")
    }

    @Test("the scale bar is a round length no longer than asked", arguments: [
        (3.7, 240.0, 500.0, "500 m"), (12.0, 240.0, 2000.0, "2 km"), (0.3, 240.0, 50.0, "50 m"), (100.0, 150.0, 10_000.0, "10 km"),
    ])
    func scaleBar(metersPerPixel: Double, maximum: Double, meters: Double, label: String) {
        let bar = ScaleBar(metersPerPixel: metersPerPixel, maximumPixels: maximum)
        #expect(bar.meters == meters)
        #expect(bar.label == label)
        #expect(bar.pixels <= maximum && bar.pixels > maximum / 2.5)
    }
}
