import ArgumentParser
import Chime
import GPSCore
import GPSSources
import LiveView
import Location
import Logging
import ServiceLifecycle
import Simulation
import TrackStore
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a track into the track store until the input ends or SIGINT/SIGTERM/SIGHUP.",
        discussion: """
            Fixes go from the source through the location manager (accuracy tier, activity, \
            distance filter) into the track store, an SQLite file that survives a kill or a power \
            cut: points are committed at least once a second, and a track that a recorder left \
            open is closed and marked recovered the next time trackd records. Every fix received \
            is kept too, so `trackd export --raw` can show what the receiver sent.

            Sources: auto (the default: gpsd on localhost:2947 if it answers, else the first \
            /dev/gps*, /dev/ttyACM* or /dev/ttyUSB* that sends NMEA), gpsd[://HOST[:PORT]], a \
            serial device (its baud rate detected, or --baud), a recorded NMEA log (paced by its \
            own fix times, as fast as possible by default), or simulate:ROUTE for the route \
            simulator (real time by default; routes: city-run, city-bicycle-ride, freeway-drive, \
            hike, standing-still). A new segment starts when the fix or the source is lost; a \
            receiver unplugged or a gpsd restarted is waited for and read again.

            On a terminal, one status line shows the fix, the signal and the track so far; \
            otherwise trackd logs to standard error. SIGINT, SIGTERM or SIGHUP (a dropped SSH \
            session) closes the track and exits 0.

            Settings not given here come from the configuration file: --config, else \
            $TRACKD_CONFIG, else /etc/trackd/trackd.toml if it exists (keys: the options' names \
            in snake case, such as distance_filter; config/trackd.toml documents them). Under systemd \
            (Type=notify) trackd reports READY=1, its status and watchdog pings.
            """
    )

    @Option(
        help: ArgumentHelp(
            "Where fixes come from: auto, gpsd[://HOST[:PORT]], a device (/dev/ttyACM0), an NMEA log file, or simulate:ROUTE.",
            discussion: "Default: auto.",
            valueName: "source"))
    var source: String?

    @Option(help: ArgumentHelp("The serial receiver's baud rate (default: detected).", valueName: "rate"))
    var baud: Int?

    @OptionGroup var location: RecordLocationOptions

    @Option(help: "The track's name (default: the log's file name, or the route).")
    var name: String?

    @OptionGroup var storeLocation: StoreLocation

    @Option(
        parsing: .unconditional,
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

    @OptionGroup(title: "Chimes") var chimes: RecordChimeOptions

    @Option(
        help: ArgumentHelp(
            "Serve the live view, the track drawn as it grows, on HOST:PORT while recording.",
            discussion: "--serve alone means 127.0.0.1:8080 (this machine only); other addresses must be given, such as 0.0.0.0:8080 for a phone on the Pi's Wi-Fi. --serve none turns off a live view the configuration file asks for.",
            valueName: "host:port"))
    var serve: String?

    @Option(
        help: ArgumentHelp(
            "The configuration file (default: $TRACKD_CONFIG, else /etc/trackd/trackd.toml if it exists).",
            valueName: "path"))
    var config: String?

    /// Checks each option given by itself; what depends on other settings, which may come
    /// from the configuration file, is checked by ``check(_:)``.
    func validate() throws {
        if let speed {
            do { _ = try ReplaySpeed.parse(speed) } catch { throw ValidationError(error.description) }
        }
        if let source { _ = try SourceSpecification(source) }
        if let baud, BaudRate(rawValue: baud) == nil {
            let rates = BaudRate.allCases.map { String($0.rawValue) }.joined(separator: ", ")
            throw ValidationError("--baud must be one of \(rates), not \(baud).")
        }
        do {
            if let chime = chimes.chime { _ = try ChimeSet(parsing: chime) }
            if let volume = chimes.volume { _ = try ChimeVolume(parsing: volume) }
            if let seconds = chimes.chimeEvery { _ = try ChimePolicy.updateInterval(seconds: seconds) }
        } catch {
            throw ValidationError(error.description)
        }
        if let serve, serve != "none" {
            do { _ = try ListenAddress(parsing: serve) } catch { throw ValidationError("--serve: \(error)") }
        }
        _ = try commandLineSettings.locationConfiguration()
        // The file and the checks across settings, here too so that a usage error shows
        // `record`'s usage.
        _ = try settings(environment: Record.environment)
    }

    /// What the command line gives, each nil when not given.
    var commandLine: RecordConfiguration {
        RecordConfiguration(
            source: source, baud: baud, accuracy: location.accuracy, activity: location.activity,
            distanceFilter: location.distanceFilter, name: name, store: storeLocation.store,
            chimes: chimes.noChime ? "none" : chimes.chime, chimeEvery: chimes.chimeEvery, alsaDevice: chimes.alsaDevice,
            volume: chimes.volume, allowMissingChecksum: allowMissingChecksum ? true : nil, serve: serve)
    }

    /// The command line's settings over the defaults alone.
    private var commandLineSettings: RecordSettings {
        RecordSettings(commandLine: commandLine, file: RecordConfiguration())
    }

    /// The settings to record with: the command line over the configuration file.
    func settings(environment: [String: String]) throws -> RecordSettings {
        let file = try RecordConfiguration.load(given: config, environment: environment)
        let settings = RecordSettings(commandLine: commandLine, file: file)
        try check(settings)
        return settings
    }

    /// The checks across settings.
    func check(_ settings: RecordSettings) throws(ValidationError) {
        let specification = try SourceSpecification(settings.source)
        if duration != nil {
            guard case .simulate = specification else {
                throw ValidationError("--duration applies to simulate:ROUTE only.")
            }
        }
        if speed != nil && !specification.isReplayed {
            throw ValidationError("--speed applies to a log or simulate:ROUTE; a live receiver sends in real time.")
        }
        if settings.baud != nil {
            guard case .device = specification else {
                throw ValidationError("--baud (or baud in the configuration file) applies to a serial device (--source /dev/...).")
            }
        }
    }

    func run() async throws {
        let settings = try settings(environment: Record.environment)
        TemporaryFileGuard.unblockTerminationSignals()
        // Trapped before anything is opened or created: a SIGTERM, SIGINT or SIGHUP (a dropped
        // SSH session) at any moment from here on ends the recording gracefully.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        let onTerminal = isatty(STDERR_FILENO) == 1
        let logger = Record.makeLogger(onTerminal: onTerminal)
        let specification = try SourceSpecification(settings.source)
        let (resolved, detectedBaud) = try await Record.resolve(specification, logger: logger)

        let (path, isDefault) = settings.store.map { ($0, false) } ?? storeLocation.resolved
        if isDefault { createParentDirectories(of: path) }
        let (store, recovery) = try TrackStore.openForRecording(at: path, options: Record.storeOptions())
        for track in recovery.recovered {
            writeStandardError("trackd: \(TrackDescription.recovered(track)) in \(path)\n")
        }
        for track in recovery.removedEmpty {
            writeStandardError("trackd: \(TrackDescription.removedEmpty(track, in: path))\n")
        }

        switch resolved {
        case .auto:
            preconditionFailure("resolve never returns auto")
        case .gpsd(let address):
            let source = GPSDSource(address: address)
            try await record(
                from: source, name: settings.name, settings: settings, store: store, logger: logger, onTerminal: onTerminal,
                signals: signals, isLive: true)
        case .device(let path):
            let source = SerialSource(
                path: path, baud: settings.baud,
                allowMissingChecksum: settings.allowMissingChecksum, rememberedBaud: detectedBaud)
            try await record(
                from: source, name: settings.name, settings: settings, store: store, logger: logger, onTerminal: onTerminal,
                signals: signals, isLive: true)
        case .log(let file):
            let speed = try speed.map(ReplaySpeed.parse) ?? .max
            let source = LogFileSource(path: file, speed: speed, allowMissingChecksum: settings.allowMissingChecksum)
            let name = settings.name ?? defaultTrackName(for: file)
            try await record(from: source, name: name, settings: settings, store: store, logger: logger, onTerminal: onTerminal, signals: signals)
        case .simulate(let route):
            let speed = try speed.map(ReplaySpeed.parse) ?? .times(1)
            let simulation = SimulationSettings(route: route, durationSeconds: duration?.seconds ?? 600)
            let source = SimulatorSource(settings: simulation, speed: speed)
            let name = settings.name ?? route.rawValue
            try await record(from: source, name: name, settings: settings, store: store, logger: logger, onTerminal: onTerminal, signals: signals)
        }
    }

    /// Records from `source`. A live receiver's recording runs on the ``RecordingThread``:
    /// the pipeline, the manager, the recorder and their timers wake one thread, not Swift's
    /// pool. A log or a simulation, read as fast as it can be, keeps the pool, where parsing
    /// and commits overlap.
    private func record<S: FixSource>(
        from source: S, name: String?, settings: RecordSettings, store: TrackStore, logger: Logger, onTerminal: Bool,
        signals: UnixSignalsSequence, isLive: Bool = false
    ) async throws {
        let thread = isLive ? RecordingThread.shared : nil
        try await withTaskExecutorPreference(thread) {
            try await recordHere(
                from: source, name: name, settings: settings, store: store, logger: logger, onTerminal: onTerminal,
                signals: signals, isLive: isLive, thread: thread)
        }
    }

    private func recordHere<S: FixSource>(
        from source: S, name: String?, settings: RecordSettings, store: TrackStore, logger: Logger, onTerminal: Bool,
        signals: UnixSignalsSequence, isLive: Bool, thread: RecordingThread?
    ) async throws {
        let configuration = try settings.locationConfiguration()
        let trackSettings = TrackSettings(
            accuracy: settings.accuracy.rawValue, activity: settings.activity.rawValue,
            distanceFilterMeters: configuration.distanceFilter, source: source.description)
        // Live receivers' times are also checked against a synchronised system clock; a log or
        // a simulation keeps the times it was made with.
        let systemTime: @Sendable () -> Double?
        if isLive { systemTime = SynchronisedClock.now } else { systemTime = { nil } }
        // A receiver's timers run on the recording thread's clock; a log's or a simulation's
        // on the source's own.
        let clock = thread.map { RecordingThread.Sleeper(thread: $0) } ?? source.clock
        let manager = LocationManager(configuration: configuration, clock: clock, systemTime: systemTime)
        // What can fail is done before the track is created, so that a failure leaves no track
        // open as `recording`.
        let player = try settings.chimePlayer(logger: logger)
        // The live view reads the store as the recorder commits; the recording starts once
        // it listens, so that a port in use stops trackd before anything is recorded. It reads
        // through a read-only connection of its own, as `trackd serve` does, not the
        // recorder's pool: no connection, queue or lock of the recorder's is the server's to
        // hold. Its reads run on a queue of its own (LiveView's StoreReader), its sockets on
        // NIO's event loops, its tasks on Swift's pool: the recording thread that runs the
        // pipeline, the manager and the recorder's commits never waits on a client.
        let liveViewInputs = try settings.serve.map { text in
            (store: try TrackStore.open(at: store.path, access: .read), address: try ListenAddress(parsing: text),
             limits: try LiveViewEnvironment.limitsWithinDescriptors(logger: logger))
        }
        let recorder = try TrackRecorder(
            store: store, name: name, settings: trackSettings, createdAtMicroseconds: Record.wallClockMicroseconds(),
            version: TrackdVersion.string, clock: thread.map { RecordingThread.Sleeper(thread: $0) } ?? ContinuousClock(),
            executor: thread, logger: logger)
        logger.info("recording track \(recorder.trackID) into \(store.path)")
        let server = liveViewInputs.map {
            LiveViewServer(store: $0.store, track: .id(recorder.trackID), address: $0.address, limits: $0.limits, logger: logger)
        }
        let pipeline = RecordPipeline(
            source: source, manager: manager, recorder: recorder, chimes: player, logger: logger, showsStatus: onTerminal,
            liveView: server?.listening, thread: thread)
        // Under systemd: READY=1, status and watchdog pings, STOPPING=1 (see SystemdWatchdog).
        let notifier = SystemdNotifier.fromEnvironment()
        let watchdog = notifier.isActive
            ? SystemdWatchdog(
                notifier: notifier, clock: ContinuousClock(), logger: logger,
                status: Record.status(of: recorder.trackID, in: store, from: source.description))
            : nil
        // Consumers first: a shutdown stops the watchdog (STOPPING=1) and the source first,
        // then the manager and the chimes (after "recording stopped"). The recorder runs
        // beside the group and ends last, when the pipeline has ended its input: whatever it
        // was handed is committed.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (player.map { [.init(service: $0)] } ?? []) + [
                    .init(service: manager),
                    .init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup),
                ] + (watchdog.map { [.init(service: $0)] } ?? []),
                logger: logger))
        // The signals trapped since the start shut the group down gracefully, including one
        // that came before it ran (the group remembers the request).
        let signalled = Task {
            for await signal in signals {
                logger.info("\(signal) received; closing the track")
                await group.triggerGracefulShutdown()
            }
        }
        defer { signalled.cancel() }
        async let recording: Void = recorder.run()
        // The live view runs beside the group too, and stops after the recorder's last
        // commit, so that the pages get the whole track and its final state.
        let serving = server.map { server in
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: server)], logger: logger))
            return (group, Task { try await group.run() })
        }
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
        if let (group, task) = serving {
            await group.triggerGracefulShutdown()
            _ = await task.result
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

    /// The systemd status of a running track: `recording track 3 from serial /dev/ttyUSB0:
    /// 120 points, 2.53 km`, read from the store (what is committed).
    static func status(of trackID: Int64, in store: TrackStore, from source: String) -> @Sendable () -> String {
        {
            do {
                let track = try store.track(.id(trackID))
                return "recording track \(trackID) from \(source): \(track.points) points, \(kilometres(track.distanceMeters)) km"
            } catch {
                return "recording track \(trackID) from \(source); reading the store failed: \(error)"
            }
        }
    }

    /// The environment variables `trackd record` reads.
    static var environment: [String: String] {
        var result: [String: String] = [:]
        for key in ["TRACKD_CONFIG"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
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
        "\(track.points) point\(track.points == 1 ? "" : "s") in \(track.segments) segment\(track.segments == 1 ? "" : "s"), "
            + "\(kilometres(track.distanceMeters)) km, \(duration(seconds: Int64(track.durationSeconds)))"
    }

    static func recorded(_ track: TrackSummary) -> String {
        "recorded \(label(track)): \(totals(track)) (\(track.rawFixes) fixes received)"
    }

    static func removedEmpty(_ track: TrackSummary, in path: String) -> String {
        "\(label(track)) in \(path) was interrupted before its first commit (the recorder was killed or lost power); it held no point and no fix, so it was removed"
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
