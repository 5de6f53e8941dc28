import ArgumentParser
import GPSCore
import GPSSources
import Location
import NMEA

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the location manager over a recorded NMEA log, as fast as it goes.",
        discussion: """
            The log's own fix times drive the manager's timers (the no-movement ping, the \
            refinement timeout), so a two-hour log replays in a moment with the same result as \
            recording it live. The accepted points are written as GPX 1.1 with -o; a summary \
            goes to standard error (fixes read, points kept, distance, moving and elapsed time, \
            average and maximum speed, signal-strength changes, fixes rejected and why), or to \
            standard output as one JSON object with --json.
            """
    )

    @Argument(help: "The NMEA log to replay. '-' reads standard input.")
    var log: String

    @OptionGroup var location: LocationOptions

    @Option(name: [.short, .customLong("output")], help: "Write the accepted points to this GPX file ('-' for standard output).")
    var output: String?

    @Flag(help: "Print the summary as a JSON object on standard output.")
    var json = false

    @Flag(help: "Accept sentences without a *hh checksum, for receivers that send none.")
    var allowMissingChecksum = false

    func validate() throws {
        if json && output == "-" {
            throw ValidationError("--json and -o - would both write to standard output; give -o a file.")
        }
    }

    func run() throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let input = try InputFile.open(log)
        defer { input.close() }
        let out = try TemporaryFileGuard.withTerminationSignalsHeld { () throws(CLIError) in
            let out = try output.map { path throws(CLIError) in try OutputFile.create(path) }
            if let out { TemporaryFileGuard.install(out) }
            return out
        }
        defer { TemporaryFileGuard.clear() }

        var replay = ReplayRun(configuration: location.configuration)
        var conversion = out.map { out in
            Conversion(trackName: defaultTrackName(for: log), seekable: !out.isStream) { bytes throws(CLIError) in
                try out.write(bytes)
            }
        }
        do {
            var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: false)
            var failure: CLIError?
            let take = { (fix: Fix) in
                for point in replay.process(fix) where failure == nil {
                    do throws(CLIError) { try conversion?.take(point) } catch { failure = error }
                }
            }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
            defer { buffer.deallocate() }
            _ = try input.parseAll(with: &parser, buffer: buffer, shouldStop: { failure != nil }, onFix: take)
            for point in replay.finish() where failure == nil {
                do throws(CLIError) { try conversion?.take(point) } catch { failure = error }
            }
            if let failure { throw failure }
            if var c = conversion {
                if let bounds = try c.finish() { try out?.write(bounds.bytes, at: bounds.offset) }
                conversion = c
            }
            try out?.commit()
        } catch {
            out?.discard()
            throw error
        }

        let summary = replay.summary
        if json {
            print(summary.json)
        } else {
            writeStandardError("trackd: " + summary.line + (out.map { $0.isStandardOutput ? "" : " -> \($0.path)" } ?? "") + "\n")
        }
    }
}

/// The location manager's decisions over a log, with the log's fix times as its clock.
///
/// `process` returns what to write: the locations the manager delivered, and a fix without a
/// position where the track breaks (the receiver lost its fix), which ends the GPX segment.
struct ReplayRun {
    private var policy: LocationPolicy
    private var logTime = LogTime()
    private var started = false
    private var now: Duration = .zero
    private var nextTick: Duration = .zero
    private(set) var fixes = 0
    private(set) var points = 0
    private var lostFix = false

    init(configuration: LocationConfiguration) {
        policy = LocationPolicy(configuration: configuration)
    }

    mutating func process(_ fix: Fix) -> [Fix] {
        fixes += 1
        if let t = fix.time?.microsecondsSinceEpoch {
            if !started {
                started = true
                nextTick = LocationManager.tickInterval
            }
            now = logTime.advance(toFixAt: t)
        }
        var out: [Fix] = []
        // Run the timers for every tick the manager would have had before this fix.
        while nextTick <= now {
            collect(policy.tick(now: nextTick), into: &out)
            nextTick += LocationManager.tickInterval
        }
        if !fix.hasPosition && !lostFix {
            lostFix = true
            out.append(Fix(time: fix.time))
        }
        collect(policy.process(fix, now: now), into: &out)
        return out
    }

