import ArgumentParser
import GPSCore
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate a GPS receiver along a named route and write its NMEA 0183 output.",
        discussion: """
            The receiver is a u-blox-style multi-GNSS receiver: each epoch it sends RMC, VTG, GGA, \
            a GSA for GPS and one for GLONASS, GSV for both, and GST, with the GN talker (GP and GL \
            for GSV), valid checksums and CRLF line endings. Its position wanders about the true \
            path with the given noise, and now and then it loses its fix for a few seconds.

            Routes: city-run (Zürich, about 3 m/s with stops at crossings), city-bicycle-ride \
            (Copenhagen, about 5.5 m/s), freeway-drive (Cupertino, about 30 m/s), hike \
            (Grindelwald, about 1 m/s with climbs) and standing-still (Bern).

            The same arguments always give the same output, byte for byte. With --truth the true \
            path is written as CSV, one row per epoch. Files appear only when complete.

            Pacing: by default the sentences come in real time when they go to standard output, \
            as from a receiver, and as fast as possible when they go to a file; --speed overrides both.
            """
    )

    @Argument(help: "The route to follow.")
    var route: Route

    @Option(help: "Epochs per second.")
    var rate: UpdateRate = .hz1

    @Option(help: "How long to simulate, in seconds or with a unit: 90, 90s, 10m, 1h30m. The default is 10m.", transform: SimulationDuration.parse)
    var duration: SimulationDuration = SimulationDuration(seconds: 600)

    @Option(help: "Horizontal position error in metres RMS. 0 reports the true path exactly.")
    var noise: Double = 3

    @Option(help: "Seed of every random choice. The same seed gives the same output.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Add multipath jumps: the position 40-150 m off for 1-4 s, on average this many seconds apart.",
            discussion: "HDOP, GST and the speed over ground do not show them, as with a real receiver in a valley or beside buildings. Default: none.",
            valueName: "seconds"))
    var multipathEvery: Double?

    @Option(name: [.short, .customLong("output")], help: "The NMEA file to write. '-' writes standard output.")
    var output: String = "-"

    @Option(help: "Also write the true path to this CSV file (utc, lat, lon, alt_msl_m, speed_mps, course_deg, distance_m, fix).")
    var truth: String?

    @Option(
        help: ArgumentHelp(
            "How fast to send the epochs: 1 for real time, a number for that many times faster, or 'max' for no waiting.",
            discussion: "The default is real time to standard output and max to a file.",
            valueName: "n|max"),
        transform: Pace.parse)
    var speed: Pace?

    @Flag(name: .shortAndLong, help: "Print no summary line.")
    var quiet = false

    func validate() throws {
        if let multipathEvery, !(multipathEvery.isFinite && multipathEvery >= 1) {
            throw ValidationError("Please give --multipath-every as seconds of at least 1, such as 120, not \(multipathEvery).")
        }
        guard noise.isFinite, (0...SimulationSettings.maximumNoiseMeters).contains(noise) else {
            throw ValidationError(
                "Please give --noise as metres between 0 and \(Int(SimulationSettings.maximumNoiseMeters)), such as 3.")
        }
        if let truth {
            if truth == output && truth != "-" {
                throw ValidationError("--truth and --output name the same file; give the true path a file of its own.")
            }
            if truth == "-" && output == "-" {
                throw ValidationError("The NMEA already goes to standard output; give --truth a file name, or -o a file.")
            }
        }
    }

    func run() throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let settings = SimulationSettings(
            route: route, rate: rate, durationSeconds: duration.seconds, noiseMeters: noise, seed: seed,
            multipathEverySeconds: multipathEvery)
        let (nmea, truthFile) = try TemporaryFileGuard.withTerminationSignalsHeld {
            () throws(CLIError) -> (OutputFile, OutputFile?) in
            let nmea = try OutputFile.create(output)
            var truthFile: OutputFile?
            do throws(CLIError) {
                truthFile = try truth.map { path throws(CLIError) in try OutputFile.create(path) }
            } catch {
                nmea.discard()
                throw error
            }
            TemporaryFileGuard.install([nmea] + (truthFile.map { [$0] } ?? []))
            return (nmea, truthFile)
        }
        defer { TemporaryFileGuard.clear() }

        let pace = speed ?? (nmea.isStandardOutput ? .times(1) : .max)
        var clock = PaceClock(pace: pace, periodSeconds: rate.periodSeconds)
        var nmeaBuffer = OutputBuffer(file: nmea)
        var truthBuffer = truthFile.map { OutputBuffer(file: $0) }
        var epochs = 0
        var withoutFix = 0
        var last: TruePosition?
        do {
            try truthBuffer?.append(TruePosition.csvHeader + "\n")
            for epoch in Simulator(settings) {
                if clock.paced {
                    // Everything so far goes out before the wait, as a receiver would send it.
                    try nmeaBuffer.flush()
                    clock.wait(forEpoch: epochs)
                }
                for sentence in epoch.sentences { try nmeaBuffer.append(sentence) }
                try truthBuffer?.append(epoch.truth.csvRow + "\n")
                epochs += 1
                if !epoch.truth.hasFix { withoutFix += 1 }
                last = epoch.truth
            }
            try nmeaBuffer.flush()
            try truthBuffer?.flush()
            try truthFile?.commit()
            try nmea.commit()
        } catch {
            truthFile?.discard()
            nmea.discard()
            throw error
        }

        if !quiet {
            var line = "trackd: simulated \(route.rawValue): \(epochs) epochs (\(withoutFix) without a fix)"
            if let last {
                line += ", \(Int(last.distanceMeters.rounded())) m in " + trackd.duration(seconds: Int64(duration.seconds.rounded(.up)))
            }
            if !nmea.isStandardOutput { line += " -> \(nmea.path)" }
            if let truthFile { line += ", truth -> \(truthFile.displayName)" }
            writeStandardError(line + "\n")
        }
    }
}

