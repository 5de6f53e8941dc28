import ArgumentParser
import GPSCore
import TrackStore

struct Tracks: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the tracks in the track store.",
        discussion: """
            One line per track: id, name, start (UTC), duration, distance, points and state \
            (recording, finished, or recovered after a kill or power cut). With --json, an array \
            of objects with the keys id, name, start, duration_s, distance_m, points, segments \
            and state. Works while a recorder is writing the store.
            """
    )

    @OptionGroup var storeLocation: StoreLocation

    @Flag(help: "Print a JSON array on standard output.")
    var json = false

    func run() throws {
        let path = storeLocation.resolved.path
        let tracks = try Tracks.list(path)
        if json {
            print("[" + tracks.map(Tracks.json).joined(separator: ",") + "]")
            return
        }
        guard !tracks.isEmpty else {
            writeStandardError("trackd: no tracks in \(path) yet; record one with `trackd record`\n")
            return
        }
        let rows = [["ID", "NAME", "START", "DURATION", "DISTANCE", "POINTS", "STATE"]] + tracks.map { t in
            [String(t.id), t.name ?? "-", t.start.map(String.init(describing:)) ?? "-",
             duration(seconds: Int64(t.durationSeconds)), kilometres(t.distanceMeters) + " km", String(t.points), t.state.rawValue]
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 4, 5]
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            print(cells.joined(separator: "  ").trimmingTrailingSpaces)
        }
    }

    /// The store's tracks; none for a store that has never held one.
    static func list(_ path: String) throws(StoreError) -> [TrackSummary] {
        do {
            let store = try TrackStore.open(at: path, access: .read)
            store.reportReadingNote()
            return try store.tracks()
        } catch {
            if case .noTracks = error { return [] }
            throw error
        }
    }

    static func json(_ t: TrackSummary) -> String {
        "{" + [
            "\"id\":\(t.id)",
            "\"name\":" + JSONText.string(t.name),
            "\"start\":" + (t.start.map { "\"\($0)\"" } ?? "null"),
            "\"duration_s\":\(decimal(t.durationSeconds, digits: 1))",
            "\"distance_m\":\(decimal(t.distanceMeters, digits: 1))",
            "\"points\":\(t.points)",
            "\"segments\":\(t.segments)",
            "\"state\":\"\(t.state.rawValue)\"",
        ].joined(separator: ",") + "}"
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension TrackStore {
    /// Says on standard error why the store is read without SQLite's shared memory, when the
    /// user should know (a full disk, commits that cannot be read).
    func reportReadingNote() {
        if let note = readingNote { writeStandardError("trackd: \(note)\n") }
    }
}
