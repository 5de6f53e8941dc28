import GPSCore

/// How good the position is, judged from the horizontal accuracy against the tier.
public enum SignalStrength: String, CaseIterable, Sendable, Hashable {
    /// No position: a no-fix epoch, or no fix for ``LocationConfiguration/staleAfter``.
    case invalid
    /// A position worse than the tier's strong threshold.
    case weak
    /// A position within the tier's strong threshold.
    case strong
}

/// Why a fix was not used.
public enum LocationRejection: String, CaseIterable, Sendable, Hashable {
    /// The fix has no position (no-fix epoch, or an out-of-range coordinate).
    case noPosition = "no-position"
    /// The fix has no date and time, so it cannot be ordered or aged. The epoch assembler
    /// carries the date forward, so this only affects the epochs before the first RMC or ZDA.
    case noTime = "no-time"
    /// The fix repeats an epoch already taken: its time is the last fix's, or a little
    /// before it (``FixTimeline/lateRepeatSeconds``).
    case notNewer = "not-newer"
    /// The fix's time was out of line with the track (far ahead, or behind), and the fixes
    /// after it went on from the track's time: a receiver's bad date, not a clock step.
    case timeOutlier = "time-outlier"
    /// The fix arrived more than ``LocationConfiguration/staleAfter`` later than the freshest fixes.
    case stale
    /// The accuracy is worse than the current threshold (strong threshold while refining,
    /// worst acceptable after the refinement timeout), or unknown.
    case tooInaccurate = "too-inaccurate"
    /// The position was inconsistent with the recent motion (a speed or acceleration the
    /// activity cannot reach, against the receiver's own speed when it sends one), and the
    /// fixes after it went on from the track: a multipath jump. Counted when it is dropped.
    case impossibleJump = "impossible-jump"
}

/// A location update: a fix the manager accepted and published.
public struct Location: Sendable, Hashable {
    /// The fix as the receiver reported it.
    public var fix: Fix
    public var coordinate: Coordinate
    public var time: FixTime
    /// The 95 % horizontal radius, metres.
    public var horizontalAccuracyMeters: Double
    /// The smoothed speed, m/s; 0 while stationary.
    public var speedMetersPerSecond: Double
    /// Course over ground, degrees from true north, as the receiver reported it; `nil` while
    /// stationary or when not reported.
    public var courseDegrees: Double?

    public init(
        fix: Fix, coordinate: Coordinate, time: FixTime, horizontalAccuracyMeters: Double,
        speedMetersPerSecond: Double, courseDegrees: Double?
    ) {
        self.fix = fix
        self.coordinate = coordinate
        self.time = time
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees
    }
}

/// What the location manager tells its consumer.
public enum LocationEvent: Sendable, Hashable {
    /// A new point of the track.
    case locationUpdated(Location)
    /// The signal strength changed.
    case signalStrengthChanged(SignalStrength)
    /// The signal has been weak for the refinement timeout; weak fixes are now accepted.
    /// Sent once per weak spell.
    case signalConsistentlyWeak
    /// The total distance grew.
    case distanceUpdated(totalMeters: Double)
    /// The receiver stopped: the stationary detector says so, or no location was delivered
    /// for the ping interval. Speed is 0 from now on.
    case stationary
    /// The receiver moves again after ``stationary``.
    case movingAgain
    /// The receiver's clock stepped, confirmed by the fixes after the step: a new segment
    /// starts, and nothing is measured across the step. `fromSeconds` is the last time
    /// before it (nil when none was taken), both in seconds since 1970.
    case timeStepped(fromSeconds: Double?, toSeconds: Double)
    /// The fix's date was a whole GPS week cycle (1024 weeks) off and was moved to `corrected`
    /// (a week-number rollover); the location updates carry the corrected time.
    case timeCorrected(Fix, corrected: FixTime)
    /// A fix was not used. Fixes suppressed by the distance filter or skipped by the tier's
    /// minimum interval are not rejections; they are only counted in ``LocationStatistics``.
    case rejected(Fix, LocationRejection)
}
