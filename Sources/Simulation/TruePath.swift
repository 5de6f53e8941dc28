import GPSCore

/// The true motion along a route: speed, heading and altitude, stepped one epoch at a time.
///
/// Positions are integrated on the sphere (``Coordinate/earthMeanRadiusMeters``), so long
/// drives stay right. Every random choice comes from the route's own stream, so the path
/// does not depend on the noise.
struct TruePath: Sendable {
    let route: Route
    private(set) var coordinate: Coordinate
    private(set) var altitudeMSLMeters: Double
    private(set) var speed = 0.0
    /// Heading in degrees from true north.
    private(set) var heading: Double
    private(set) var distance = 0.0

    private var random: RandomSource
    private var cruise: GaussMarkov
    private let startAltitude: Double
    private let terrain: [Wave]
    private let step: Double

    // City routes: blocks between crossings, stops and right-angle turns.
    private var streetBearing: Double
    private var turnRemaining = 0.0
    private var wander: GaussMarkov
    private var nextCrossing = 0.0
    private var stopAtNextCrossing = false
    private var stopRemaining = 0.0
    // Hike: rests; freeway: curvature.
    private var restIn = 0.0
    private let bends: [Wave]

    /// A sinusoid over distance: amplitude × sin(distance / length + phase).
    struct Wave: Sendable {
        var amplitude: Double
        var length: Double
        var phase: Double
        func value(_ d: Double) -> Double { amplitude * PortableMath.sin(d / length + phase) }
        func slope(_ d: Double) -> Double { amplitude / length * PortableMath.cos(d / length + phase) }
    }

    /// Per-activity constants: speeds in m/s, accelerations in m/s², distances in metres.
    private struct City {
        var cruiseSigma: Double
        var acceleration: Double
        var braking: Double
        var blockLength: ClosedRange<Double>
        var stopChance: Double
        var stopSeconds: ClosedRange<Double>
        var turnChance: Double
        var turnRadius: Double
    }
    private static let run = City(
        cruiseSigma: 0.2, acceleration: 1.0, braking: 1.5, blockLength: 80...220, stopChance: 0.3,
        stopSeconds: 5...30, turnChance: 0.3, turnRadius: 6)
    private static let bicycle = City(
        cruiseSigma: 0.4, acceleration: 1.0, braking: 2.0, blockLength: 150...400, stopChance: 0.25,
        stopSeconds: 10...35, turnChance: 0.3, turnRadius: 10)
    /// Freeway: on-ramp speed, acceleration while merging.
    private static let mergeSpeed = 12.0
    private static let mergeAcceleration = 1.5
    /// Hike: Tobler's hiking function, v = 6 km/h × e^(-3.5 |grade + 0.05|), scaled for a
    /// hiker on a trail: 1.4 m/s on the flat, about 1 m/s up a 7 % grade.
    private static let toblerScale = 1.0
    private static let hikeClimbMeters = 500.0
    private static let hikeClimbLength = 7_000.0
    private static let hikeRestEverySeconds = 1_200.0
    private static let hikeRestSeconds = 30.0...120.0

    init(route: Route, seed: UInt64, step: Double) {
        self.route = route
        self.step = step
        let profile = route.profile
        var random = RandomSource.stream(seed, .route)
        coordinate = profile.start
        startAltitude = profile.startAltitudeMSLMeters
        heading = random.uniform(0...360).truncatingRemainder(dividingBy: 360)
        streetBearing = heading
        switch route {
        case .cityRun, .cityBicycleRide:
            // Streets run on a grid: start along one of its directions.
            streetBearing = (heading / 90).rounded(.down) * 90 + random.uniform(0...90)
            heading = streetBearing
            terrain = (0..<2).map { _ in
                Wave(amplitude: random.uniform(2...6), length: random.uniform(50...150), phase: random.uniform(0...6.283))
            }
            bends = []
        case .freewayDrive:
            terrain = (0..<3).map { _ in
                Wave(amplitude: random.uniform(5...20), length: random.uniform(400...1_200), phase: random.uniform(0...6.283))
            }
            // Curvature (1/m) as a sum of three waves; |curvature| <= 3 / 4000, a radius of 1.3 km or more.
            bends = (0..<3).map { _ in
                Wave(amplitude: random.uniform(0.5...1) / 4_000, length: random.uniform(320...1_300), phase: random.uniform(0...6.283))
            }
        case .hike:
            terrain = (0..<2).map { _ in
                Wave(amplitude: random.uniform(3...8), length: random.uniform(80...200), phase: random.uniform(0...6.283))
            }
            bends = []
        case .standingStill:
            terrain = []
            bends = []
        }
        altitudeMSLMeters = profile.startAltitudeMSLMeters
        cruise = GaussMarkov(sigma: 1, correlationSeconds: 60, step: step, random: &random)
        wander = GaussMarkov(sigma: 1, correlationSeconds: 15, step: step, random: &random)
        self.random = random
        switch route {
        case .cityRun: scheduleCrossing(TruePath.run)
        case .cityBicycleRide: scheduleCrossing(TruePath.bicycle)
        case .freewayDrive: speed = TruePath.mergeSpeed
        case .hike: restIn = self.random.exponential(mean: TruePath.hikeRestEverySeconds)
        case .standingStill: break
        }
        altitudeMSLMeters = altitude(at: 0)
    }

