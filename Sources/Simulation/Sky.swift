import GPSCore

/// The satellites a receiver sees: GPS and GLONASS, moving slowly across the sky.
///
/// Each satellite rises and sets over a pass of a few hours (elevation between 3° and its
/// peak) and drifts in azimuth. Its SNR grows with elevation, loses the route's
/// ``RouteProfile/signalLossDecibels``, and drops by about 25 dB-Hz during a fix loss, when
/// most satellites are no longer tracked.
struct Sky: Sendable {
    struct Satellite: Sendable {
        var constellation: Constellation
        var prn: Int
        var azimuthStart: Double
        var elevationPeak: Double
        var phase: Double
        var periodSeconds: Double
        var azimuthRate: Double
        var snrOffset: Double
    }

    /// One satellite at one epoch, as GSV reports it.
    struct View: Sendable, Hashable {
        var constellation: Constellation
        var prn: Int
        var elevation: Int
        var azimuth: Int
        /// dB-Hz; nil when not tracked.
        var snr: Int?

        /// Whether the receiver uses this satellite in its solution.
        var usable: Bool { elevation >= Sky.elevationMask && (snr ?? 0) >= Sky.usableSNR }
    }

    /// Lowest elevation, degrees, of a satellite used in the solution (u-blox default 5°; 10° is common).
    static let elevationMask = 10
    /// Weakest signal, dB-Hz, of a satellite used in the solution.
    static let usableSNR = 25
    /// Weakest signal, dB-Hz, a receiver still tracks; below it GSV leaves the SNR empty.
    static let trackedSNR = 12

    let satellites: [Satellite]
    private let signalLoss: Double
    private var random: RandomSource

    init(seed: UInt64, signalLossDecibels: Double) {
        var random = RandomSource.stream(seed, .sky)
        var sats: [Satellite] = []
        let gpsCount = 9 + Int(random.next() % 3)
        let glonassCount = 5 + Int(random.next() % 3)
        for (constellation, count, numbers) in [
            (Constellation.gps, gpsCount, Array(1...32)), (Constellation.glonass, glonassCount, Array(65...88)),
        ] {
            var pool = numbers
            var chosen: [Int] = []
            for _ in 0..<count {
                let i = Int(random.next() % UInt64(pool.count))
                chosen.append(pool.remove(at: i))
            }
            for prn in chosen.sorted() {
                sats.append(Satellite(
                    constellation: constellation, prn: prn,
                    azimuthStart: random.uniform(0...360), elevationPeak: random.uniform(25...88),
                    phase: random.uniform(0...6.283), periodSeconds: random.uniform(4.5...7) * 3600,
                    azimuthRate: random.uniform(-0.006...0.006), snrOffset: random.uniform(-4...4)))
            }
        }
        satellites = sats
        signalLoss = signalLossDecibels
        self.random = random
    }

    /// The satellites at `seconds` after the start; `degraded` during a fix loss.
    mutating func view(at seconds: Double, degraded: Bool) -> [View] {
        satellites.map { s in
            let swing = 0.5 + 0.5 * PortableMath.sin(2 * PortableMath.pi * seconds / s.periodSeconds + s.phase)
            let elevation = 3 + (s.elevationPeak - 3) * swing
            var azimuth = (s.azimuthStart + s.azimuthRate * seconds).truncatingRemainder(dividingBy: 360)
            if azimuth < 0 { azimuth += 360 }
            var snr = 22 + 24 * PortableMath.sin(PortableMath.radians(elevation)) + s.snrOffset - signalLoss
                + random.gaussian()
            if degraded { snr -= 25 + 3 * random.gaussian() }
            let rounded = Int(snr.rounded())
            return View(
                constellation: s.constellation, prn: s.prn, elevation: Int(elevation.rounded()),
                azimuth: Int(azimuth.rounded()) % 360, snr: rounded >= Sky.trackedSNR ? min(rounded, 99) : nil)
        }
    }
}
