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
            "Where fixes come from: auto, gpsd[://HOST[:PORT]], a device (/dev/ttyACM0), an NMEA log file, or simulate:ROUTE.",
            valueName: "source"))
    var source: String = "auto"

    @Option(help: ArgumentHelp("The serial receiver's baud rate (default: detected).", valueName: "rate"))
    var baud: Int?

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

    @OptionGroup(title: "Chimes") var chimes: ChimeOptions

    func validate() throws {
        if let speed {
            do { _ = try ReplaySpeed.parse(speed) } catch { throw ValidationError(error.description) }
        }
        let specification = try SourceSpecification(source)
        if duration != nil {
            guard case .simulate = specification else {
                throw ValidationError("--duration applies to simulate:ROUTE only.")
            }
        }
        if speed != nil && !specification.isReplayed {
            throw ValidationError("--speed applies to a log or simulate:ROUTE; a live receiver sends in real time.")
        }
        if let baud {
            guard case .device = specification else {
                throw ValidationError("--baud applies to a serial device (--source /dev/...).")
            }
            guard BaudRate(rawValue: baud) != nil else {
                let rates = BaudRate.allCases.map { String($0.rawValue) }.joined(separator: ", ")
                throw ValidationError("--baud must be one of \(rates), not \(baud).")
            }
        }
    }

    func run() async throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let onTerminal = isatty(STDERR_FILENO) == 1
        let logger = Record.makeLogger(onTerminal: onTerminal)
        let specification = try SourceSpecification(source)
        let (resolved, detectedBaud) = try await Record.resolve(specification, logger: logger)

        let (path, isDefault) = storeLocation.resolved
        if isDefault { StoreLocation.createDirectories(for: path) }
        let (store, recovered) = try TrackStore.openForRecording(at: path, options: Record.storeOptions())
        for track in recovered {
            writeStandardError("trackd: \(TrackDescription.recovered(track)) in \(path)\n")
        }

        switch resolved {
        case .auto:
            preconditionFailure("resolve never returns auto")
        case .gpsd(let address):
            try await record(from: GPSDSource(address: address), name: name, store: store, logger: logger, onTerminal: onTerminal)
        case .device(let path):
            let source = SerialSource(
                path: path, baud: baud, allowMissingChecksum: allowMissingChecksum, rememberedBaud: detectedBaud)
            try await record(from: source, name: name, store: store, logger: logger, onTerminal: onTerminal)
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
        let player = try chimes.makePlayer(logger: logger)
        let pipeline = RecordPipeline(
            source: source, manager: manager, recorder: recorder, chimes: player, logger: logger, showsStatus: onTerminal)
        // Consumers first: a shutdown stops the source first, then the manager and the chimes
        // (after "recording stopped"). The recorder runs beside the group and ends last, when
        // the pipeline has ended its input: whatever it was handed is committed.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (player.map { [.init(service: $0)] } ?? []) + [
                    .init(service: manager),
                    .init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        async let recording: Void = recorder.run()
        var failure: (any Error)?
        do {
            try await group.run()
        } catch {
            failure = error
        }
        recorder.finishInput()  // already done by the pipeline, unless it never ran
        do {
            try await recording
        } catch {
            failure = failure ?? error
        }
        if let failure {
            // A source that failed before its first fix (gpsd not running, a tty that is not
            // a GPS) leaves no empty track behind.
            if let track = try? store.track(.id(recorder.trackID)), track.rawFixes == 0, track.state != .recording {
                try? store.delete(track: track.id)
            }
            throw failure
        }

        let track = try store.track(.id(recorder.trackID))
        if track.rawFixes == 0 {
            try store.delete(track: track.id)
            writeStandardError("trackd: no fix was received from \(source.description); no track was kept\n")
            return
        }
        writeStandardError("trackd: \(TrackDescription.recorded(track)) -> \(store.path)\n")
    }

    /// What `auto` means here and now: gpsd when it answers on localhost, else the first
    /// receiver device (udev's /dev/gps*, then /dev/ttyACM*, /dev/ttyUSB*) that speaks NMEA.
    /// For a device found by probing, also the rate it answered at.
    static func resolve(_ specification: SourceSpecification, logger: Logger) async throws -> (SourceSpecification, BaudRate?) {
        guard case .auto = specification else { return (specification, nil) }
        let gpsd = GPSDAddress()
        if SourceDiscovery.gpsdBanner(host: gpsd.host, port: gpsd.port) != nil {
            logger.info("gpsd answers on \(gpsd); reading from it")
            return (.gpsd(gpsd), nil)
        }
        let candidates = SourceDiscovery.receiverCandidates()
        for path in candidates {
            do {
                let baud = try await SerialSource.detectBaud(path: path, detectionTimeout: .seconds(2))
                logger.info("\(path) speaks NMEA at \(baud.rawValue) baud; reading from it")
                return (.device(path), baud)
            } catch let error as SourceError {
                logger.info("\(path): \(error)")
            }
        }
        throw SourceSelectionError.nothingFound(tried: candidates)
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
    /// gpsd on localhost if it answers, else the first receiver device that speaks NMEA.
    case auto
    case gpsd(GPSDAddress)
    /// A serial receiver's device node (`/dev/ttyACM0`, `/dev/gps0`).
    case device(String)
    case log(String)
    case simulate(Route)

    init(_ text: String) throws(ValidationError) {
        if text == "auto" {
            self = .auto
        } else if GPSDAddress.isGPSDAddress(text) {
            do {
                self = .gpsd(try GPSDAddress.parse(text))
            } catch {
                throw ValidationError(error.description)
            }
        } else if text.hasPrefix("simulate:") {
            let name = String(text.dropFirst("simulate:".count))
            guard let route = Route(rawValue: name) else {
                let routes = Route.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("Unknown route '\(name)' in --source \(text); the routes are \(routes).")
            }
            self = .simulate(route)
        } else if text.hasPrefix("/dev/") || SourceSpecification.isCharacterDevice(text) {
            self = .device(text)
        } else if text.isEmpty {
            throw ValidationError("--source needs auto, gpsd[://HOST[:PORT]], a device such as /dev/ttyACM0, a log file, or simulate:ROUTE.")
        } else {
            self = .log(text)
        }
    }

    /// Whether `path` is (or links to) a character device: a tty, wherever its name lives.
    static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }

    /// Whether the source is replayed (and takes --speed).
    var isReplayed: Bool {
        switch self {
        case .log, .simulate: true
        case .auto, .gpsd, .device: false
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

/// `--source auto` found nothing to read.
enum SourceSelectionError: Error, CustomStringConvertible {
    case nothingFound(tried: [String])

    var description: String {
        switch self {
        case .nothingFound(let tried):
            let devices = tried.isEmpty ? "no /dev/gps*, /dev/ttyACM* or /dev/ttyUSB* exists" : "none of \(tried.joined(separator: ", ")) sends NMEA"
            return "no GPS receiver found: gpsd does not answer on localhost:2947, and \(devices); plug the receiver in (`trackd sources` shows what trackd sees), or give --source"
        }
    }
}
