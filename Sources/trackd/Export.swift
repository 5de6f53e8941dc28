import ArgumentParser
import GPSCore
import TrackStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a recorded track as GPX 1.1.",
        discussion: """
            The GPX has the track's name and start time and its bounds, one <trkseg> per segment, \
            and per point the time, elevation, fix, satellites, DOPs, speed and course (Garmin \
            TrackPointExtension v2) and the 95 % accuracy (trackd extension), as `trackd convert` \
            writes them. With --raw, every fix the receiver sent is exported instead of the \
            accepted points. The same track always gives the same file. Works while a recorder \
            is writing the store: a running track is exported as far as it is committed.
            """
    )

    @Argument(help: ArgumentHelp("The track: its id (see `trackd tracks`) or 'latest'.", valueName: "id|latest"))
    var track: String = "latest"

    @Option(name: [.short, .customLong("output")], help: "The GPX file to write; '-' for standard output (the default when it is not a terminal).")
    var output: String?

    @Flag(help: "Export every fix received, accepted or not, instead of the track's points.")
    var raw = false

    @OptionGroup var storeLocation: StoreLocation

    func validate() throws {
        guard TrackSelector(track) != nil else {
            throw ValidationError("Please give the track as a number from `trackd tracks` or 'latest', not '\(track)'.")
        }
        if output == nil && isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("GPX is not written to a terminal; give -o FILE.gpx, or redirect standard output.")
        }
    }

    func run() throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let selector = TrackSelector(track) ?? .latest
        let store = try TrackStore.open(at: storeLocation.resolved.path, access: .read)
        store.reportReadingNote()
        let summary = try store.track(selector)
        let target = output ?? "-"
        let out = try TemporaryFileGuard.withTerminationSignalsHeld { () throws(CLIError) in
            let out = try OutputFile.create(target)
            TemporaryFileGuard.install(out)
            return out
        }
        defer { TemporaryFileGuard.clear() }

        var conversion = Conversion(trackName: summary.name ?? "trackd track \(summary.id)", seekable: !out.isStream) { bytes throws(CLIError) in
            try out.write(bytes)
        }
        do {
            var failure: CLIError?
            if raw {
                try store.forEachRawFix(ofTrack: summary.id) { afterGap, fix in
                    guard failure == nil else { return }
                    do throws(CLIError) {
                        if afterGap { try conversion.take(Fix()) }
                        try conversion.take(fix)
                    } catch { failure = error }
                }
            } else {
                var segment = 0
                try store.forEachPoint(ofTrack: summary.id) { number, fix in
                    guard failure == nil else { return }
                    do throws(CLIError) {
                        if number != segment {
                            if segment != 0 { try conversion.take(Fix()) }
                            segment = number
                        }
                        try conversion.take(fix)
                    } catch { failure = error }
                }
            }
            if let failure { throw failure }
            if let bounds = try conversion.finish() { try out.write(bounds.bytes, at: bounds.offset) }
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        let written = conversion.summary
        var line = "trackd: exported \(TrackDescription.label(summary))"
        line += raw ? " (every fix received)" : ""
        line += ": \(written.points) point\(written.points == 1 ? "" : "s") in \(written.segments) segment\(written.segments == 1 ? "" : "s")"
        if summary.state == .recording { line += " (still recording)" }
        if !out.isStandardOutput { line += " -> \(out.path)" }
        writeStandardError(line + "\n")
    }
}

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete a track from the track store, with its points and fixes.",
        discussion: "A track that a running recorder is writing cannot be deleted; stop the recorder first."
    )

    @Argument(help: ArgumentHelp("The id of the track (see `trackd tracks`).", valueName: "id"))
    var id: Int64

    @OptionGroup var storeLocation: StoreLocation

    func validate() throws {
        guard id > 0 else { throw ValidationError("Please give the id of a track from `trackd tracks`, not \(id).") }
    }

    func run() throws {
        let store = try TrackStore.open(at: storeLocation.resolved.path, access: .write)
        let summary = try store.track(.id(id))
        try store.delete(track: id)
        writeStandardError("trackd: deleted \(TrackDescription.label(summary)) (\(summary.points) points, \(summary.rawFixes) fixes)\n")
    }
}