    /// The end of the log: what the manager still held.
    mutating func finish() -> [Fix] {
        var out: [Fix] = []
        collect(policy.finish(now: now), into: &out)
        return out
    }

    private mutating func collect(_ events: [LocationEvent], into out: inout [Fix]) {
        for event in events {
            switch event {
            case .locationUpdated(let location):
                var point = location.fix
                point.speedMetersPerSecond = location.speedMetersPerSecond
                out.append(point)
                points += 1
                lostFix = false
            case .timeStepped(_, let to) where !lostFix && points > 0:
                // A new segment after the receiver's clock stepped.
                lostFix = true
                out.append(Fix(time: FixTime(secondsSinceEpoch: to)))
            default:
                break
            }
        }
    }

    var summary: ReplaySummary {
        ReplaySummary(fixes: fixes, points: points, statistics: policy.statistics)
    }
}

/// What `trackd replay` reports.
struct ReplaySummary {
    var fixes: Int
    var points: Int
    var statistics: LocationStatistics

    var averageSpeed: Double {
        statistics.movingTimeSeconds > 0 ? statistics.distanceMeters / statistics.movingTimeSeconds : 0
    }

    /// `7200 fixes, 1893 points, 2.53 km, moving 31m40s of 35m00s, 1.33 m/s average, 2.10 m/s max, 3 signal changes, 12 rejected (...)`
    var line: String {
        let s = statistics
        var text = "\(fixes) fixes, \(points) point\(points == 1 ? "" : "s"), \(kilometres(s.distanceMeters)) km"
        text += ", moving \(duration(seconds: Int64(s.movingTimeSeconds))) of \(duration(seconds: Int64(s.elapsedTimeSeconds)))"
        text += ", \(decimal(averageSpeed)) m/s average, \(decimal(s.maxSpeedMetersPerSecond)) m/s max"
        text += ", \(s.signalChanges) signal change\(s.signalChanges == 1 ? "" : "s"), \(s.rejectedTotal) rejected"
        if s.rejectedTotal > 0 {
            text += " (" + LocationRejection.allCases.compactMap { r in
                s.rejected(r) > 0 ? "\(s.rejected(r)) \(r.rawValue)" : nil
            }.joined(separator: ", ") + ")"
        }
        if s.timeSteps > 0 { text += ", \(s.timeSteps) jump\(s.timeSteps == 1 ? "" : "s") in time" }
        if s.timeCorrections > 0 { text += ", \(s.timeCorrections) dated 1024 weeks off and corrected" }
        return text
    }

    var json: String {
        let s = statistics
        let reasons = LocationRejection.allCases.map { "\"\($0.rawValue)\":\(s.rejected($0))" }.joined(separator: ",")
        return "{" + [
            "\"fixes\":\(fixes)",
            "\"points\":\(points)",
            "\"distance_m\":\(decimal(s.distanceMeters, digits: 1))",
            "\"moving_s\":\(decimal(s.movingTimeSeconds, digits: 1))",
            "\"elapsed_s\":\(decimal(s.elapsedTimeSeconds, digits: 1))",
            "\"average_speed_mps\":\(decimal(averageSpeed, digits: 3))",
            "\"max_speed_mps\":\(decimal(s.maxSpeedMetersPerSecond, digits: 3))",
            "\"signal_changes\":\(s.signalChanges)",
            "\"rejected\":{" + reasons + "}",
            "\"rejected_total\":\(s.rejectedTotal)",
            "\"time_steps\":\(s.timeSteps)",
            "\"time_corrections\":\(s.timeCorrections)",
            "\"reanchors\":\(s.reanchors)",
            "\"confirmed_moves\":\(s.confirmedMoves)",
        ].joined(separator: ",") + "}"
    }
}

/// `value` with `digits` decimals, in plain notation.
func decimal(_ value: Double, digits: Int = 2) -> String { DecimalText.fixed(value, digits: digits) }

func kilometres(_ metres: Double) -> String { decimal(metres / 1000, digits: 2) }

/// The track name a log's file name suggests: `hike` for `logs/hike.nmea`; nil for standard input.
func defaultTrackName(for path: String) -> String? {
    guard path != "-" else { return nil }
    let base = path.split(separator: "/").last.map(String.init) ?? path
    if let dot = base.lastIndex(of: "."), dot != base.startIndex {
        return String(base[..<dot])
    }
    return base
}
