import Foundation
import Testing

@Suite("trackd export while recording")
struct ExportWhileRecordingTests {
    @Test("a running track exports as far as it is committed, valid, while the recorder goes on")
    func exportsRunningTrack() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite").path
        let recorder = Process()
        recorder.executableURL = Support.trackd
        recorder.arguments = ["record", "--source", "simulate:hike", "--speed", "20", "--duration", "30m", "--store", store]
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        defer { if recorder.isRunning { recorder.terminate(); recorder.waitUntilExit() } }

        // Wait (bounded) until some points are committed.
        var points = 0
        for _ in 0..<600 where points < 30 {
            Thread.sleep(forTimeInterval: 0.1)
            let tracks = try Support.trackd(["tracks", "--json", "--store", store])
            if let text = tracks.stdoutText.split(separator: "\"points\":").dropFirst().first {
                points = Int(text.prefix { $0.isNumber }) ?? 0
            }
        }
        #expect(points >= 30)
        let gpx = dir.appendingPathComponent("running.gpx").path
        let export = try Support.trackd(["export", "latest", "-o", gpx, "--store", store])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("(still recording)"), "\(export.stderr)")
        let lint = try Support.run("xmllint", ["--noout", "--schema", Support.gpxSchema.path, gpx])
        #expect(lint.status == 0, "\(lint.stderr)")
        let exported = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt").count - 1
        #expect(exported >= points)
        #expect(recorder.isRunning, "the recorder goes on")

        recorder.terminate()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        let final = try Support.trackd(["tracks", "--json", "--store", store])
        #expect(final.stdoutText.contains("\"state\":\"finished\""), "\(final.stdoutText)")
    }
}
