import GPSCore

/// A simulated GNSS receiver: what it measures of the true path, and when it loses its fix.
///
/// **Position error.** Horizontal error is a first-order Gauss-Markov process with a 30 s
/// correlation time (positions drift, they do not jump), plus white noise of a tenth of its
/// size, shaped as a mildly elliptic error (axes √1.3 and √0.7 times the per-axis sigma)
/// whose root mean square is ``SimulationSettings/noiseMeters``. Altitude error is 1.6 times
/// the noise, with 60 s correlation.
///
/// **Fix losses.** They begin at random (a Poisson process with the route's mean interval)
/// and last the route's ``RouteProfile/fixLossSeconds``; an epoch with fewer than four usable
/// satellites has no fix either. For ten seconds or so after a fix loss the position carries
/// an extra error of about the noise, decaying with a 5 s time constant, and DOP is raised.
///
/// **Multipath.** With ``SimulationSettings/multipathEverySeconds``, spells begin at random
/// (a Poisson process with that mean interval, on a random stream of their own, so the rest
/// of the output is the same with or without them) and last ``multipathSeconds``; in a spell
/// the position is ``multipathMeters`` off in one direction. HDOP, GST and the speed over
/// ground do not show it.
///
/// **Reported quality.** HDOP follows the number of satellites used; VDOP is 1.6 HDOP (the
/// altitude error's ratio) and PDOP √(HDOP² + VDOP²). GST's sigmas are the error model's own,
/// so trackd's GST-based accuracy is right on average; its RMS field is the implied user-range
/// error, noise / HDOP.
struct Receiver: Sendable {
    /// Correlation time of the horizontal error, seconds.
    static let horizontalCorrelationSeconds = 30.0
    /// Correlation time of the altitude error, seconds.
    static let verticalCorrelationSeconds = 60.0
    /// Altitude error sigma per metre of horizontal noise.
    static let verticalPerHorizontal = 1.6
    /// Share of each error's sigma that is white rather than correlated.
    static let whiteShare = 0.1
    /// Squared axis ratios of the error ellipse to the per-axis sigma (they average 1).
    static let majorVariance = 1.3
    static let minorVariance = 0.7
    /// Time constant of the extra error after a fix loss, seconds.
    static let reacquisitionSeconds = 5.0
    /// HDOP for `n` satellites used is `hdopScale / √n` (0.8 for 14, 1.5 for 4).
    static let hdopScale = 3.0
    static let knotsPerMeterPerSecond = 1 / 0.514_444
    /// How long a multipath spell lasts, seconds.
    static let multipathSeconds = 1.0...4.0
    /// How far a multipath spell moves the position, metres.
    static let multipathMeters = 40.0...150.0

    let noise: Double
    let profile: RouteProfile
    private var random: RandomSource
    private var lossRandom: RandomSource
    private var sky: Sky
    private var major: GaussMarkov
    private var minor: GaussMarkov
    private var up: GaussMarkov
    /// Orientation of the error ellipse's major axis, degrees from true north.
    private let orientation: Double
    private var lossStart: Double
    private var lossEnd: Double
    private var regainedAt: Double?
    private var offsetNorth = 0.0
    private var offsetEast = 0.0
    private var offsetUp = 0.0
    private let multipathEvery: Double?
    private var multipathRandom: RandomSource
    private var multipath: (start: Double, end: Double, north: Double, east: Double)

    init(settings: SimulationSettings) {
        noise = settings.noiseMeters
        profile = settings.route.profile
        var random = RandomSource.stream(settings.seed, .receiver)
        let step = settings.rate.periodSeconds
        let axis = noise / 2.0.squareRoot() * (1 - Receiver.whiteShare * Receiver.whiteShare).squareRoot()
        major = GaussMarkov(sigma: axis * Receiver.majorVariance.squareRoot(),
                            correlationSeconds: Receiver.horizontalCorrelationSeconds, step: step, random: &random)
        minor = GaussMarkov(sigma: axis * Receiver.minorVariance.squareRoot(),
                            correlationSeconds: Receiver.horizontalCorrelationSeconds, step: step, random: &random)
        up = GaussMarkov(sigma: noise * Receiver.verticalPerHorizontal,
                         correlationSeconds: Receiver.verticalCorrelationSeconds, step: step, random: &random)
        orientation = random.uniform(0...180)
        self.random = random
        var lossRandom = RandomSource.stream(settings.seed, .fixLoss)
        lossStart = lossRandom.exponential(mean: profile.fixLossEverySeconds)
        lossEnd = lossStart + lossRandom.uniform(profile.fixLossSeconds)
        self.lossRandom = lossRandom
        sky = Sky(seed: settings.seed, signalLossDecibels: profile.signalLossDecibels)
        multipathEvery = settings.multipathEverySeconds.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        multipathRandom = RandomSource.stream(settings.seed, .multipath)
        multipath = (.infinity, .infinity, 0, 0)
        if let every = multipathEvery { multipath = Receiver.nextSpell(after: 0, every: every, &multipathRandom) }
    }

