import ArgumentParser
import LiveView

struct Trackd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd",
        abstract: "Record GPS tracks from a receiver and export them as GPX.",
        discussion: """
            trackd reads NMEA 0183 from a GPS receiver or a log, assembles each epoch's \
            sentences into one fix, and writes GPX 1.1 that validates and that other tools read.
            """,
        version: TrackdVersion.string,
        subcommands: [Convert.self, Replay.self, Simulate.self, Record.self, Tracks.self, Export.self, Delete.self, Sources.self, Render.self, Serve.self]
    )
}

enum TrackdVersion {
    static let string = "0.1.0"
}

@main
enum TrackdMain {
    static func main() async {
        await Trackd.main(ServeArgument.expanded(Array(CommandLine.arguments.dropFirst())))
    }
}

/// `trackd record --serve` takes an optional value, which ArgumentParser's options cannot:
/// a `--serve` with no value after it (the last argument, or followed by another option)
/// becomes `--serve=127.0.0.1:8080`.
enum ServeArgument {
    static func expanded(_ arguments: [String]) -> [String] {
        guard arguments.first == "record" else { return arguments }
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if argument == "--serve" {
                let next: String? = index + 1 < arguments.count ? arguments[index + 1] : nil
                if next == nil || next?.hasPrefix("-") == true {
                    result.append("--serve=" + ListenAddress.default.description)
                    index += 1
                    continue
                }
            }
            result.append(argument)
            index += 1
        }
        return result
    }
}
