/// Everything that tunes the location manager, with documented defaults.
///
/// `LocationConfiguration(desiredAccuracy:activityType:)` fills every field from the tier and
/// the activity; change single fields afterwards:
///
/// ```swift
/// var configuration = LocationConfiguration(desiredAccuracy: .nearestTenMeters)
/// configuration.distanceFilter = nil   // every location, no filter
/// ```
///
/// ## Accuracy statistic
///
/// Every accuracy is trackd's **95 % horizontal radius** in metres (``PositionAccuracy``):
/// from the receiver's GST error estimates, gpsd's `eph`, or HDOP times an assumed user-range
/// error when neither is sent. Core Location's `horizontalAccuracy` is a one-sigma (about
/// 68 %) radius, so a 95 % radius is about 1.6 times larger for the same fix; the tier
/// thresholds below are expressed in the 95 % statistic and are not Core Location's numbers.
///
/// ## Tiers (``DesiredAccuracy``)
///
/// | Tier | Strong at or below | Worst accepted after the refinement timeout | Default distance filter | Minimum interval between processed fixes |
/// |---|---|---|---|---|
/// | `best-for-navigation` | 10 m | 50 m | none | none (every fix, 10 Hz too) |
/// | `best` (default) | 20 m | 70 m | none | 1 s |
/// | `nearest-ten-meters` | 25 m | 100 m | 10 m | 2 s |
/// | `hundred-meters` | 150 m | 300 m | 50 m | 5 s |
/// | `kilometer` | 1 500 m | 3 000 m | 500 m | 10 s |
/// | `three-kilometers` | 4 500 m | 9 000 m | 1 500 m | 20 s |
///
/// A fix within the strong threshold makes the signal strong; a worse one makes it weak.
/// While weak, only fixes within the strong threshold are accepted, until the weak spell has
/// lasted ``refinementTimeout``; from then on fixes up to ``worstAcceptableAccuracy`` are
/// accepted, until the signal is strong again.
///
/// ## Activities (``ActivityType``)
///
/// | Activity | Maximum speed | Maximum acceleration | Stationary below | Moving again at | Speed samples averaged |
/// |---|---|---|---|---|---|
/// | `other` | 90 m/s | 10 m/s² | 0.3 m/s | 0.6 m/s | 3 |
/// | `automotive-navigation` | 90 m/s | 10 m/s² | 1.0 m/s | 2.0 m/s | 2 |
/// | `fitness` (default) | 12 m/s | 4 m/s² | 0.3 m/s | 0.6 m/s | 3 |
/// | `other-navigation` | 100 m/s | 5 m/s² | 0.5 m/s | 1.0 m/s | 5 |
/// | `airborne` | 350 m/s | 20 m/s² | 2.0 m/s | 5.0 m/s | 2 |
///
/// ## Jumps
///
/// A position is checked against the last accepted one. The step may exceed the reachable
/// distance by the two fixes' combined accuracy (root sum of squares). When both fixes carry
/// the receiver's speed over ground and the two speeds differ by no more than the activity's
/// acceleration allows (plus 1 m/s), the reachable distance is the time step times the larger
/// speed, plus 10 % and 0.5 m/s, plus a quarter of the acceleration limit times the time step
/// (at most 2 s of it): receivers measure that speed by Doppler, which multipath does not
/// move, so a position 40-150 m off while the speed says walking is caught at once. Otherwise
/// it is the smoothed speed times the time step plus half the acceleration limit times its
/// square, at most the activity's maximum speed (or 1.25 times the smoothed speed, when
/// higher) times the time step.
///
/// A position beyond that is **held back**, not stored. Held positions that go on from each
/// other (at a car's limits) form a run; a later fix consistent with the track drops the run
/// (``LocationRejection/impossibleJump``). The run is taken, every position in it stored, when
/// it has at least 3 fixes and
/// - spans 5 s and the step into it was possible for a car (a real fast move: getting into a
///   car), counted in ``LocationStatistics/confirmedMoves``; or
/// - spans 30 s, or outnumbers the fixes accepted since the track's position was last
///   confirmed (a first fix that was the outlier): the track re-anchors there without
///   counting the step's distance (``LocationStatistics/reanchors``).
///
/// Speed is the receiver's speed over ground when it sends one, otherwise the step length over
/// the time step; the reported speed is the mean of the last ``speedSamples`` samples, except
/// that a sample faster than the mean is reported at once.
public struct LocationConfiguration: Sendable, Hashable {
    /// The accuracy tier; default ``DesiredAccuracy/best``.
    public var desiredAccuracy: DesiredAccuracy
    /// The activity; default ``ActivityType/fitness``.
    public var activityType: ActivityType
    /// The minimum horizontal distance, in metres, from the last delivered location before the
    /// next is delivered; `nil` delivers every location. Default: the tier's
    /// ``DesiredAccuracy/defaultDistanceFilterMeters``.
    public var distanceFilter: Double?
    /// How long a weak spell lasts before weak fixes are accepted; default 15 s.
    public var refinementTimeout: Duration
    /// The worst 95 % radius, in metres, accepted after the refinement timeout. Default: the
    /// tier's ``DesiredAccuracy/worstAcceptableAccuracyMeters`` (70 m for `best`).
    public var worstAcceptableAccuracy: Double
    /// How many recent accepted fixes are kept to choose the most accurate from; default 5.
    public var historySize: Int
    /// The maximum age, by fix time, of a fix in the history; default 3 s.
    public var historyMaxAge: Duration
    /// How many speed samples are averaged; default: the activity's
    /// ``ActivityType/defaultSpeedSamples`` (3 for `fitness`).
    public var speedSamples: Int
    /// Distance counts only from the fix that makes this many accepted fixes; default 3.
    public var distanceWarmupFixes: Int
    /// After this long without a delivered location, the manager reports
    /// ``LocationEvent/stationary``; default 10 s. Never shorter than twice the tier's minimum
    /// fix interval (see ``effectivePingInterval``).
    public var pingInterval: Duration
    /// A fix that arrives this much later than the freshest fixes (fix time against the clock)
    /// is stale and never used; after this long without a fix the signal is invalid. Default 60 s.
    public var staleAfter: Duration

    /// A configuration with every field set from `desiredAccuracy` and `activityType`.
    public init(desiredAccuracy: DesiredAccuracy = .best, activityType: ActivityType = .fitness) {
        self.desiredAccuracy = desiredAccuracy
        self.activityType = activityType
        self.distanceFilter = desiredAccuracy.defaultDistanceFilterMeters
        self.refinementTimeout = .seconds(15)
        self.worstAcceptableAccuracy = desiredAccuracy.worstAcceptableAccuracyMeters
        self.historySize = 5
        self.historyMaxAge = .seconds(3)
        self.speedSamples = activityType.defaultSpeedSamples
        self.distanceWarmupFixes = 3
        self.pingInterval = .seconds(10)
        self.staleAfter = .seconds(60)
    }

    /// The ping interval in force: ``pingInterval``, but at least twice the tier's minimum fix
    /// interval, so that a coarse tier does not report a stop between every two fixes.
    public var effectivePingInterval: Duration {
        max(pingInterval, .milliseconds(Int64(desiredAccuracy.minimumFixIntervalSeconds * 2_000)))
    }
}

extension Duration {
    /// The duration in seconds, with fraction.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