    /// The multipath spell that begins after `time`.
    private static func nextSpell(
        after time: Double, every: Double, _ random: inout RandomSource
    ) -> (start: Double, end: Double, north: Double, east: Double) {
        let start = time + random.exponential(mean: every)
        let end = start + random.uniform(multipathSeconds)
        let distance = random.uniform(multipathMeters)
        let bearing = PortableMath.radians(random.uniform(0...360))
        return (start, end, distance * PortableMath.cos(bearing), distance * PortableMath.sin(bearing))
    }

    /// The multipath offset at `seconds`, north and east metres.
    private mutating func multipathOffset(at seconds: Double) -> (north: Double, east: Double) {
        guard let every = multipathEvery else { return (0, 0) }
        while seconds >= multipath.end { multipath = Receiver.nextSpell(after: multipath.end, every: every, &multipathRandom) }
        return seconds >= multipath.start ? (multipath.north, multipath.east) : (0, 0)
    }

    /// What the receiver sees at `seconds` after the start: its satellites and whether it has a fix.
    mutating func observe(at seconds: Double) -> (satellites: [Sky.View], hasFix: Bool) {
        while seconds >= lossEnd {
            regainedAt = lossEnd
            offsetNorth = noise * random.gaussian()
            offsetEast = noise * random.gaussian()
            offsetUp = noise * Receiver.verticalPerHorizontal * random.gaussian()
            lossStart = lossEnd + lossRandom.exponential(mean: profile.fixLossEverySeconds)
            lossEnd = lossStart + lossRandom.uniform(profile.fixLossSeconds)
        }
        let lost = seconds >= lossStart
        let satellites = sky.view(at: seconds, degraded: lost)
        let used = satellites.filter(\.usable).count
        return (satellites, !lost && used >= 4)
    }

