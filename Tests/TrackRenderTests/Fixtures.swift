import Foundation
import GPSCore
@testable import TrackRender

/// Tracks built from numbers, for the picture tests.
enum Fixtures {
    static let metersPerDegreeLatitude = 2 * Double.pi * Coordinate.earthMeanRadiusMeters / 360

    /// Points one second apart going north at `speed` m/s from `start`, `count` of them.
    static func walk(
        from start: Coordinate = Coordinate(latitude: 46.6, longitude: 8.0), northBy meters: Double = 0,
        eastDegrees: Double = 0, count: Int, startTime: Double = 1_726_000_000, speed: Double? = 1.2
    ) -> [TrackPoint] {
        (0..<count).map { i in
            let t = Double(i)
            return TrackPoint(
                coordinate: Coordinate(
                    latitude: start.latitude + (speed ?? 0) * t / metersPerDegreeLatitude + meters / metersPerDegreeLatitude,
                    longitude: start.longitude + eastDegrees * t),
                secondsSinceEpoch: startTime + t, altitudeMeters: 1000, speedMetersPerSecond: speed)
        }
    }

    /// A deterministic uniform noise source in -amplitude...amplitude (a 64-bit LCG).
    struct Noise {
        var state: UInt64
        let amplitude: Double

        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(UInt64(1) << 53)
            return (unit * 2 - 1) * amplitude
        }
    }

    /// The numbers of an attribute in the first element of the SVG whose markup holds `marker`.
    static func attribute(_ name: String, ofElementWith marker: String, in svg: String) -> Double? {
        guard let range = svg.range(of: marker) else { return nil }
        let elementStart = svg[..<range.lowerBound].lastIndex(of: "<") ?? range.lowerBound
        let element = svg[elementStart...].prefix { $0 != ">" }
        guard let attribute = element.range(of: " \(name)=\"") else { return nil }
        return Double(element[attribute.upperBound...].prefix { $0 != "\"" })
    }

    static func occurrences(of text: String, in svg: String) -> Int {
        svg.split(separator: text, omittingEmptySubsequences: false).count - 1
    }
}
