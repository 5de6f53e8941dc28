import Logging
import ServiceLifecycle
import Synchronization

/// Plays chimes through ALSA on a thread of its own, so the recording never waits on sound.
///
/// ``play(_:)`` only queues (``ChimePolicy`` decides what is kept) and returns at once; a
/// dedicated thread plays the queue, blocking in ALSA as long as the device takes. Tones
/// are synthesised once, here in `init`, for the enabled chimes.
///
/// The device is opened at the first chime and kept open. If it cannot be opened, or a write
/// fails (unplugged USB card, a busy or missing device), the player logs a warning once
/// for the outage, drops chimes, and tries the device again with the first chime at least
/// ``defaultRetryInterval`` (`retryInterval`) after the last failure, by the injected clock.
/// Nothing is thrown to the caller and nothing traps.
///
/// As a `Service`, ``run()`` starts the thread and waits for graceful shutdown; it then
/// plays what is still queued (the "recording stopped" chime, typically) and closes the
/// device, waiting at most `shutdownLimit`. Cancellation drops the queue and returns at once.
///
/// ```swift
/// let chimes = ChimePlayer(enabled: try ChimeSet(parsing: "update,signal"), logger: logger)
/// let group = ServiceGroup(services: [recorder, chimes, manager, source], logger: logger)
/// chimes.play(.recordingStarted)   // from anywhere, never waits
/// ```
public final class ChimePlayer: Service, Sendable {
    /// How long a failed device is left alone before the next try.
    public static let defaultRetryInterval = DeviceRetry.defaultRetryInterval
    /// How long graceful shutdown waits for queued chimes at most: the longest queue
    /// (4 × 400 ms) with room to spare, short enough not to hold up a Ctrl-C.
    public static let defaultShutdownLimit = Duration.seconds(3)

    /// The ALSA PCM name chimes go to.
    public let device: String
    /// How loud.
    public let volume: ChimeVolume
    /// Frames per second written to the device.
    public let sampleRate: Int

    private let configuration: String?
    private let tables: [ChimeKind: [Int16]]
    private let retryInterval: Duration
    private let shutdownLimit: Duration
    private let logger: Logger
    private let now: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let state: Mutex<State>
    private let wakeup = Wakeup()
    private let stopped: AsyncStream<Never>
    private let markStopped: AsyncStream<Never>.Continuation

    private struct State: Sendable {
        var policy: ChimePolicy
        var statistics = ChimeStatistics()
        var started = false
        var stopping = false
    }

    /// Makes a player; nothing is opened or started until ``run()`` and the first chime.
    ///
    /// - Parameters:
    ///   - device: ALSA PCM name (`--alsa-device`): "default", "plughw:CARD=Device", …
    ///   - alsaConfiguration: asoundrc text defining `device`, used instead of the system's
    ///     configuration (tests point a `file` PCM at a temporary file); nil for the system's.
    ///   - volume: `--volume`.
    ///   - enabled: `--chime`; ``ChimeSet/none`` for `--no-chime`.
    ///   - updateInterval: `--chime-every`: at most one update chime per this long; zero or
    ///     more (check user input with ``ChimePolicy/updateInterval(seconds:)``).
    ///   - sampleRate: frames per second, in ``ToneSynthesizer/sampleRates``.
    ///   - queueCapacity: chimes waiting at most, 1 or more.
    ///   - retryInterval: how long a failed device is left alone.
    ///   - shutdownLimit: how long graceful shutdown waits for queued chimes.
    ///   - clock: times coalescing, retries and the shutdown limit.
    ///   - logger: device failures (warning, once per outage), recovery (notice), retries (debug).
    public init<C: Clock>(
        device: String = "default",
        alsaConfiguration: String? = nil,
        volume: ChimeVolume = .default,
        enabled: ChimeSet = .default,
        updateInterval: Duration = ChimePolicy.defaultUpdateInterval,
        sampleRate: Int = ToneSynthesizer.defaultSampleRate,
        queueCapacity: Int = ChimePolicy.defaultCapacity,
        retryInterval: Duration = ChimePlayer.defaultRetryInterval,
        shutdownLimit: Duration = ChimePlayer.defaultShutdownLimit,
        clock: C,
        logger: Logger
    ) where C.Duration == Duration {
        self.device = device
        self.configuration = alsaConfiguration
        self.volume = volume
        self.sampleRate = sampleRate
        let synthesizer = ToneSynthesizer(sampleRate: sampleRate, volume: volume)
        var tables: [ChimeKind: [Int16]] = [:]
        for kind in ChimeKind.allCases where enabled.contains(kind) {
            tables[kind] = synthesizer.samples(for: kind)
        }
        self.tables = tables
        self.retryInterval = retryInterval
        self.shutdownLimit = shutdownLimit
        self.logger = logger
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        self.sleep = { try await clock.sleep(for: $0) }
        self.state = Mutex(State(policy: ChimePolicy(enabled: enabled, updateInterval: updateInterval, capacity: queueCapacity)))
        (stopped, markStopped) = AsyncStream.makeStream(of: Never.self)
    }

