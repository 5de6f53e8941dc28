import Foundation

/// Runs the built `trackd` and other programs, and finds the files the tests read.
enum Support {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared")
    static let corpus = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TRACKD_CORPUS"]
        ?? shared.appendingPathComponent("nmea-corpus").path)
    static let gpxSchema = shared.appendingPathComponent("schemas/gpx-1.1.xsd")
    static let sample = repository.appendingPathComponent("sample-nmea/hike.nmea")

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
