import Foundation
import Testing
import TrackdTestSupport

/// Runs the built `trackd` and other programs, and finds the files the tests read.
enum Support {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared")
    static let corpus = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TRACKD_CORPUS"]
        ?? shared.appendingPathComponent("nmea-corpus").path)
    static let gpxSchema = shared.appendingPathComponent("schemas/gpx-1.1.xsd")
    static let sample = repository.appendingPathComponent("sample-nmea/hike.nmea")
    /// The sample's epochs, as text.
    static let sampleEpochs: [String] = (try? NMEAEpochs.split(contentsOf: sample)) ?? []

    /// The `trackd` built beside this test bundle.
    static let trackd: URL = {
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("trackd")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/trackd")
    }()

    /// The Python that has gpxpy: `$TRACKD_PYTHON`, else the repository's `.venv`, else `python3`.
    static let python: String = {
        if let p = ProcessInfo.processInfo.environment["TRACKD_PYTHON"] { return p }
        let venv = repository.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }()

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil,
                    environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inp
        try process.run()
        // Read both pipes concurrently so a full pipe never blocks the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let input {
            DispatchQueue.global().async {
                inp.fileHandleForWriting.write(input)
                try? inp.fileHandleForWriting.close()
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    static func trackd(_ arguments: [String], input: Data? = nil) throws -> Result {
        try run(trackd.path, arguments, input: input)
    }

    /// A new empty directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static var corpusLogs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.sorted()
    }
}

// MARK: - Background runs, the track store, GPX checks

/// A `trackd` (or other program) running in the background, its output going to files, so
/// that a test can signal it while it works. ``stop()`` SIGKILLs it if it is still running;
/// call it in a `defer`.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let stdoutFile: URL
    let stderrFile: URL

    /// Starts `executable` (the built `trackd` by default) with `arguments`; its standard
    /// output and error go to files in `directory` named after `label`.
    init(_ arguments: [String], executable: URL = Support.trackd, in directory: URL, label: String = "trackd") throws {
        stdoutFile = directory.appendingPathComponent("\(label).stdout")
        stderrFile = directory.appendingPathComponent("\(label).stderr")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }

    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// How the process ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Waits for the process to end, at most `seconds`; nil (and the process SIGKILLed) if it
    /// did not. The bound is a safety net, not a timing assertion.
    func waitForEnd(atMost seconds: Double = 60) -> Ending? {
        guard Support.waitUntil(atMost: seconds, { !self.process.isRunning }) else {
            stop()
            return nil
        }
        process.waitUntilExit()
        return process.terminationReason == .exit
            ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }

    /// SIGKILLs the process if it still runs, and reaps it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