    /// Moves the path on by one epoch.
    mutating func advance() {
        let before = speed
        switch route {
        case .cityRun: advanceCity(TruePath.run)
        case .cityBicycleRide: advanceCity(TruePath.bicycle)
        case .freewayDrive: advanceFreeway()
        case .hike: advanceHike()
        case .standingStill: return
        }
        let travelled = (before + speed) / 2 * step
        move(travelled)
    }

    // MARK: - Activities

    private mutating func advanceCity(_ city: City) {
        let drift = cruise.advance(&random)
        let wobble = wander.advance(&random)
        if stopRemaining > 0 {
            speed = 0
            stopRemaining -= step
            if stopRemaining <= 0 { passCrossing(city) }
            return
        }
        var target = route.profile.cruiseSpeedMetersPerSecond + city.cruiseSigma * drift
        let toCrossing = nextCrossing - distance
        if stopAtNextCrossing {
            // Slow down so as to stand still at the crossing.
            target = min(target, max(0.3, (2 * city.braking * max(0, toCrossing)).squareRoot()))
        }
        approach(target, acceleration: city.acceleration, braking: city.braking)
        if turnRemaining != 0 {
            let turn = min(turnRemaining.magnitude, PortableMath.degrees(speed / city.turnRadius) * step)
            turnRemaining -= turnRemaining > 0 ? turn : -turn
        }
        // Streets are not quite straight: a degree or two of wander about their bearing.
        heading = normalized(streetBearing - turnRemaining + 1.5 * wobble)
        if stopAtNextCrossing && toCrossing < 1 {
            speed = 0
            stopRemaining = random.uniform(city.stopSeconds)
        } else if !stopAtNextCrossing && toCrossing <= 0 {
            passCrossing(city)
        }
    }

    private mutating func advanceFreeway() {
        let drift = cruise.advance(&random)
        approach(route.profile.cruiseSpeedMetersPerSecond + 1.5 * drift,
                 acceleration: TruePath.mergeAcceleration, braking: 2)
        let curvature = bends.reduce(0) { $0 + $1.value(distance) }
        heading = normalized(heading + PortableMath.degrees(speed * curvature) * step)
    }

    private mutating func advanceHike() {
        let drift = cruise.advance(&random)
        let wobble = wander.advance(&random)
        if restIn <= 0 {
            // Resting: restIn counts the rest down from below zero.
            speed = 0
            restIn += step
            if restIn >= 0 { restIn = random.exponential(mean: TruePath.hikeRestEverySeconds) }
            return
        }
        restIn -= step
        if restIn <= 0 { restIn = -random.uniform(TruePath.hikeRestSeconds) }
        let grade = slope(at: distance)
        let tobler = 6 / 3.6 * PortableMath.exp(-3.5 * (grade + 0.05).magnitude) * TruePath.toblerScale
        approach(tobler * (1 + 0.08 * drift), acceleration: 0.5, braking: 0.8)
        // A winding trail: the heading swings about a slowly turning general direction.
        streetBearing = normalized(streetBearing + 0.02 * wobble * step)
        let swing = 35 * PortableMath.sin(distance / 40) + 12 * wobble
        heading = normalized(streetBearing + swing)
    }

    // MARK: - Helpers

    /// Changes speed toward `target`, no faster than the given accelerations.
    private mutating func approach(_ target: Double, acceleration: Double, braking: Double) {
        if target > speed {
            speed = min(target, speed + acceleration * step)
        } else {
            speed = max(target, speed - braking * step, 0)
        }
    }

    private mutating func passCrossing(_ city: City) {
        if random.chance(city.turnChance) {
            let turn = random.chance(0.5) ? 90.0 : -90.0
            streetBearing = normalized(streetBearing + turn)
            turnRemaining += turn
        }
        scheduleCrossing(city)
    }

    private mutating func scheduleCrossing(_ city: City) {
        nextCrossing = distance + random.uniform(city.blockLength)
        stopAtNextCrossing = random.chance(city.stopChance)
    }

    private mutating func move(_ meters: Double) {
        guard meters > 0 else { return }
        let r = Coordinate.earthMeanRadiusMeters
        let h = PortableMath.radians(heading)
        var lat = coordinate.latitude + PortableMath.degrees(meters * PortableMath.cos(h) / r)
        lat = min(89.9, max(-89.9, lat))
        let cosLat = PortableMath.cos(PortableMath.radians(lat))
        var lon = coordinate.longitude + PortableMath.degrees(meters * PortableMath.sin(h) / (r * cosLat))
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        coordinate = Coordinate(latitude: lat, longitude: lon)
        distance += meters
        altitudeMSLMeters = altitude(at: distance)
    }

    private func altitude(at d: Double) -> Double {
        var a = startAltitude
        for w in terrain { a += w.value(d) - w.value(0) }
        if route == .hike {
            a += TruePath.hikeClimbMeters * PortableMath.sin(d / TruePath.hikeClimbLength)
        }
        return a
    }

    /// Rise over run at distance `d` along the path.
    private func slope(at d: Double) -> Double {
        var s = terrain.reduce(0) { $0 + $1.slope(d) }
        if route == .hike {
            s += TruePath.hikeClimbMeters / TruePath.hikeClimbLength * PortableMath.cos(d / TruePath.hikeClimbLength)
        }
        return s
    }

    private func normalized(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d
    }
}
