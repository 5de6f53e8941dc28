/// Running counters of a location manager, for the live status and the end-of-track summary.
public struct LocationStatistics: Sendable, Hashable {
    /// Every fix handed to the manager.
    public var fixesSeen = 0
    /// Fixes that passed every check (they may still be filtered by distance).
    public var fixesAccepted = 0
    /// Fixes skipped because they came sooner than the tier's minimum interval.
    public var fixesSkippedByInterval = 0
    /// Rejected fixes by reason.
    public var rejections: [LocationRejection: Int] = [:]
    /// Location updates published.
    public var locationsDelivered = 0
    /// Candidate locations suppressed by the distance filter.
    public var filteredByDistance = 0
    /// Times the track was re-anchored after a run of mutually consistent "impossible" jumps
    /// (the earlier position was the wrong one, or the receiver really is elsewhere).
    public var reanchors = 0
    /// Times held positions were confirmed as a real fast move (getting into a car).
    public var confirmedMoves = 0
    /// Confirmed steps of the receiver's clock (each started a new segment).
    public var timeSteps = 0
    /// Fix times moved by whole GPS week cycles.
    public var timeCorrections = 0
    /// Total distance, metres.
    public var distanceMeters = 0.0
    /// Time spent moving, seconds of fix time.
    public var movingTimeSeconds = 0.0
    /// Time from the first to the last accepted fix, seconds of fix time.
    public var elapsedTimeSeconds = 0.0
    /// The highest smoothed speed, m/s.
    public var maxSpeedMetersPerSecond = 0.0
    /// How often the signal strength changed.
    public var signalChanges = 0
    /// How many weak spells outlasted the refinement timeout.
    public var consistentlyWeakSpells = 0

    public init() {}

    /// Fixes rejected for `reason`.
    public func rejected(_ reason: LocationRejection) -> Int { rejections[reason, default: 0] }

    /// Fixes rejected for any reason.
    public var rejectedTotal: Int { rejections.values.reduce(0, +) }
}
