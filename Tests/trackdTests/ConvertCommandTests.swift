import Foundation
import Testing

/// `trackd convert` as a user runs it: the built binary, real files, pipes and signals.
@Suite("trackd convert")
struct ConvertCommandTests {
    static let bu353 = Support.corpus.appendingPathComponent("bu353s4.log")

    @Test("the sample hike converts to valid GPX with a segment per unbroken run of fixes")
    func sampleHike() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("hike.gpx")
        let result = try Support.trackd(["convert", Support.sample.path, "-o", out.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        for key in ["sentences", "rejected", "fixes", "points", "segments"] {
            #expect(summary[key] != nil, "summary lacks \(key): \(summary)")
        }

        // Count, straight from the log, epochs with a fix and runs of them between fix losses.
        let text = try String(contentsOf: Support.sample, encoding: .utf8)
        var fixEpochs = 0, runs = 0, inRun = false
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("$GNGGA") {
            let quality = line.split(separator: ",", omittingEmptySubsequences: false)[6]
            if quality != "0" {
                fixEpochs += 1
                if !inRun { runs += 1 }
                inRun = true
            } else {
                inRun = false
            }
        }
        #expect(summary["points"] as? Int == fixEpochs)
        #expect(summary["segments"] as? Int == runs)
        #expect(runs > 1, "the sample should hold fix losses")
        let gpx = try String(contentsOf: out, encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == runs)
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == fixEpochs)
        let lint = try Support.run("/usr/bin/xmllint", ["--noout", "--schema", Support.gpxSchema.path, out.path])
        #expect(lint.status == 0, "\(lint.stderr)")

        // <metadata><bounds> is filled in after the points and encloses exactly them.
        let points = try trackPoints(inGPX: out)
        let bounds = try #require(metadataBounds(in: gpx))
        #expect(abs(bounds.minlat - points.map(\.latitude).min()!) < 1e-9)
        #expect(abs(bounds.maxlat - points.map(\.latitude).max()!) < 1e-9)
        #expect(abs(bounds.minlon - points.map(\.longitude).min()!) < 1e-9)
        #expect(abs(bounds.maxlon - points.map(\.longitude).max()!) < 1e-9)
    }

