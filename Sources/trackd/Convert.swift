import ArgumentParser
import GPSCore
import GPX
import NMEA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert NMEA 0183 logs to a GPX 1.1 track.",
        discussion: """
            Every fix with a position becomes a track point; nothing is filtered. A fix \
            without a position (the receiver lost its fix) ends the current track segment, \
            and each input starts a new one. The GPX file appears only when it is complete.

            A summary goes to standard error: sentences read, rejected (by reason), fixes, \
            points, segments and the time span. With --json it is printed as a JSON object \
            instead, on standard output when the GPX goes to a file, otherwise on standard error.
            """
    )

    @Argument(help: "NMEA logs to read, in order. '-' reads standard input.")
    var inputs: [String]

    @Option(name: [.short, .customLong("output")], help: "The GPX file to write. '-' writes standard output.")
    var output: String = "-"

    @Option(help: "The name of the GPX track (default: the first input's file name).")
    var name: String?

    @Flag(help: "Print the summary as a JSON object.")
    var json = false

    @Flag(help: "Accept sentences without a *hh checksum, for receivers that send none.")
    var allowMissingChecksum = false

    @Flag(name: .shortAndLong, help: "Print no progress bar and no summary line.")
    var quiet = false

    func validate() throws {
        if inputs.isEmpty {
            throw ValidationError("Please provide an NMEA log to convert, or '-' to read standard input.")
        }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("Standard input ('-') can be read only once.")
        }
    }

    func run() throws {
        TemporaryFileGuard.unblockTerminationSignals()
        // Open every input first: a missing file is reported before anything is written.
        var files: [InputFile] = []
        defer { files.forEach { $0.close() } }
        for path in inputs {
            files.append(try InputFile.open(path))
        }
        let out = try TemporaryFileGuard.withTerminationSignalsHeld { () throws(CLIError) in
            let out = try OutputFile.create(output)
            TemporaryFileGuard.install(out)
            return out
        }
        defer { TemporaryFileGuard.clear() }

        // The GPX half runs on a thread of its own: `conversion` belongs to it until `finish()`.
        let trackName = name ?? inputs.first.flatMap(defaultTrackName(for:))
        nonisolated(unsafe) var conversion = Conversion(trackName: trackName, seekable: !out.isStream) {
            bytes throws(CLIError) in
            try out.write(bytes)
        }
        let writer = WriterThread { batch throws(CLIError) in
            for item in batch {
                switch item {
                case .fix(let fix): try conversion.take(fix)
                case .newInput: try conversion.beginInput()
                }
            }
        }
        writer.start()
        let totalBytes = files.allSatisfy { $0.size != nil } ? files.reduce(0) { $0 + ($1.size ?? 0) } : nil
        var progress = ProgressBar(totalBytes: totalBytes, enabled: !quiet && isatty(STDERR_FILENO) == 1)
        var statistics: [NMEAStatistics] = []

        do {
            let chunkSize = 256 * 1024
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            var batch: [ConversionItem] = []
            batch.reserveCapacity(ConversionItem.batchSize)
            var writerFailed = false
            let take = { (fix: Fix) in
                batch.append(.fix(fix))
                if batch.count >= ConversionItem.batchSize {
                    writerFailed = !writer.put(batch) || writerFailed
                    batch = []
                    batch.reserveCapacity(ConversionItem.batchSize)
                }
            }
            inputs: for file in files {
                batch.append(.newInput)
                var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: false)
                guard let counts = try file.parseAll(
                    with: &parser, buffer: buffer, shouldStop: { writerFailed },
                    progress: { progress.advance(by: $0) }, onFix: take)
                else { break inputs }
                statistics.append(counts)
            }
            if !batch.isEmpty { writer.put(batch) }
            try writer.finish()
            statistics.forEach { conversion.add($0) }
            if let bounds = try conversion.finish() {
                try out.write(bounds.bytes, at: bounds.offset)
            }
            progress.clear()
            try out.commit()
        } catch {
            try? writer.finish()
            progress.clear()
            out.discard()
            throw error
        }

        let summary = conversion.summary
        if json {
            let text = summary.json + "\n"
            if out.isStandardOutput { writeStandardError(text) } else { print(text, terminator: "") }
        } else if !quiet {
            writeStandardError("trackd: " + summary.line + (out.isStandardOutput ? "" : " -> \(out.path)") + "\n")
        }
        if summary.points == 0 && !quiet {
            writeStandardError("trackd: warning: no fix had a position, so the track is empty\n")
        }
    }
}
