import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--store PATH`, shared by every command that touches the track store.
struct StoreLocation: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The track store (an SQLite file).",
            discussion: "Default: $STATE_DIRECTORY/tracks.sqlite under systemd, else $XDG_DATA_HOME/trackd/tracks.sqlite, else ~/.local/share/trackd/tracks.sqlite.",
            valueName: "path"))
    var store: String?

    /// The store's path, and whether it is the default one (whose directory trackd creates).
    var resolved: (path: String, isDefault: Bool) {
        if let store { return (store, false) }
        return (StoreLocation.defaultPath(environment: StoreLocation.environment), true)
    }

    /// The default store path for an environment.
    static func defaultPath(environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return "\(state)/tracks.sqlite"
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return "\(data)/trackd/tracks.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return "\(home)/.local/share/trackd/tracks.sqlite"
    }

    static var environment: [String: String] {
        var result: [String: String] = [:]
        for key in ["STATE_DIRECTORY", "XDG_DATA_HOME", "HOME"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }
}
