/// What the receiver is carried on (`--activity fitness`), in the spirit of Core Location's
/// `activityType`.
///
/// The activity sets the physical limits used to reject jumps, the speeds at which the
/// stationary detector switches (with hysteresis) and the default speed smoothing. The values
/// are listed in ``LocationConfiguration``'s table.
public enum ActivityType: String, CaseIterable, Sendable, Hashable {
    /// Unknown: anything on the ground.
    case other
    /// A car on roads.
    case automotiveNavigation = "automotive-navigation"
    /// Walking, hiking, running, cycling: the default.
    case fitness
    /// Boats, trains and other non-road navigation.
    case otherNavigation = "other-navigation"
    /// Aircraft.
    case airborne

    /// The highest plausible speed over ground, m/s. A step implying more is an impossible jump.
    public var maximumSpeedMetersPerSecond: Double {
        switch self {
        case .other: 90
        case .automotiveNavigation: 90
        case .fitness: 12
        case .otherNavigation: 100
        case .airborne: 350
        }
    }

    /// The highest plausible acceleration, m/s². A step implying a speed above the previous
    /// speed plus this times the time step is an impossible jump.
    public var maximumAccelerationMetersPerSecondSquared: Double {
        switch self {
        case .other: 10
        case .automotiveNavigation: 10
        case .fitness: 4
        case .otherNavigation: 5
        case .airborne: 20
        }
    }

    /// Below this smoothed speed, m/s, the receiver may be standing still.
    public var stationarySpeedMetersPerSecond: Double {
        switch self {
        case .other, .fitness: 0.3
        case .automotiveNavigation: 1.0
        case .otherNavigation: 0.5
        case .airborne: 2.0
        }
    }

    /// At or above this smoothed speed, m/s, a stationary receiver may be moving again.
    /// Higher than ``stationarySpeedMetersPerSecond``: the gap is the hysteresis.
    public var movingSpeedMetersPerSecond: Double {
        switch self {
        case .other, .fitness: 0.6
        case .automotiveNavigation: 2.0
        case .otherNavigation: 1.0
        case .airborne: 5.0
        }
    }

    /// How many speed samples are averaged by default (see ``LocationConfiguration/speedSamples``).
    public var defaultSpeedSamples: Int {
        switch self {
        case .other, .fitness: 3
        case .automotiveNavigation, .airborne: 2
        case .otherNavigation: 5
        }
    }
}