    @Test("GPX on standard output has no bounds, since they are known only at the end")
    func noBoundsOnAPipe() throws {
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path])
        #expect(result.status == 0)
        #expect(metadataBounds(in: result.stdoutText) == nil)
        #expect(result.stdoutText.contains("<metadata>"))
    }

    @Test("standard input to standard output with '-'")
    func pipes() throws {
        let input = try Data(contentsOf: ConvertCommandTests.bu353)
        let result = try Support.trackd(["convert", "-", "-o", "-"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(result.stdoutText.hasSuffix("</gpx>\n"))
        #expect(result.stdoutText.components(separatedBy: "<trkpt ").count - 1 == 25)
        #expect(result.stderr.contains("25 points in 1 segment"), "summary: \(result.stderr)")
    }

    @Test("the summary line names rejected sentences by reason")
    func rejectionsAreCounted() throws {
        var bytes = try Data(contentsOf: ConvertCommandTests.bu353)
        bytes.append(contentsOf: Array("$GPGGA,030726.000,3747.0878,S,17518.8936,E,1,08,1.1,60.2,M,23.7,M,,0000*00\r\n".utf8))
        bytes.append(contentsOf: Array("$GPGGA,030727.000,37x7.0878,S,17518.8936,E,1,08,1.1,60.2,M,23.7,M,,0000".utf8))
        let result = try Support.trackd(["convert", "-"], input: bytes)
        #expect(result.status == 0)
        #expect(result.stderr.contains("2 rejected (1 bad-checksum, 1 missing-checksum)"), "\(result.stderr)")
    }

    @Test("a missing input is an error naming the file, and nothing is written", arguments: [
        ("does-not-exist.nmea", "No such file or directory"),
        ("empty.nmea", "is empty"),
        ("text.nmea", "holds no NMEA 0183 sentence"),
        ("junk.nmea", "no valid NMEA 0183 sentence"),
        (".", "is a directory"),
    ])
    func badInput(name: String, message: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("empty.nmea"))
        try "hello, world\nthis is not a GPS log\n".write(to: dir.appendingPathComponent("text.nmea"), atomically: true, encoding: .utf8)
        try "$GPGGA,1,2,3*00\n$GPRMC,4,5,6*00\n".write(to: dir.appendingPathComponent("junk.nmea"), atomically: true, encoding: .utf8)
        let input = name == "." ? dir.path : dir.appendingPathComponent(name).path
        let out = dir.appendingPathComponent("out.gpx")
        let result = try Support.trackd(["convert", input, "-o", out.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(input), "the error should name \(input): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!left.contains("out.gpx") && !left.contains { $0.contains(".tmp-") }, "left behind: \(left)")
    }

    @Test("a failed conversion leaves an existing output file as it was")
    func existingOutputSurvivesFailure() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("track.gpx")
        try "precious".write(to: out, atomically: true, encoding: .utf8)
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path, dir.appendingPathComponent("missing").path, "-o", out.path])
        #expect(result.status != 0)
        #expect(try String(contentsOf: out, encoding: .utf8) == "precious")
    }

    @Test("SIGTERM during a conversion leaves no temporary or partial file")
    func interruptedConversionLeavesNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = Support.trackd
        process.arguments = ["convert", "-", "-o", dir.appendingPathComponent("live.gpx").path, "-q"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Feed part of a log and keep the pipe open: trackd waits for more.
        input.fileHandleForWriting.write(try Data(contentsOf: ConvertCommandTests.bu353))
        var sawTemporary = false
        for _ in 0..<200 where !sawTemporary {
            sawTemporary = try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.contains(".tmp-") }
            if !sawTemporary { usleep(10_000) }
        }
        #expect(sawTemporary, "trackd should be writing a temporary file")
        process.terminate()
        // Never hang the suite: a trackd that ignores SIGTERM fails the test.
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        #expect(!process.isRunning, "trackd ignored SIGTERM")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("more than one input: one track, a new segment for each file")
    func severalInputs() throws {
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path, ConvertCommandTests.bu353.path, "--json", "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
        #expect(summary["points"] as? Int == 50)
        #expect(summary["segments"] as? Int == 2)
    }

    @Test("-o /dev/null writes to the device and leaves it a device")
    func deviceOutput() throws {
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path, "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test("a full disk stops the conversion with an error naming the output")
    func diskFull() throws {
        // /dev/full fails every write with ENOSPC, as a full SD card would.
        let result = try Support.trackd(["convert", Support.sample.path, "-o", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("writing /dev/full failed"), "\(result.stderr)")
        #expect(result.stderr.contains("ENOSPC"), "\(result.stderr)")
    }

    @Test("a named pipe as output is written as a stream")
    func fifoOutput() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("track.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        // Opening a FIFO for reading waits for the writer, as a user's `cat track.fifo` would.
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path, "-o", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        for _ in 0..<500 where received.isEmpty { usleep(10_000) }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasSuffix("</gpx>\n"))
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == 25)
        let attributes = try FileManager.default.attributesOfItem(atPath: fifo)
        #expect(attributes[.type] as? FileAttributeType != .typeRegular, "the pipe must stay a pipe")
    }

    @Test("a symbolic link as output: the file it points to is replaced, the link kept")
    func symlinkOutput() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("real.gpx")
        let link = dir.appendingPathComponent("link.gpx")
        try "old".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try Support.trackd(["convert", ConvertCommandTests.bu353.path, "-o", link.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).hasSuffix("</gpx>\n"))
    }

    @Test("usage errors say what to give", arguments: [
        (["convert"], "Missing expected argument '<inputs> ...'"),
        (["convert", "-", "-"], "Standard input ('-') can be read only once."),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try Support.trackd(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("the help text lists every option")
    func help() throws {
        let result = try Support.trackd(["convert", "--help"])
        #expect(result.status == 0)
        for option in ["<inputs> ...", "-o, --output <output>", "--name <name>", "--json", "--allow-missing-checksum", "-q, --quiet"] {
            #expect(result.stdoutText.contains(option), "help lacks \(option):\n\(result.stdoutText)")
        }
    }
}

/// The `<bounds>` attributes of a GPX document's metadata.
func metadataBounds(in gpx: String) -> (minlat: Double, minlon: Double, maxlat: Double, maxlon: Double)? {
    guard let start = gpx.range(of: "<bounds "), let end = gpx[start.upperBound...].range(of: "/>") else { return nil }
    let tag = gpx[start.upperBound..<end.lowerBound]
    func value(_ name: String) -> Double? {
        guard let r = tag.range(of: name + "=\"") else { return nil }
        return Double(tag[r.upperBound...].prefix { $0 != "\"" })
    }
    guard let a = value("minlat"), let b = value("minlon"), let c = value("maxlat"), let d = value("maxlon") else { return nil }
    return (a, b, c, d)
}

@Suite("trackd convert on a terminal")
struct ConvertTerminalTests {
    @Test("a large conversion on a terminal shows a progress bar, and clears it")
    func progressBarOnATerminal() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Nine copies of the 1.3 MB sample: past the 8 MB from which the bar shows.
        let inputs = Array(repeating: Support.sample.path, count: 9)
        let command = ([Support.trackd.path, "convert"] + inputs + ["-o", dir.appendingPathComponent("big.gpx").path])
            .map { "'\($0)'" }.joined(separator: " ")
        // script(1) runs the command on a pseudo-terminal, as a user's shell would.
        let result = try Support.run("/usr/bin/script", ["-qefc", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(result.stdoutText.contains("100% "), "no progress bar: \(result.stdoutText.suffix(300))")
        // The bar's total is the inputs' size, in tenths of a megabyte.
        let size = try FileManager.default.attributesOfItem(atPath: Support.sample.path)[.size] as? Int ?? 0
        let tenths = 9 * size / 100_000
        #expect(result.stdoutText.contains("/\(tenths / 10).\(tenths % 10) MB"), "\(result.stdoutText.suffix(300))")
        // Nine times the points and segments of one copy.
        let one = try Support.trackd(["convert", Support.sample.path, "--json", "-o", "/dev/null"])
        let summary = try JSONSerialization.jsonObject(with: one.stdout) as? [String: Any] ?? [:]
        let points = 9 * (summary["points"] as? Int ?? 0), segments = 9 * (summary["segments"] as? Int ?? 0)
        #expect(result.stdoutText.contains("\(points) points in \(segments) segments"), "\(result.stdoutText.suffix(300))")

        let piped = try Support.trackd(["convert"] + inputs + ["-o", dir.appendingPathComponent("piped.gpx").path])
        #expect(!piped.stderr.contains("%"), "no progress bar when standard error is not a terminal")
    }
}