    /// The epoch's sentences in u-blox order: RMC, VTG, GGA, a GSA per constellation, GSV
    /// per constellation (GPS, then GLONASS), GST.
    mutating func sentences(for truth: TruePosition, at seconds: Double, satellites: [Sky.View]) -> [String] {
        // The error processes run whether or not there is a fix, so the error is continuous.
        let u = major.advance(&random) + Receiver.whiteShare * major.sigma * random.gaussian()
        let v = minor.advance(&random) + Receiver.whiteShare * minor.sigma * random.gaussian()
        let z = up.advance(&random) + Receiver.whiteShare * up.sigma * random.gaussian()
        let speedNoise = random.gaussian()
        let courseNoise = random.gaussian()

        let time = NMEAText.time(truth.time.timeOfDay)
        let date = truth.time.date.map(NMEAText.date) ?? ""
        var out: [String] = []
        out.reserveCapacity(12)
        guard truth.hasFix else {
            out.append(NMEAText.sentence("GNRMC,\(time),V,,,,,,,\(date),,,N"))
            out.append(NMEAText.sentence("GNVTG,,,,,,,,,N"))
            out.append(NMEAText.sentence("GNGGA,\(time),,,,,0,00,99.99,,,,,,"))
            out.append(NMEAText.sentence("GNGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
            out.append(NMEAText.sentence("GNGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
            out += gsv(satellites)
            out.append(NMEAText.sentence("GNGST,\(time),,,,,,,"))
            return out
        }

        // Extra error after a fix loss, decaying.
        var decay = 0.0
        if let regainedAt {
            let age = seconds - regainedAt
            if age >= 0 && age < 12 * Receiver.reacquisitionSeconds {
                decay = PortableMath.exp(-age / Receiver.reacquisitionSeconds)
            }
        }
        let theta = PortableMath.radians(orientation)
        let reflected = multipathOffset(at: seconds)
        let north = u * PortableMath.cos(theta) - v * PortableMath.sin(theta) + decay * offsetNorth + reflected.north
        let east = u * PortableMath.sin(theta) + v * PortableMath.cos(theta) + decay * offsetEast + reflected.east
        let r = Coordinate.earthMeanRadiusMeters
        let latitude = truth.coordinate.latitude + PortableMath.degrees(north / r)
        let longitude = truth.coordinate.longitude
            + PortableMath.degrees(east / (r * PortableMath.cos(PortableMath.radians(truth.coordinate.latitude))))
        let altitude = truth.altitudeMSLMeters + z + decay * offsetUp

        let trueSpeed = truth.speedMetersPerSecond
        let speed = trueSpeed > 0.2 ? max(0, trueSpeed + 0.05 * speedNoise) : (0.03 * speedNoise).magnitude
        var courseText = ""
        if speed > 0.5 {
            var course = truth.courseDegrees + PortableMath.degrees(0.05 / max(speed, 0.5)) * courseNoise
            course = course.truncatingRemainder(dividingBy: 360)
            if course < 0 { course += 360 }
            courseText = NMEAText.fixed(course, 2)
            if courseText == "360.00" { courseText = "0.00" }
        }
        let knots = NMEAText.fixed(speed * Receiver.knotsPerMeterPerSecond, 3)
        let kmh = NMEAText.fixed(speed * 3.6, 3)

        let used = satellites.filter(\.usable)
        let hdop = Receiver.hdopScale / Double(used.count).squareRoot() * (1 + decay)
        let vdop = hdop * Receiver.verticalPerHorizontal
        let pdop = (hdop * hdop + vdop * vdop).squareRoot()
        let dops = NMEAText.fixed(pdop, 2) + "," + NMEAText.fixed(hdop, 2) + "," + NMEAText.fixed(vdop, 2)

        let (lat, ns) = NMEAText.latitude(latitude)
        let (lon, ew) = NMEAText.longitude(longitude)
        out.append(NMEAText.sentence("GNRMC,\(time),A,\(lat),\(ns),\(lon),\(ew),\(knots),\(courseText),\(date),,,A"))
        out.append(NMEAText.sentence("GNVTG,\(courseText),T,,M,\(knots),N,\(kmh),K,A"))
        out.append(NMEAText.sentence(
            "GNGGA,\(time),\(lat),\(ns),\(lon),\(ew),1,\(NMEAText.padded(min(used.count, 99), 2)),"
                + "\(NMEAText.fixed(hdop, 2)),\(NMEAText.fixed(altitude, 1)),M,"
                + "\(NMEAText.fixed(profile.geoidSeparationMeters, 1)),M,,"))
        for constellation in [Constellation.gps, .glonass] {
            let prns = used.filter { $0.constellation == constellation }.prefix(12).map { NMEAText.padded($0.prn, 2) }
            let slots = prns + Array(repeating: "", count: 12 - prns.count)
            out.append(NMEAText.sentence("GNGSA,A,3," + slots.joined(separator: ",") + "," + dops))
        }
        out += gsv(satellites)

        // The error model's own 1-sigma figures.
        let axis = noise / 2.0.squareRoot()
        let extra = decay * noise
        let a = (axis * axis * Receiver.majorVariance + extra * extra).squareRoot()
        let b = (axis * axis * Receiver.minorVariance + extra * extra).squareRoot()
        let c = PortableMath.cos(theta), s = PortableMath.sin(theta)
        let sigmaLat = (a * a * c * c + b * b * s * s).squareRoot()
        let sigmaLon = (a * a * s * s + b * b * c * c).squareRoot()
        let sigmaUp = ((noise * Receiver.verticalPerHorizontal) * (noise * Receiver.verticalPerHorizontal)
            + (extra * Receiver.verticalPerHorizontal) * (extra * Receiver.verticalPerHorizontal)).squareRoot()
        let rms = (axis * 2.0.squareRoot()) / hdop
        let gst = [rms, a, b, orientation, sigmaLat, sigmaLon, sigmaUp].map { NMEAText.fixed($0, 1) }
        out.append(NMEAText.sentence("GNGST,\(time)," + gst.joined(separator: ",")))
        return out
    }

    /// GSV sets, GPS (`GP`) then GLONASS (`GL`), four satellites a sentence.
    private func gsv(_ satellites: [Sky.View]) -> [String] {
        var out: [String] = []
        for (talker, constellation) in [("GP", Constellation.gps), ("GL", .glonass)] {
            let mine = satellites.filter { $0.constellation == constellation }
            let count = max(1, (mine.count + 3) / 4)
            for i in 0..<count {
                var body = "\(talker)GSV,\(count),\(i + 1),\(NMEAText.padded(mine.count, 2))"
                for sat in mine.dropFirst(i * 4).prefix(4) {
                    body += "," + NMEAText.padded(sat.prn, 2) + "," + NMEAText.padded(sat.elevation, 2)
                        + "," + NMEAText.padded(sat.azimuth, 3) + "," + (sat.snr.map { NMEAText.padded($0, 2) } ?? "")
                }
                out.append(NMEAText.sentence(body))
            }
        }
        return out
    }
}
