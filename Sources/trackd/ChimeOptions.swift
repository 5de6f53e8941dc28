import ArgumentParser
import Chime
import Logging

/// `--chime`, `--no-chime`, `--chime-every`, `--alsa-device`, `--volume`: the chimes of
/// `trackd record`.
struct ChimeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which chimes to play: a comma-separated list of update, signal, fix, lifecycle.",
            discussion: "update: a location was recorded (at most one per --chime-every); signal: the signal turned strong (rising) or weak (falling); fix: the fix or the receiver was lost (a low tone); lifecycle: recording started and stopped.",
            valueName: "list"))
    var chime: String = ChimeSet.default.description

    @Flag(help: "Play no chimes.")
    var noChime = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The least time between two update chimes, in seconds.", valueName: "seconds"))
    var chimeEvery: Double = 5

    @Option(help: ArgumentHelp("The ALSA device to play chimes on (`aplay -L` lists them).", valueName: "name"))
    var alsaDevice: String = "default"

    @Option(parsing: .unconditional, help: ArgumentHelp("The chimes' volume, 0 to 100.", valueName: "percent"))
    var volume: String = String(ChimeVolume.default.percent)

    func validate() throws {
        do {
            _ = try ChimeSet(parsing: chime)
            _ = try ChimeVolume(parsing: volume)
            _ = try ChimePolicy.updateInterval(seconds: chimeEvery)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The player these options ask for; nil when no chime is to be played.
    func makePlayer(logger: Logger) throws -> ChimePlayer? {
        let enabled = noChime ? ChimeSet.none : try ChimeSet(parsing: chime)
        let volume = try ChimeVolume(parsing: volume)
        guard !enabled.isEmpty, volume != .silent else { return nil }
        return ChimePlayer(
            device: alsaDevice, volume: volume, enabled: enabled,
            updateInterval: try ChimePolicy.updateInterval(seconds: chimeEvery), clock: ContinuousClock(),
            logger: logger)
    }
}
