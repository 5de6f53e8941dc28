import ArgumentParser

@main
struct Trackd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd",
        abstract: "Record GPS tracks from a receiver and export them as GPX.",
        discussion: """
            trackd reads NMEA 0183 from a GPS receiver or a log, assembles each epoch's \
            sentences into one fix, and writes GPX 1.1 that validates and that other tools read.
            """,
        version: TrackdVersion.string,
        subcommands: [Convert.self, Replay.self, Simulate.self, Record.self, Tracks.self, Export.self, Delete.self, Sources.self, Render.self]
    )
}

enum TrackdVersion {
    static let string = "0.1.0"
}
