import Foundation
import Testing

@Suite("trackd record: default store and terminal status")
struct RecordEnvironmentTests {
    /// The environment with `changes`, and without the variables that pick the store.
    static func environment(_ changes: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["STATE_DIRECTORY", "XDG_DATA_HOME"] { environment[key] = nil }
        environment.merge(changes) { $1 }
        return environment
    }

    @Test("without --store, the store is $STATE_DIRECTORY/tracks.sqlite under systemd, else under $XDG_DATA_HOME, else under ~/.local/share",
          arguments: ["STATE_DIRECTORY", "XDG_DATA_HOME", "HOME"])
    func defaultStore(variable: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected: String
        switch variable {
        case "STATE_DIRECTORY": expected = dir.path + "/tracks.sqlite"
        case "XDG_DATA_HOME": expected = dir.path + "/trackd/tracks.sqlite"
        default: expected = dir.path + "/.local/share/trackd/tracks.sqlite"
        }
        let environment = Self.environment([variable: dir.path] .merging(variable == "HOME" ? [:] : ["HOME": "/nonexistent"]) { $1 })
        let record = try Support.run(
            Support.trackd.path,
            ["record", "--source", "simulate:standing-still", "--speed", "max", "--duration", "20s"],
            environment: environment)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("-> \(expected)"), "\(record.stderr)")
        #expect(FileManager.default.fileExists(atPath: expected))
        let tracks = try Support.run(Support.trackd.path, ["tracks", "--json"], environment: environment)
        #expect(tracks.status == 0, "\(tracks.stderr)")
        #expect(tracks.stdoutText.contains("\"name\":\"standing-still\""), "\(tracks.stdoutText)")
    }

    @Test("on a terminal, record keeps one status line with the fix, satellites, signal, points, distance, speed and elapsed time")
    func statusLineOnTerminal() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("t.sqlite").path
        let transcript = dir.appendingPathComponent("typescript").path
        let command = "\(Support.trackd.path) record --source simulate:city-run --speed 20 --duration 2m --store \(store)"
        // script(1) runs the command on a pseudo-terminal and copies what it wrote.
        let run = try Support.run("script", ["-qec", command, transcript])
        #expect(run.status == 0, "\(run.stderr)")
        let screen = try String(contentsOfFile: transcript, encoding: .utf8)
        let lines = screen.components(separatedBy: "\r\u{1B}[K").filter { $0.contains(" points ") && $0.contains(" | ") }
        #expect(lines.count >= 2, "the status line is redrawn: \(screen.suffix(400))")
        let last = try #require(lines.last)
        #expect(last.contains("3D") || last.contains("2D"), "\(last)")
        #expect(last.contains(" sats"), "\(last)")
        #expect(last.contains("strong") || last.contains("weak"), "\(last)")
        #expect(last.contains(" km ") && last.contains(" m/s"), "\(last)")
        #expect(screen.contains("recorded track 1 'city-run'"), "the summary follows the status line")
        #expect(!screen.contains("info trackd"), "no log lines on a terminal")
    }
}