extension Support {
    /// Polls `condition` every `interval` seconds until it holds or `seconds` have passed;
    /// whether it held. A bounded wait, not a timing assertion.
    static func waitUntil(atMost seconds: Double, every interval: Double = 0.1, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if try condition() { return true }
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// The sqlite3 command-line tool (Debian package `sqlite3`).
    static let sqlite3 = "/usr/bin/sqlite3"

    /// Runs `sql` on the store read-only with the sqlite3 tool, as another process would
    /// while a recorder writes; the output's lines, or nil when sqlite3 fails (no file yet,
    /// no table yet).
    static func query(_ store: URL, _ sql: String) -> [String]? {
        guard let result = try? run(sqlite3, ["-readonly", "-batch", "-cmd", ".timeout 5000", store.path, sql]),
              result.status == 0 else { return nil }
        return result.stdoutText.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The number of rows of track `id` in `table` (`point`, `raw_fix`), read-only; nil when unreadable.
    static func rowCount(_ store: URL, _ table: String, track id: Int) -> Int? {
        query(store, "SELECT count(*) FROM \(table) WHERE track_id = \(id)")?.first.flatMap { Int($0) }
    }

    /// The id of the newest track in the store, read-only; nil when there is none (or no store yet).
    static func newestTrackID(_ store: URL) -> Int? {
        query(store, "SELECT max(id) FROM track")?.first.flatMap { Int($0) }
    }

    /// `trackd tracks --json --store store`, parsed; fails the caller when trackd does.
    static func tracks(_ store: URL) throws -> [[String: Any]] {
        let result = try trackd(["tracks", "--json", "--store", store.path])
        guard result.status == 0 else { throw Failure("trackd tracks failed (\(result.status)): \(result.stderr)") }
        guard let list = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] else {
            throw Failure("trackd tracks --json printed no array: \(result.stdoutText)")
        }
        return list
    }

    /// xmllint against the GPX 1.1 schema.
    static func validateGPX(_ gpx: URL) throws -> Result {
        try run("/usr/bin/xmllint", ["--noout", "--schema", gpxSchema.path, gpx.path])
    }

    /// How many times `tag` (such as `<trkseg>`) occurs in the file.
    static func count(_ tag: String, in file: URL) throws -> Int {
        try String(contentsOf: file, encoding: .utf8).components(separatedBy: tag).count - 1
    }

    /// Mounts a tmpfs of `size` (like `400k`) on `directory`, with `options` (like `ro`);
    /// whether it worked (root and a kernel that lets this process mount).
    static func mountTmpfs(on directory: URL, size: String, options: [String] = []) -> Bool {
        let o = (["size=\(size)"] + options).joined(separator: ",")
        return (try? run("/usr/bin/mount", ["-t", "tmpfs", "-o", o, "tmpfs", directory.path]))?.status == 0
    }

    /// Unmounts `directory` (lazily, so a straggling process cannot keep it busy).
    static func unmount(_ directory: URL) {
        _ = try? run("/usr/bin/umount", ["-l", directory.path])
    }

    /// Whether this test process can mount a tmpfs (tried once, on a scratch directory).
    static let canMount: Bool = {
        guard let dir = try? temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        guard mountTmpfs(on: dir, size: "64k") else { return false }
        unmount(dir)
        return true
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

// MARK: - A small ext4 disk

extension Support {
    /// Makes an ext4 file system of `megabytes` in an image file in `directory` and mounts it
    /// on `mountPoint` through a loop device; whether it worked (root, loop devices and
    /// mkfs.ext4). Under 512 MiB, mkfs.ext4 gives it 1 KiB blocks, as on a small SD card
    /// partition.
    static func mountExt4(on mountPoint: URL, megabytes: Int, imageIn directory: URL) -> Bool {
        let image = directory.appendingPathComponent("ext4-\(UUID().uuidString).img")
        guard (try? run("/usr/bin/truncate", ["-s", "\(megabytes)M", image.path]))?.status == 0,
              (try? run("/usr/sbin/mkfs.ext4", ["-q", image.path]))?.status == 0 else { return false }
        return (try? run("/usr/bin/mount", ["-o", "loop", image.path, mountPoint.path]))?.status == 0
    }

    /// Whether this test process can loop-mount an ext4 image (tried once).
    static let canMountExt4: Bool = {
        guard let dir = try? temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        let mountPoint = dir.appendingPathComponent("mnt")
        guard (try? FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)) != nil,
              mountExt4(on: mountPoint, megabytes: 4, imageIn: dir) else { return false }
        unmount(mountPoint)
        return true
    }()

    /// Fills the file system holding `directory` with a file until the disk is full
    /// (ENOSPC), then frees `leaveKiB` KiB of it again; the file.
    @discardableResult
    static func fillDisk(_ directory: URL, leaveKiB: Int) throws -> URL {
        let filler = directory.appendingPathComponent("filler")
        _ = try run("/usr/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=1k"])
        _ = try run("/usr/bin/sync", [])
        let size = (try FileManager.default.attributesOfItem(atPath: filler.path)[.size] as? Int) ?? 0
        try run("/usr/bin/truncate", ["-s", "\(max(0, size - leaveKiB * 1024))", filler.path])
        _ = try run("/usr/bin/sync", [])
        return filler
    }
}

extension Support {
    /// Starts a recorder of a simulated hike as track 2 of `store`, and SIGKILLs it once it has
    /// committed 20 points: its commits are then in the write-ahead log only. Returns how many
    /// points it committed.
    static func killRecorderMidTrack(store: URL, in dir: URL) throws -> Int {
        let recorder = try BackgroundProcess(
            ["record", "--source", "simulate:hike", "--speed", "20", "--no-chime", "--store", store.path], in: dir)
        defer { recorder.stop() }
        try #require(waitUntil(atMost: 60) { (rowCount(store, "point", track: 2) ?? 0) >= 20 }, "\(recorder.stderr)")
        recorder.stop()
        return try #require(rowCount(store, "point", track: 2))
    }
}

/// A receiver behind a symbolic link standing in for udev's `/dev/gps0`: a pseudo-terminal
/// that can be unplugged (closed, with its link removed) and plugged in again (a new one
/// behind the same link).
final class PluggedReceiver {
    let link: String
    private(set) var terminal: PseudoTerminal

    init(at link: String) throws {
        self.link = link
        terminal = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.slavePath)
    }

    /// The device goes away, and so does its link.
    func unplug() throws {
        terminal.close()
        try FileManager.default.removeItem(atPath: link)
    }

    /// A new device behind the same link.
    func plugIn() throws {
        terminal = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.slavePath)
    }
}
