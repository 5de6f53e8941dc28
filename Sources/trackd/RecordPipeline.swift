import Chime
import GPSCore
import GPSSources
import LiveView
import Location
import Logging
import ServiceLifecycle
import Synchronization
import TrackStore

/// Source → location manager → recorder: the service that moves fixes along.
///
/// It ends when the source ends (the end of a log or simulation) or on a graceful shutdown
/// (SIGINT, SIGTERM); either way it then ends the manager's events, waits until the last of
/// them reached the recorder, and ends the recorder's input, so that every point is committed.
final class RecordPipeline<Source: FixSource>: Service {
    let source: Source
    let manager: LocationManager
    let recorder: TrackRecorder
    /// Where chimes go; nil for none. Playing only queues: it never waits on audio.
    let chimes: ChimePlayer?
    let logger: Logger
    /// Whether to keep a status line on standard error (a terminal).
    let showsStatus: Bool
    /// The live view's gate, when serving: nothing is read until it listens.
    let liveView: ListeningGate?
    /// The thread the recording runs on, if any (a live receiver's), for the pipeline's own
    /// tasks and the status line's timer.
    let thread: RecordingThread?
    private let status = Mutex(LiveStatus())

    init(
        source: Source, manager: LocationManager, recorder: TrackRecorder, chimes: ChimePlayer?, logger: Logger,
        showsStatus: Bool, liveView: ListeningGate? = nil, thread: RecordingThread? = nil
    ) {
        self.source = source
        self.manager = manager
        self.recorder = recorder
        self.chimes = chimes
        self.logger = logger
        self.showsStatus = showsStatus
        self.liveView = liveView
        self.thread = thread
    }

    func run() async throws {
        if let liveView {
            do {
                let url = try await liveView.wait()
                if showsStatus { writeStandardError("trackd: live view on \(url)\n") }
            } catch {
                await manager.finish()
                recorder.finishInput()
                throw error
            }
        }
        chimes?.play(.recordingStarted)
        // Unstructured tasks do not inherit the recording thread as their executor: named.
        let forwarding = Task(executorPreference: thread) { await self.forwardLocationEvents() }
        let statusLine = showsStatus ? Task(executorPreference: thread) { await self.keepStatusLine() } : nil
        var failure: (any Error)?
        do {
            // Cancelled (not ended through `cancelOnGracefulShutdown()`, whose merge reads the
            // source on a task of its own, off the recording thread) on a graceful shutdown.
            try await cancelWhenGracefulShutdown {
                for try await event in self.source {
                    try await self.take(event)
                }
            }
        } catch is CancellationError {
            // A shutdown while the source waited: the end of the input.
        } catch {
            failure = error
        }
        await manager.finish()
        await forwarding.value
        recorder.finishInput()
        chimes?.play(.recordingStopped)
        statusLine?.cancel()
        if showsStatus { writeStandardError("\r\u{1B}[K") }
        if let failure { throw failure }
    }

    private func take(_ event: SourceEvent) async throws {
        for entry in RecordingEntries.entries(for: event) { recorder.record(entry) }
        switch event {
        case .fix(let fix):
            status.withLock { $0.update(with: fix) }
            await manager.process(fix)
            await recorder.waitForRoom()
        case .connected(let what):
            logger.info("reading \(what)")
        case .lost(let why):
            logger.warning("the source was lost: \(why)")
            chimes?.play(.fixLost)
            await manager.sourceLost()
        case .trouble(let what):
            logger.warning("\(what)")
        case .resumed(let what):
            logger.notice("the source is back: \(what)")
        }
    }

    private func forwardLocationEvents() async {
        var lastPointSeconds: Double?
        var corrections = 0
        for await event in manager.events {
            for entry in RecordingEntries.entries(for: event) { recorder.record(entry) }
            if let chime = RecordPipeline.chime(for: event) { chimes?.play(chime) }
            status.withLock { status in
                switch event {
                case .locationUpdated(let location):
                    status.points += 1
                    status.speedMetersPerSecond = location.speedMetersPerSecond
                case .distanceUpdated(let total):
                    status.distanceMeters = total
                case .signalStrengthChanged(let strength):
                    status.signal = strength
                case .stationary:
                    status.speedMetersPerSecond = 0
                default:
                    break
                }
            }
            switch event {
            case .signalStrengthChanged(let strength):
                logger.info("signal \(strength.rawValue)")
            case .signalConsistentlyWeak:
                logger.info("the signal stayed weak; accepting weaker fixes")
            case .locationUpdated(let location):
                lastPointSeconds = location.time.secondsSinceEpoch
            case .rejected(let fix, .timeOutlier):
                logger.warning("\(TimeStepText.outlier(fix, lastSeconds: lastPointSeconds))")
            case .rejected(let fix, .impossibleJump):
                logger.info("dropped the position of \(fix.time.map(String.init(describing:)) ?? "a fix"): it jumped away from the track and the next fixes came back (multipath)")
            case .timeStepped(let from, let to):
                logger.warning("the receiver's time stepped \(TimeStepText.detail(from: from, to: to)) and the fixes after it agree; a new segment starts")
                lastPointSeconds = nil
            case .timeCorrected(let fix, let corrected):
                corrections += 1
                if corrections == 1 {
                    logger.warning("the receiver dates its fixes 1024 weeks off (a GPS week-number rollover): \(fix.time.map(String.init(describing:)) ?? "?") is taken as \(corrected); further corrections are not logged")
                }
            default:
                break
            }
        }
    }

    /// The chime for a location event, if any: a point, and each change of the signal
    /// (a fix lost when it becomes invalid after having been valid).
    static func chime(for event: LocationEvent) -> ChimeKind? {
        switch event {
        case .locationUpdated: .update
        case .signalStrengthChanged(.strong): .signalStrong
        case .signalStrengthChanged(.weak): .signalWeak
        case .signalStrengthChanged(.invalid): .fixLost
        default: nil
        }
    }

    /// Redraws the status line twice a second until cancelled.
    private func keepStatusLine() async {
        let clock: any Clock<Duration> = thread.map { RecordingThread.Sleeper(thread: $0) } ?? ContinuousClock()
        let start = ContinuousClock.now
        while !Task.isCancelled {
            let elapsed = start.duration(to: .now).components.seconds
            let line = status.withLock { status in
                status.elapsedSeconds = elapsed
                return status.line
            }
            writeStandardError("\r\u{1B}[K" + line)
            do { try await clock.sleep(for: .milliseconds(500)) } catch { return }
        }
    }
}
