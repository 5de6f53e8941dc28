import GPSCore

/// What to simulate: a route, for how long, at what rate, with how much receiver error.
public struct SimulationSettings: Sendable, Hashable {
    public var route: Route
    /// Epochs per second.
    public var rate: UpdateRate
    /// Length of the simulation in seconds; the epochs are at 0, 1/rate, … before it ends.
    public var durationSeconds: Double
    /// Horizontal position error, metres RMS (the root of the mean squared distance from the
    /// truth). 0 reports the true path exactly. Typical consumer receivers: 2-5 m.
    public var noiseMeters: Double
    /// Seed of every random choice: the same settings give the same output, byte for byte.
    public var seed: UInt64
    /// Mean seconds between multipath spells, or nil for none (the default). In a spell the
    /// position is 40-150 m off for one to four seconds, in one direction, while HDOP, GST and
    /// the Doppler speed stay as they were: what a receiver in a valley or beside buildings
    /// reports. See ``Receiver``.
    public var multipathEverySeconds: Double?
    /// UTC time of the first epoch; `nil` for the route's own (``RouteProfile/startTime``).
    /// A start without a date is given the route's date.
    public var start: FixTime?

    /// Settings with the defaults of `trackd simulate`: 1 Hz, 10 minutes, 3 m noise, seed 1.
    public init(
        route: Route, rate: UpdateRate = .hz1, durationSeconds: Double = 600, noiseMeters: Double = 3,
        seed: UInt64 = 1, start: FixTime? = nil, multipathEverySeconds: Double? = nil
    ) {
        self.multipathEverySeconds = multipathEverySeconds
        self.route = route
        self.rate = rate
        self.durationSeconds = durationSeconds
        self.noiseMeters = noiseMeters
        self.seed = seed
        self.start = start
    }

    /// The number of epochs the simulation yields.
    public var epochCount: Int {
        guard durationSeconds > 0 && durationSeconds.isFinite else { return 0 }
        return Int((durationSeconds * Double(rate.rawValue)).rounded(.up))
    }

    /// The largest noise the simulator accepts, metres RMS.
    public static let maximumNoiseMeters = 100.0
}

/// How many epochs a receiver reports per second: the rates u-blox receivers offer.
public enum UpdateRate: Int, CaseIterable, Sendable {
    case hz1 = 1
    case hz2 = 2
    case hz4 = 4
    case hz5 = 5
    case hz10 = 10

    /// Time between epochs in microseconds (exact for every case).
    public var periodMicroseconds: Int64 { 1_000_000 / Int64(rawValue) }
    /// Time between epochs in seconds.
    public var periodSeconds: Double { 1 / Double(rawValue) }
}
