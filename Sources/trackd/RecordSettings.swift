import ArgumentParser
import Chime
import Location
import Logging

/// What `trackd record` runs with: each setting from the command line if given there, else
/// from the configuration file if it holds it, else the default.
struct RecordSettings: Equatable, Sendable {
    var source = "auto"
    var baud: Int?
    var accuracy = DesiredAccuracy.best
    var activity = ActivityType.fitness
    /// Metres as text, or "none"; nil for the tier's filter.
    var distanceFilter: String?
    var name: String?
    var store: String?
    /// As `--chime` takes it, or "none".
    var chimes = ChimeSet.default.description
    var chimeEvery = 5.0
    var alsaDevice = "default"
    var volume = String(ChimeVolume.default.percent)
    var allowMissingChecksum = false
    /// Where to serve the live view; nil for nowhere.
    var serve: String?

    /// The settings of `commandLine` (what was given there) over `file` over the defaults.
    init(commandLine: RecordConfiguration, file: RecordConfiguration) {
        func pick<T>(_ key: KeyPath<RecordConfiguration, T?>) -> T? { commandLine[keyPath: key] ?? file[keyPath: key] }
        source = pick(\.source) ?? source
        baud = pick(\.baud)
        accuracy = pick(\.accuracy) ?? accuracy
        activity = pick(\.activity) ?? activity
        distanceFilter = pick(\.distanceFilter)
        name = pick(\.name)
        store = pick(\.store)
        chimes = pick(\.chimes) ?? chimes
        chimeEvery = pick(\.chimeEvery) ?? chimeEvery
        alsaDevice = pick(\.alsaDevice) ?? alsaDevice
        volume = pick(\.volume) ?? volume
        allowMissingChecksum = pick(\.allowMissingChecksum) ?? allowMissingChecksum
        serve = pick(\.serve).flatMap { $0 == "none" ? nil : $0 }
    }

    /// The location manager's configuration, as ``LocationOptions`` makes it.
    func locationConfiguration() throws -> LocationConfiguration {
        var arguments = ["--accuracy", accuracy.rawValue, "--activity", activity.rawValue]
        if let distanceFilter { arguments += ["--distance-filter", distanceFilter] }
        do {
            return try LocationOptions.parse(arguments).configuration
        } catch {
            // The option's own sentence, not the parser's wrapper around it.
            throw ValidationError(LocationOptions.message(for: error))
        }
    }

    /// The chime player, as ``ChimeOptions`` makes it; nil for no chimes.
    func chimePlayer(logger: Logger) throws -> ChimePlayer? {
        var arguments = ["--chime-every", String(chimeEvery), "--alsa-device", alsaDevice, "--volume", volume]
        arguments += chimes == "none" ? ["--no-chime"] : ["--chime", chimes]
        let options: ChimeOptions
        do {
            options = try ChimeOptions.parse(arguments)
        } catch {
            throw ValidationError(ChimeOptions.message(for: error))
        }
        return try options.makePlayer(logger: logger)
    }
}
