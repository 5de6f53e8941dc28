import Foundation
import GPSCore
import Location

/// Fix times start at 2024-06-01T08:00:00Z.
let startSeconds = 19_875.0 * 86_400 + 8 * 3_600
let origin = Coordinate(latitude: 47.0, longitude: 8.0)
let metersPerDegree = Coordinate.earthMeanRadiusMeters * Double.pi / 180

/// The time `seconds` after the start of the test track.
func fixTime(_ seconds: Double) -> FixTime {
    let micro = Int64(((startSeconds + seconds) * 1e6).rounded())
    let day = micro / TimeOfDay.microsecondsPerDay
    return FixTime(
        date: CalendarDate(daysSinceEpoch: Int(day)),
        timeOfDay: TimeOfDay(microseconds: micro - day * TimeOfDay.microsecondsPerDay))
}

/// A 3D fix `north` and `east` metres from the origin, `seconds` into the track.
func fix(
    at seconds: Double, north: Double = 0, east: Double = 0, accuracy: Double = 5,
    speed: Double? = nil, course: Double? = nil
) -> Fix {
    Fix(
        time: fixTime(seconds), mode: .threeD, quality: .gps,
        coordinate: Coordinate(
            latitude: origin.latitude + north / metersPerDegree,
            longitude: origin.longitude + east / (metersPerDegree * cos(origin.latitude * Double.pi / 180))),
        speedMetersPerSecond: speed, courseDegrees: course,
        accuracy: PositionAccuracy(horizontalMeters: accuracy, verticalMeters: nil, source: .gst))
}

/// Metres north of the origin.
func north(of coordinate: Coordinate) -> Double { (coordinate.latitude - origin.latitude) * metersPerDegree }

extension Array where Element == LocationEvent {
    var locations: [Location] {
        compactMap { if case .locationUpdated(let location) = $0 { location } else { nil } }
    }
    var signals: [SignalStrength] {
        compactMap { if case .signalStrengthChanged(let strength) = $0 { strength } else { nil } }
    }
    var rejections: [LocationRejection] {
        compactMap { if case .rejected(_, let reason) = $0 { reason } else { nil } }
    }
    func count(_ event: LocationEvent) -> Int { filter { $0 == event }.count }
}

/// Feeds fixes to a policy, each received at its own fix time on the clock (no delay).
struct Feeder {
    var policy: LocationPolicy
    var events: [LocationEvent] = []

    init(_ configuration: LocationConfiguration = LocationConfiguration()) {
        policy = LocationPolicy(configuration: configuration)
    }

    @discardableResult
    mutating func feed(_ fix: Fix, receivedAt now: Double? = nil) -> [LocationEvent] {
        let seconds = now ?? ((fix.time?.secondsSinceEpoch ?? startSeconds) - startSeconds)
        let new = policy.process(fix, now: .milliseconds(Int64((seconds * 1_000).rounded())))
        events += new
        return new
    }

    @discardableResult
    mutating func tick(at seconds: Double) -> [LocationEvent] {
        let new = policy.tick(now: .milliseconds(Int64((seconds * 1_000).rounded())))
        events += new
        return new
    }
}

/// SplitMix64: a small seeded generator, so that noisy tracks are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A standard normal sample (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// Receiver position error as a first-order Gauss–Markov process per axis: `sigma` metres
/// standard deviation, correlated over `correlationSeconds`, sampled once a second.
struct CorrelatedNoise {
    var generator: SeededGenerator
    let sigma: Double
    let decay: Double
    var north = 0.0
    var east = 0.0

    init(seed: UInt64, sigma: Double, correlationSeconds: Double) {
        generator = SeededGenerator(seed: seed)
        self.sigma = sigma
        decay = exp(-1 / correlationSeconds)
        north = sigma * generator.gaussian()
        east = sigma * generator.gaussian()
    }

    mutating func next() -> (north: Double, east: Double) {
        let innovation = sigma * (1 - decay * decay).squareRoot()
        north = decay * north + innovation * generator.gaussian()
        east = decay * east + innovation * generator.gaussian()
        return (north, east)
    }
}
