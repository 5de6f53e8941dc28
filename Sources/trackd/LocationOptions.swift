import ArgumentParser
import Location

extension DesiredAccuracy: ExpressibleByArgument {}
extension ActivityType: ExpressibleByArgument {}

/// `--accuracy`, `--activity` and `--distance-filter`: the location manager's settings, for
/// `trackd replay` and `trackd record`.
struct LocationOptions: ParsableArguments {
    @Option(help: "The accuracy tier: best-for-navigation, best, nearest-ten-meters, hundred-meters, kilometer or three-kilometers.")
    var accuracy: DesiredAccuracy = .best

    @Option(help: "The activity: other, automotive-navigation, fitness, other-navigation or airborne.")
    var activity: ActivityType = .fitness

    // Unconditional: a negative number is a (wrong) value to report, not an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Metres to move before the next point, or 'none' (default: the tier's).", valueName: "metres|none"))
    var distanceFilter: String?

    func validate() throws {
        if let filter = distanceFilter, filter != "none" {
            guard let metres = Double(filter), metres.isFinite, metres >= 0 else {
                throw ValidationError("--distance-filter takes a number of metres (like 5) or 'none', not '\(filter)'.")
            }
        }
    }

    /// The manager's configuration: the tier's and the activity's defaults, with the filter given.
    var configuration: LocationConfiguration {
        var configuration = LocationConfiguration(desiredAccuracy: accuracy, activityType: activity)
        if let filter = distanceFilter {
            configuration.distanceFilter = filter == "none" ? nil : Double(filter)
        }
        return configuration
    }
}
