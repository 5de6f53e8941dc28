import GPSCore

/// Simulated receiver output along a route: one ``SimulatedEpoch`` per epoch, the sentences a
/// u-blox receiver would send and the true position they estimate.
///
/// Pure and deterministic: no clock, no I/O, no system random numbers. The same settings give
/// the same sentences, byte for byte, on every platform (the arithmetic is IEEE 754 `+ - * /`
/// and square roots, see ``PortableMath``).
///
/// ```swift
/// for epoch in Simulator(SimulationSettings(route: .hike, durationSeconds: 60)) {
///     for sentence in epoch.sentences { write(sentence) }
/// }
/// ```
public struct Simulator: Sequence, IteratorProtocol, Sendable {
    public let settings: SimulationSettings
    private var path: TruePath
    private var receiver: Receiver
    private var index = 0
    private let startMicroseconds: Int64

    public init(_ settings: SimulationSettings) {
        var settings = settings
        settings.noiseMeters = Swift.max(0, Swift.min(settings.noiseMeters, SimulationSettings.maximumNoiseMeters))
        self.settings = settings
        path = TruePath(route: settings.route, seed: settings.seed, step: settings.rate.periodSeconds)
        receiver = Receiver(settings: settings)
        let routeStart = settings.route.profile.startTime
        let start = settings.start ?? routeStart
        let date = start.date ?? routeStart.date ?? CalendarDate(year: 2024, month: 9, day: 14)
        startMicroseconds = Int64(date.daysSinceEpoch) * TimeOfDay.microsecondsPerDay
            + Swift.min(start.timeOfDay.microseconds, TimeOfDay.microsecondsPerDay - 1)
    }

    /// The next epoch, or nil after ``SimulationSettings/epochCount`` epochs.
    public mutating func next() -> SimulatedEpoch? {
        guard index < settings.epochCount else { return nil }
        if index > 0 { path.advance() }
        let offset = Int64(index) * settings.rate.periodMicroseconds
        let seconds = Double(offset) / 1e6
        let micros = startMicroseconds + offset
        let time = FixTime(microsecondsSinceEpoch: micros)
        let (satellites, hasFix) = receiver.observe(at: seconds)
        let truth = TruePosition(
            time: time, coordinate: path.coordinate, altitudeMSLMeters: path.altitudeMSLMeters,
            speedMetersPerSecond: path.speed, courseDegrees: path.heading, distanceMeters: path.distance,
            hasFix: hasFix)
        let sentences = receiver.sentences(for: truth, at: seconds, satellites: satellites)
        index += 1
        return SimulatedEpoch(truth: truth, sentences: sentences)
    }

    public var underestimatedCount: Int { settings.epochCount - index }
}

/// One epoch of a simulation: the true position and the receiver's sentences for it.
public struct SimulatedEpoch: Sendable, Hashable {
    public var truth: TruePosition
    /// Complete sentences, each `$…*hh` and CRLF, in the order the receiver sends them.
    public var sentences: [String]

    public init(truth: TruePosition, sentences: [String]) {
        self.truth = truth
        self.sentences = sentences
    }

    /// All of the epoch's sentences as one string.
    public var text: String { sentences.joined() }
}
