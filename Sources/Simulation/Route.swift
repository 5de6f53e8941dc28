import GPSCore

/// A named route to simulate, in the spirit of the iOS Simulator's location presets.
///
/// Each route is a true path generated from the seed: where it starts, when, how fast it
/// goes, where it stops and turns, and how its altitude changes. See ``profile`` for the
/// numbers.
///
/// | route | start | UTC start | speed | shape |
/// |---|---|---|---|---|
/// | `city-run` | Zürich, Bellevue, 47.36670 N 8.54500 E, 408 m | 2024-09-14 06:30 | 3.1 m/s cruising, 2.3-3.3 m/s on average | 80-220 m blocks, stops at 30 % of crossings for 5-30 s, right-angle turns at 30 % |
/// | `city-bicycle-ride` | Copenhagen, Dronning Louises Bro, 55.68690 N 12.56530 E, 8 m | 2024-09-14 07:15 | 5.8 m/s cruising, 4.3-6.0 m/s on average | 150-400 m blocks, stops at 25 % of crossings for 10-35 s, turns at 30 % |
/// | `freeway-drive` | I-280 at Cupertino, 37.33182 N 122.03118 W, 70 m | 2024-09-14 16:00 | merges at 12 m/s, cruises at 30 m/s (26-32 m/s on average after the first minutes) | curves of 1.3 km radius or more, rolling altitude |
/// | `hike` | Grindelwald, 46.62405 N 8.04137 E, 1340 m | 2024-09-14 07:30 | Tobler's hiking function: 1.4 m/s on the flat, about 1 m/s climbing; 0.8-1.4 m/s on average | a winding trail, climbing up to 500 m over the first 11 km, rests of 30-120 s about every 20 min |
/// | `standing-still` | Bern, Bundesplatz, 46.94697 N 7.44403 E, 541 m | 2024-09-14 12:00 | 0 | does not move |
public enum Route: String, CaseIterable, Sendable {
    case cityRun = "city-run"
    case cityBicycleRide = "city-bicycle-ride"
    case freewayDrive = "freeway-drive"
    case hike
    case standingStill = "standing-still"

    /// Where and when the route starts, and what it is like.
    public var profile: RouteProfile {
        let day = CalendarDate(year: 2024, month: 9, day: 14)
        switch self {
        case .cityRun:
            return RouteProfile(
                place: "Zürich, Bellevue", start: Coordinate(latitude: 47.36670, longitude: 8.54500),
                startAltitudeMSLMeters: 408, geoidSeparationMeters: 47.4,
                startTime: FixTime(date: day, timeOfDay: TimeOfDay(hour: 6, minute: 30, second: 0)),
                cruiseSpeedMetersPerSecond: 3.1, meanSpeedMetersPerSecond: 2.3...3.3,
                fixLossEverySeconds: 480, fixLossSeconds: 4...15, signalLossDecibels: 4)
        case .cityBicycleRide:
            return RouteProfile(
                place: "Copenhagen, Dronning Louises Bro", start: Coordinate(latitude: 55.68690, longitude: 12.56530),
                startAltitudeMSLMeters: 8, geoidSeparationMeters: 39.6,
                startTime: FixTime(date: day, timeOfDay: TimeOfDay(hour: 7, minute: 15, second: 0)),
                cruiseSpeedMetersPerSecond: 5.8, meanSpeedMetersPerSecond: 4.3...6.0,
                fixLossEverySeconds: 600, fixLossSeconds: 3...12, signalLossDecibels: 3)
        case .freewayDrive:
            return RouteProfile(
                place: "I-280 at Cupertino", start: Coordinate(latitude: 37.33182, longitude: -122.03118),
                startAltitudeMSLMeters: 70, geoidSeparationMeters: -32.2,
                startTime: FixTime(date: day, timeOfDay: TimeOfDay(hour: 16, minute: 0, second: 0)),
                cruiseSpeedMetersPerSecond: 30, meanSpeedMetersPerSecond: 26...32,
                fixLossEverySeconds: 900, fixLossSeconds: 2...8, signalLossDecibels: 1)
        case .hike:
            return RouteProfile(
                place: "Grindelwald", start: Coordinate(latitude: 46.62405, longitude: 8.04137),
                startAltitudeMSLMeters: 1340, geoidSeparationMeters: 49.5,
                startTime: FixTime(date: day, timeOfDay: TimeOfDay(hour: 7, minute: 30, second: 0)),
                cruiseSpeedMetersPerSecond: 1.2, meanSpeedMetersPerSecond: 0.8...1.4,
                fixLossEverySeconds: 720, fixLossSeconds: 10...40, signalLossDecibels: 2)
        case .standingStill:
            return RouteProfile(
                place: "Bern, Bundesplatz", start: Coordinate(latitude: 46.94697, longitude: 7.44403),
                startAltitudeMSLMeters: 541, geoidSeparationMeters: 49.0,
                startTime: FixTime(date: day, timeOfDay: TimeOfDay(hour: 12, minute: 0, second: 0)),
                cruiseSpeedMetersPerSecond: 0, meanSpeedMetersPerSecond: 0...0,
                fixLossEverySeconds: 1200, fixLossSeconds: 10...30, signalLossDecibels: 0)
        }
    }
}

/// The fixed facts of a route: its start, its speeds, and how often the receiver loses its fix.
public struct RouteProfile: Sendable, Hashable {
    /// A name for the start, for people.
    public var place: String
    public var start: Coordinate
    /// Altitude of the start above mean sea level, metres.
    public var startAltitudeMSLMeters: Double
    /// Geoid height above the WGS-84 ellipsoid at the start (EGM96, rounded), metres; GGA field 11.
    public var geoidSeparationMeters: Double
    /// UTC time of the first epoch.
    public var startTime: FixTime
    /// The speed the route settles at between stops and climbs, m/s.
    public var cruiseSpeedMetersPerSecond: Double
    /// The mean speed over ten minutes or more, stops included, m/s: what a test can expect.
    public var meanSpeedMetersPerSecond: ClosedRange<Double>
    /// Mean time between fix losses, seconds (they start at random, a Poisson process).
    public var fixLossEverySeconds: Double
    /// How long each fix loss lasts, seconds.
    public var fixLossSeconds: ClosedRange<Double>
    /// How much weaker signals are than under open sky (buildings, trees), dB-Hz.
    public var signalLossDecibels: Double
}