    /// Makes a player timed by the continuous clock; see the other initialiser.
    public convenience init(
        device: String = "default",
        alsaConfiguration: String? = nil,
        volume: ChimeVolume = .default,
        enabled: ChimeSet = .default,
        updateInterval: Duration = ChimePolicy.defaultUpdateInterval,
        logger: Logger
    ) {
        self.init(
            device: device, alsaConfiguration: alsaConfiguration, volume: volume, enabled: enabled,
            updateInterval: updateInterval, clock: ContinuousClock(), logger: logger
        )
    }

    /// Asks for `kind`; returns at once and never waits on the device or a lock held
    /// during playback. Safe from any thread or task. What becomes of it shows in
    /// ``statistics``: it may be ignored (group off), coalesced or dropped.
    public func play(_ kind: ChimeKind) {
        let at = now()
        let queued = state.withLock { state -> Bool in
            guard !state.stopping else {
                if state.policy.enabled.contains(kind) { state.statistics.dropped += 1 }
                return false
            }
            switch state.policy.request(kind, now: at) {
            case .queued:
                return true
            case .queuedEvicting:
                state.statistics.dropped += 1
                return true
            case .coalesced:
                state.statistics.coalesced += 1
                return false
            case .dropped:
                state.statistics.dropped += 1
                return false
            case .disabled:
                return false
            }
        }
        if queued { wakeup.signal() }
    }

    /// Counts of played, dropped and coalesced chimes so far, and of those waiting.
    public var statistics: ChimeStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.queued = state.policy.queue.count
            return statistics
        }
    }

    /// Starts the playback thread and runs until graceful shutdown or cancellation.
    ///
    /// Never throws, and never returns before graceful shutdown or cancellation (a service
    /// returning early would end its group): a thread that cannot be started is logged and
    /// chimes are dropped.
    /// - Precondition: called once.
    public func run() async throws {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        precondition(first, "ChimePlayer.run() was called twice; make one player per service group")
        guard startPlaybackThread({ [self] in playbackLoop() }) else {
            logger.warning("cannot start a thread to play chimes; the system is out of threads or memory; recording goes on without chimes")
            state.withLock { state in
                state.stopping = true
                state.statistics.dropped += state.policy.removeAll()
            }
            // Returning early would end the service group, and the recording with it.
            try? await gracefulShutdown()
            return
        }
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            graceful = false
        }
        state.withLock { state in
            state.stopping = true
            if !graceful { state.statistics.dropped += state.policy.removeAll() }
        }
        wakeup.signal()
        if graceful { await waitForPlaybackThread() }
    }

    /// Waits until the thread has played the queue and closed the device, or `shutdownLimit`.
    private func waitForPlaybackThread() async {
        let (stopped, sleep, limit) = (self.stopped, self.sleep, shutdownLimit)
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stopped {}
                return !Task.isCancelled
            }
            group.addTask {
                try? await sleep(limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !finished {
            logger.notice("chimes on '\(device)' still playing after \(limit); shutting down without them")
        }
    }

    // MARK: - The playback thread

    private enum Step {
        case play(ChimePolicy.Request)
        case idle
        case stop
    }

    /// The thread: one queued chime per wake-up, until stopped with an empty queue.
    private func playbackLoop() {
        var output: PCMOutput?
        var retry = DeviceRetry(retryInterval: retryInterval)
        while true {
            wakeup.wait()
            let step = state.withLock { state -> Step in
                if let request = state.policy.next() { return .play(request) }
                return state.stopping ? .stop : .idle
            }
            switch step {
            case .idle:
                continue
            case .stop:
                output?.close()
                markStopped.finish()
                return
            case .play(let request):
                let played = play(request, on: &output, retry: &retry)
                state.withLock { state in
                    if played { state.statistics.played += 1 } else { state.statistics.dropped += 1 }
                }
            }
        }
    }

    /// Plays one chime, opening the device first if needed and due; false if it did not play.
    private func play(_ request: ChimePolicy.Request, on output: inout PCMOutput?, retry: inout DeviceRetry) -> Bool {
        guard let samples = tables[request.kind] else { return false }
        // Retries are timed by when the chime was asked for: the thread may run late.
        let at = request.requestedAt
        do throws(ChimeError) {
            let pcm: PCMOutput
            if let output {
                pcm = output
            } else {
                guard retry.mayTry(now: at) else { return false }
                pcm = try PCMOutput(device: device, configuration: configuration, sampleRate: sampleRate)
                output = pcm
            }
            try pcm.play(samples)
        } catch {
            output?.close()
            output = nil
            if retry.failed(now: at) {
                logger.warning("\(error); recording goes on, chimes are dropped and the device is tried again every \(retryInterval)")
            } else {
                logger.debug("sound device '\(device)' still failing: \(error)")
            }
            return false
        }
        if retry.succeeded() {
            logger.notice("sound device '\(device)' works again; chimes resume")
        }
        return true
    }
}
