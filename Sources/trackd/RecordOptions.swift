import ArgumentParser
import Chime
import Location

/// `trackd record`'s location and chime options. Unlike ``LocationOptions`` and
/// ``ChimeOptions`` (whose defaults are filled in by the parser) each is nil unless given, so
/// that a configuration file can supply what the command line leaves out
/// (``RecordSettings``); the defaults are in the help text.
struct RecordLocationOptions: ParsableArguments {
    @Option(help: "The accuracy tier: best-for-navigation, best, nearest-ten-meters, hundred-meters, kilometer or three-kilometers (default: best).")
    var accuracy: DesiredAccuracy?

    @Option(help: "The activity: other, automotive-navigation, fitness, other-navigation or airborne (default: fitness).")
    var activity: ActivityType?

    // Unconditional here and below: a negative number is a (wrong) value to report, not an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Metres to move before the next point, or 'none' (default: the tier's).", valueName: "metres|none"))
    var distanceFilter: String?
}

/// `--chime`, `--no-chime`, `--chime-every`, `--alsa-device`, `--volume`, each nil (false)
/// unless given; see ``RecordLocationOptions``.
struct RecordChimeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which chimes to play: a comma-separated list of update, signal, fix, lifecycle (default: \(ChimeSet.default)).",
            discussion: "update: a location was recorded (at most one per --chime-every); signal: the signal turned strong (rising) or weak (falling); fix: the fix or the receiver was lost (a low tone); lifecycle: recording started and stopped.",
            valueName: "list"))
    var chime: String?

    @Flag(help: "Play no chimes.")
    var noChime = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The least time between two update chimes, in seconds (default: 5).", valueName: "seconds"))
    var chimeEvery: Double?

    @Option(help: ArgumentHelp("The ALSA device to play chimes on (`aplay -L` lists them; default: default).", valueName: "name"))
    var alsaDevice: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The chimes' volume, 0 to 100 (default: \(ChimeVolume.default.percent)).", valueName: "percent"))
    var volume: String?
}
