import Foundation
import GPSCore
import Testing
@testable import TrackRender

@Suite("Totals: distance, moving time, elevation gain and loss")
struct MeasurementTests {
    /// Samples every `spacing` metres over `length` metres with `altitude(distance)` plus noise.
    static func profile(length: Double, spacing: Double, noise amplitude: Double, seed: UInt64, _ altitude: (Double) -> Double) -> [ElevationGain.Sample] {
        var noise = Fixtures.Noise(state: seed, amplitude: amplitude)
        return stride(from: 0.0, through: length, by: spacing).map {
            ElevationGain.Sample(distanceMeters: $0, altitudeMeters: altitude($0) + noise.next())
        }
    }

    static func rises(_ samples: [ElevationGain.Sample]) -> Double {
        zip(samples, samples.dropFirst()).reduce(0) { $0 + max(0, $1.1.altitudeMeters - $1.0.altitudeMeters) }
    }

    @Test("a flat track with ±3 m of altitude noise gains and loses next to nothing", arguments: [1 as UInt64, 2, 3])
    func flatNoise(seed: UInt64) throws {
        let samples = Self.profile(length: 5000, spacing: 2, noise: 3, seed: seed) { _ in 1000 }
        #expect(Self.rises(samples) > 1000, "the fixture holds too little noise to mean anything")
        let measured = try #require(ElevationGain().measure(samples))
        #expect(measured.gain < 5, "gain \(measured.gain)")
        #expect(measured.loss < 5, "loss \(measured.loss)")
    }

    @Test("a 100 m climb between two flats with ±3 m of noise gains 100 m within 3 %", arguments: [1 as UInt64, 2, 3])
    func climbWithNoise(seed: UInt64) throws {
        let samples = Self.profile(length: 3000, spacing: 2, noise: 3, seed: seed) { d in
            1000 + min(max(d - 1000, 0), 1000) / 10
        }
        let measured = try #require(ElevationGain().measure(samples))
        #expect(abs(measured.gain - 100) <= 3, "gain \(measured.gain)")
        #expect(measured.loss < 5, "loss \(measured.loss)")
    }

    @Test("up 50 m, down 30 m, up 20 m counts each leg; wiggles under the threshold count nothing")
    func turns() {
        let gain = ElevationGain()
        let legs = gain.hysteresis([0, 50, 20, 40])
        #expect(legs.gain == 70)
        #expect(legs.loss == 30)
        let wiggles = gain.hysteresis([0, 9, 1, 9.5, 0.5, 9])
        #expect(wiggles.gain == 0 && wiggles.loss == 0)
    }

    @Test("fewer than two altitudes give no gain or loss, not zero")
    func noAltitude() {
        var point = Fixtures.walk(count: 10)
        for i in point.indices { point[i].altitudeMeters = nil }
        let totals = TrackMeasurement(segments: [point]).totals
        #expect(totals.elevationGainMeters == nil && totals.elevationLossMeters == nil)
    }

    @Test("moving time leaves out a stop: 100 s walking, 60 s standing, 50 s walking")
    func movingTime() throws {
        let speed = 1.2
        var points: [TrackPoint] = []
        var latitude = 46.6
        for second in 0..<210 {
            let moving = second < 100 || second >= 160
            if moving && second > 0 { latitude += speed / Fixtures.metersPerDegreeLatitude }
            points.append(TrackPoint(
                coordinate: Coordinate(latitude: latitude, longitude: 8), secondsSinceEpoch: Double(second),
                speedMetersPerSecond: moving ? speed : 0))
        }
        let totals = TrackMeasurement(segments: [points]).totals
        let moving = try #require(totals.movingSeconds)
        // A counted step (every 5 m, about 4 s here) that spans the stop is slower than 0.5 m/s.
        #expect(moving >= 140 && moving <= 150, "moving \(moving) s")
        #expect(abs(totals.distanceMeters - 149 * speed) < 2, "distance \(totals.distanceMeters)")
        #expect(totals.maxSpeedMetersPerSecond == speed)
    }

    @Test("points without times have a distance but no moving time")
    func noTimes() {
        var points = Fixtures.walk(count: 50)
        for i in points.indices { points[i].secondsSinceEpoch = nil }
        let totals = TrackMeasurement(segments: [points]).totals
        #expect(totals.movingSeconds == nil)
        #expect(abs(totals.distanceMeters - 49 * 1.2) < 0.5)
    }

    @Test("position noise smaller than the 5 m step adds no distance while standing")
    func standingStill() {
        var noise = Fixtures.Noise(state: 7, amplitude: 2 / Fixtures.metersPerDegreeLatitude)
        let points = (0..<600).map { i in
            TrackPoint(coordinate: Coordinate(latitude: 46.6 + noise.next(), longitude: 8 + noise.next()), secondsSinceEpoch: Double(i))
        }
        let steps = zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
        #expect(steps > 500, "the fixture holds too little noise to mean anything")
        let totals = TrackMeasurement(segments: [points]).totals
        #expect(totals.distanceMeters < 10, "distance \(totals.distanceMeters)")
        #expect((totals.movingSeconds ?? -1) < 30, "moving \(String(describing: totals.movingSeconds))")
    }

    @Test("a fix loss between segments is bridged by the straight line across it")
    func segmentsBridged() {
        let first = Fixtures.walk(count: 101)
        let second = Fixtures.walk(northBy: 200, count: 101, startTime: 1_726_000_200)
        let totals = TrackMeasurement(segments: [first, [], second]).totals
        #expect(totals.segments == 2)
        #expect(totals.points == 202)
        // 120 m, the 80 m gap, 120 m.
        #expect(abs(totals.distanceMeters - 320) < 1, "distance \(totals.distanceMeters)")
        #expect(abs((totals.movingSeconds ?? 0) - 300) < 1e-6)
    }
}
