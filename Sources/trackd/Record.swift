import ArgumentParser
import GPSCore
import GPSSources
import Location
import Logging
import ServiceLifecycle
import Simulation
import TrackStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a track into the track store until the input ends or SIGINT/SIGTERM.",
        discussion: """
            Fixes go from the source through the location manager (accuracy tier, activity, \
            distance filter) into the track store, an SQLite file that survives a kill or a power \
            cut: points are committed at least once a second, and a track that a recorder left \
            open is closed and marked recovered the next time trackd records. Every fix received \
            is kept too, so `trackd export --raw` can show what the receiver sent.

            Sources: a recorded NMEA log (paced by its own fix times, as fast as possible by \
            default), or simulate:ROUTE for the route simulator (real time by default; routes: \
            city-run, city-bicycle-ride, freeway-drive, hike, standing-still). A new segment \
            starts when the fix or the source is lost.

            On a terminal, one status line shows the fix, the signal and the track so far; \
            otherwise trackd logs to standard error. SIGINT or SIGTERM closes the track and exits 0.
            """
    )

    @Option(
        help: ArgumentHelp(
            "Where fixes come from: an NMEA log file, or simulate:ROUTE.", valueName: "source"))
    var source: String

    @OptionGroup var location: LocationOptions

    @Option(help: "The track's name (default: the log's file name, or the route).")
    var name: String?

    @OptionGroup var storeLocation: StoreLocation

    @Option(
        help: ArgumentHelp(
            "How fast to replay a log or simulation: 1 for real time, a number for that many times faster, or 'max'.",
            discussion: "The default is max for a log and 1 for the simulator.",
            valueName: "n|max"))
    var speed: String?

    @Option(
        help: "How long to simulate (simulate:ROUTE only): seconds, or with units such as 90s, 10m or 1h30m. The default is 10m.",
        transform: SimulationDuration.parse)
    var duration: SimulationDuration?

    @Flag(help: "Accept sentences without a *hh checksum, for receivers that send none.")
    var allowMissingChecksum = false

    func validate() throws {
        if let speed {
            do { _ = try ReplaySpeed.parse(speed) } catch { throw ValidationError(error.description) }
        }
        let specification = try SourceSpecification(source)
        if duration != nil, case .log = specification {
            throw ValidationError("--duration applies to simulate:ROUTE only; a log ends where it ends.")
        }
    }

    func run() async throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let onTerminal = isatty(STDERR_FILENO) == 1
        let logger = Record.makeLogger(onTerminal: onTerminal)
        let specification = try SourceSpecification(source)

        let (path, isDefault) = storeLocation.resolved
        if isDefault { StoreLocation.createDirectories(for: path) }
        let (store, recovered) = try TrackStore.openForRecording(at: path, options: Record.storeOptions())
        for track in recovered {
            writeStandardError("trackd: \(TrackDescription.recovered(track)) in \(path)\n")
        }

        switch specification {
        case .log(let file):
            let speed = try speed.map(ReplaySpeed.parse) ?? .max
            let source = LogFileSource(path: file, speed: speed, allowMissingChecksum: allowMissingChecksum)
            try await record(from: source, name: name ?? defaultTrackName(for: file), store: store, logger: logger, onTerminal: onTerminal)
        case .simulate(let route):
            let speed = try speed.map(ReplaySpeed.parse) ?? .times(1)
            let settings = SimulationSettings(route: route, durationSeconds: duration?.seconds ?? 600)
            let source = SimulatorSource(settings: settings, speed: speed)
            try await record(from: source, name: name ?? route.rawValue, store: store, logger: logger, onTerminal: onTerminal)
        }
    }

    private func record<S: FixSource>(
        from source: S, name: String?, store: TrackStore, logger: Logger, onTerminal: Bool
    ) async throws {
        let configuration = location.configuration
        let settings = TrackSettings(
            accuracy: location.accuracy.rawValue, activity: location.activity.rawValue,
            distanceFilterMeters: configuration.distanceFilter, source: source.description)
        let manager = LocationManager(configuration: configuration, clock: source.clock)
        let recorder = try TrackRecorder(
            store: store, name: name, settings: settings, createdAtMicroseconds: Record.wallClockMicroseconds(),
            version: TrackdVersion.string, clock: ContinuousClock(), logger: logger)
        logger.info("recording track \(recorder.trackID) into \(store.path)")
        let pipeline = RecordPipeline(
            source: source, manager: manager, recorder: recorder, logger: logger, showsStatus: onTerminal)
        // Consumers first: a shutdown stops the source first and the recorder last.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: recorder),
                    .init(service: manager),
                    .init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()

        let track = try store.track(.id(recorder.trackID))
        writeStandardError("trackd: \(TrackDescription.recorded(track)) -> \(store.path)\n")
    }

    private static func makeLogger(onTerminal: Bool) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = onTerminal ? .warning : .info
            return handler
        }
        return Logger(label: "trackd")
    }

    /// The store options; `TRACKD_STORE_SYNCHRONOUS=normal` trades the one-second power-cut
    /// guarantee for fewer syncs (see BENCHMARKS.md, "Store durability", for what it costs).
    static func storeOptions() throws(ValidationError) -> StoreOptions {
        var options = StoreOptions()
        if let value = getenv("TRACKD_STORE_SYNCHRONOUS").map({ String(cString: $0) }), !value.isEmpty {
            guard let mode = StoreOptions.Synchronous(rawValue: value.uppercased()) else {
                throw ValidationError("TRACKD_STORE_SYNCHRONOUS must be 'full' or 'normal', not '\(value)'.")
            }
            options.synchronous = mode
        }
        return options
    }

    static func wallClockMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }
}

/// What `--source` names.
enum SourceSpecification: Hashable {
    case log(String)
    case simulate(Route)

    init(_ text: String) throws(ValidationError) {
        if text.hasPrefix("simulate:") {
            let name = String(text.dropFirst("simulate:".count))
            guard let route = Route(rawValue: name) else {
                let routes = Route.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("Unknown route '\(name)' in --source \(text); the routes are \(routes).")
            }
            self = .simulate(route)
        } else if text.isEmpty {
            throw ValidationError("--source needs a log file or simulate:ROUTE.")
        } else {
            self = .log(text)
        }
    }
}

/// Sentences about a track, for the end of a command.
enum TrackDescription {
    static func label(_ track: TrackSummary) -> String {
        "track \(track.id)" + (track.name.map { " '\($0)'" } ?? "")
    }

    static func totals(_ track: TrackSummary) -> String {
        "\(track.points) points in \(track.segments) segment\(track.segments == 1 ? "" : "s"), "
            + "\(kilometres(track.distanceMeters)) km, \(duration(seconds: Int64(track.durationSeconds)))"
    }

    static func recorded(_ track: TrackSummary) -> String {
        "recorded \(label(track)): \(totals(track)) (\(track.rawFixes) fixes received)"
    }

    static func recovered(_ track: TrackSummary) -> String {
        let end = track.end.map { " at its last point, \($0)" } ?? " (it had no point)"
        return "\(label(track)) was interrupted (the recorder was killed or lost power); closed\(end) and marked recovered: \(totals(track))"
    }
}