extension Route: ExpressibleByArgument {}

extension UpdateRate: ExpressibleByArgument {
    public init?(argument: String) {
        guard let hz = Int(argument) else { return nil }
        self.init(rawValue: hz)
    }

    public var defaultValueDescription: String { String(rawValue) }

    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
}

/// A simulation's length: seconds, or a number with `s`, `m` or `h`, or several (`1h30m`).
struct SimulationDuration: ExpressibleByArgument, Hashable {
    var seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    /// Parses `--duration`, with an error that says what to give.
    static func parse(_ argument: String) throws -> SimulationDuration {
        guard let duration = SimulationDuration(argument: argument) else {
            throw ValidationError("Please give --duration as a positive number of seconds, or with units such as 90s, 10m or 1h30m.")
        }
        return duration
    }

    init?(argument: String) {
        if let plain = Double(argument) {
            guard plain > 0 && plain.isFinite else { return nil }
            self.seconds = plain
            return
        }
        var total = 0.0
        var number = ""
        for character in argument {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number) else { return nil }
            switch character {
            case "s": total += value
            case "m": total += value * 60
            case "h": total += value * 3600
            default: return nil
            }
            number = ""
        }
        guard number.isEmpty, total > 0, total.isFinite else { return nil }
        self.seconds = total
    }

    var defaultValueDescription: String { "600" }
}

/// How fast `trackd simulate` sends epochs: a multiple of real time, or as fast as it can.
enum Pace: ExpressibleByArgument, Hashable {
    /// `n` epochs' worth of receiver time each second of wall time; 1 is real time.
    case times(Double)
    /// No waiting.
    case max

    init?(argument: String) {
        guard let pace = try? Pace.parse(argument) else { return nil }
        self = pace
    }

    /// Parses `--speed`, with an error that says what to give.
    static func parse(_ argument: String) throws -> Pace {
        if argument == "max" { return .max }
        guard let n = Double(argument), n > 0, n.isFinite else {
            throw ValidationError(
                "Please give --speed as a positive number (1 for real time, 10 for ten times faster) or 'max'.")
        }
        return .times(n)
    }

    static var allValueStrings: [String] { ["1", "max"] }
}

/// Waits, on the monotonic clock, until each epoch's time has come.
struct PaceClock {
    let pace: Pace
    let periodSeconds: Double
    private var start: timespec?

    init(pace: Pace, periodSeconds: Double) {
        self.pace = pace
        self.periodSeconds = periodSeconds
    }

    var paced: Bool {
        if case .times = pace { return true }
        return false
    }

    /// Sleeps until epoch `index` is due; the first epoch is due at once.
    mutating func wait(forEpoch index: Int) {
        guard case .times(let factor) = pace else { return }
        let now = PaceClock.now()
        guard let start else {
            start = now
            return
        }
        let due = Double(index) * periodSeconds / factor
        var remaining = due - PaceClock.seconds(from: start, to: now)
        while remaining > 0 {
            var request = timespec(
                tv_sec: Int(remaining.rounded(.down)),
                tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
            var left = timespec()
            if nanosleep(&request, &left) == 0 { break }
            guard errno == EINTR else { break }
            remaining = PaceClock.seconds(from: start, to: PaceClock.now()) * -1 + due
        }
    }

    private static func now() -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t
    }

    private static func seconds(from a: timespec, to b: timespec) -> Double {
        Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
    }
}

/// Collects text and writes it to an ``OutputFile`` in large pieces.
struct OutputBuffer {
    let file: OutputFile
    private var bytes: [UInt8] = []
    static let capacity = 64 * 1024

    init(file: OutputFile) {
        self.file = file
        bytes.reserveCapacity(OutputBuffer.capacity)
    }

    mutating func append(_ text: String) throws(CLIError) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= OutputBuffer.capacity { try flush() }
    }

    mutating func flush() throws(CLIError) {
        guard !bytes.isEmpty else { return }
        let file = self.file
        let failure = bytes.withUnsafeBytes { raw -> CLIError? in
            do throws(CLIError) { try file.write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
        bytes.removeAll(keepingCapacity: true)
    }
}
