/// The accuracy tier the user asks for (`--accuracy best`), in the spirit of Core Location's
/// `desiredAccuracy`.
///
/// A tier fixes four things, all listed in ``LocationConfiguration``'s table: the horizontal
/// accuracy that counts as a strong signal, the worst accuracy accepted once the refinement
/// timeout has passed, the default distance filter and the minimum interval between the fixes
/// the manager processes (coarse tiers look at fewer fixes, so they do less work).
///
/// Every accuracy here is trackd's **95 % horizontal radius** in metres (``PositionAccuracy``),
/// not Core Location's one-sigma `horizontalAccuracy`.
public enum DesiredAccuracy: String, CaseIterable, Sendable, Hashable {
    /// Every fix, held to the tightest threshold; for navigation and fast sampling (10 Hz pucks).
    case bestForNavigation = "best-for-navigation"
    /// The default for recording hikes: fixes at most once a second, strong within 20 m.
    case best
    case nearestTenMeters = "nearest-ten-meters"
    case hundredMeters = "hundred-meters"
    case kilometer
    case threeKilometers = "three-kilometers"

    /// The 95 % radius, in metres, at or below which a fix counts as strong.
    public var strongAccuracyMeters: Double {
        switch self {
        case .bestForNavigation: 10
        case .best: 20
        case .nearestTenMeters: 25
        case .hundredMeters: 150
        case .kilometer: 1_500
        case .threeKilometers: 4_500
        }
    }

    /// The worst 95 % radius, in metres, accepted after the refinement timeout.
    public var worstAcceptableAccuracyMeters: Double {
        switch self {
        case .bestForNavigation: 50
        case .best: 70
        case .nearestTenMeters: 100
        case .hundredMeters: 300
        case .kilometer: 3_000
        case .threeKilometers: 9_000
        }
    }

    /// The distance filter, in metres, used unless the configuration sets another; `nil` is none.
    public var defaultDistanceFilterMeters: Double? {
        switch self {
        case .bestForNavigation, .best: nil
        case .nearestTenMeters: 10
        case .hundredMeters: 50
        case .kilometer: 500
        case .threeKilometers: 1_500
        }
    }

    /// The minimum time, in seconds of fix time, between two processed fixes. Fixes that come
    /// sooner are skipped before any other work (and counted in
    /// ``LocationStatistics/fixesSkippedByInterval``).
    public var minimumFixIntervalSeconds: Double {
        switch self {
        case .bestForNavigation: 0
        case .best: 1
        case .nearestTenMeters: 2
        case .hundredMeters: 5
        case .kilometer: 10
        case .threeKilometers: 20
        }
    }
}
