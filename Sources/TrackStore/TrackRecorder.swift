import GPSCore
import Logging
import ServiceLifecycle
import Synchronization

/// Writes one track as it is recorded: takes ``RecordingEntry``s and commits them in short
/// transactions, at least once every ``commitInterval`` on its clock.
///
/// Entries wait in an inbox under a lock, and the recorder's task wakes for the interval (or
/// a full batch), not for each entry: a live recording costs one wake-up a second here,
/// whatever the receiver's rate.
///
/// Nothing is dropped: entries wait in an unbounded buffer, and a failed commit (a full
/// disk) keeps them in memory and tries again at the next interval, logging once. Up to
/// ``maximumPending`` entries are held; beyond that the recording stops with
/// ``StoreError/diskFull(path:pending:)``.
///
/// ``run()`` ends when the input ends (``finishInput()``): it commits what is left and closes
/// the track as finished. It is not cancelled by a graceful shutdown or by cancellation of
/// its task, so that whatever was handed to it is committed; the producer ends the input.
public final class TrackRecorder: Service, Sendable {
    /// The id of the track being recorded.
    public let trackID: Int64
    /// The time between commits (the most a power cut can lose); 1 s.
    public static let commitInterval: Duration = .seconds(1)
    /// A batch this large is committed at once, without waiting for the interval (a fast
    /// replay), to bound memory and transaction size.
    public static let maximumBatch = 500
    /// Entries held in memory while commits fail, before the recording gives up.
    public static let maximumPending = 200_000

    private let store: TrackStore
    private let clock: any Clock<Duration>
    /// Where the recorder's tasks run; nil for Swift's global executor.
    private let executor: (any TaskExecutor)?
    private let logger: Logger
    /// What wakes the recorder's task: the interval, or a full batch in the inbox.
    private let input: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    /// Entries handed over and not yet taken in.
    private let inbox = Mutex<[RecordingEntry]>([])
    /// ``waitForRoom()`` waits while more entries than this are waiting: a log replayed as
    /// fast as it can be read is held to the store's pace, in about a megabyte.
    public static let backlogLimit = 2_000

    enum Input: Sendable {
        /// ``maximumBatch`` entries are waiting.
        case batchReady
        case commitDue
    }

    /// Starts a track in `store` and returns its recorder.
    public init(
        store: TrackStore, name: String?, settings: TrackSettings, createdAtMicroseconds: Int64, version: String,
        clock: any Clock<Duration>, executor: (any TaskExecutor)? = nil, logger: Logger
    ) throws(StoreError) {
        self.store = store
        self.clock = clock
        self.executor = executor
        self.logger = logger
        trackID = try store.beginTrack(
            name: name, settings: settings, createdAtMicroseconds: createdAtMicroseconds, version: version)
        (input, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
    }

    /// Hands an entry over; never waits.
    public func record(_ entry: RecordingEntry) {
        let waiting = inbox.withLock { inbox in
            inbox.append(entry)
            return inbox.count
        }
        if waiting == Self.maximumBatch { continuation.yield(.batchReady) }
    }

    /// Waits while more than ``backlogLimit`` entries wait to be taken in (a replay faster than
    /// the store); returns at once otherwise, as it always does for a live receiver.
    public func waitForRoom() async {
        while inbox.withLock({ $0.count }) > Self.backlogLimit {
            do { try await clock.sleep(for: .milliseconds(5)) } catch { return }
        }
    }

    /// No more entries will come; ``run()`` commits the rest and closes the track.
    public func finishInput() {
        continuation.finish()
    }

    /// Commits until the input ends, then closes the track. Throws ``StoreError`` when the
    /// last commit fails (the track stays `recording`, and the next recorder recovers it).
    public func run() async throws {
        // An unstructured task: cancellation of the caller must not cut the drain short.
        try await Task(executorPreference: executor) { try await self.consume() }.value
    }

    private func consume() async throws {
        let ticker = Task(executorPreference: executor) { [clock, continuation] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: Self.commitInterval) } catch { return }
                continuation.yield(.commitDue)
            }
        }
        defer { ticker.cancel() }
        var session = RecordingSession(trackID: trackID)
        var failing = false
        for await item in input {
            takeIn(&session)
            switch item {
            case .batchReady:
                // While commits fail, only the interval retries them.
                if session.pending.count >= Self.maximumBatch && !failing {
                    try commit(&session, failing: &failing)
                }
            case .commitDue:
                try commit(&session, failing: &failing)
            }
        }
        takeIn(&session)
        do {
            try store.commit(session.pending, track: trackID)
            session.committed()
            try store.closeTrack(trackID, as: .finished)
        } catch {
            throw pendingError(error, session)
        }
        // Best effort: the track is committed either way, in the log if not in the file.
        do {
            try store.checkpoint()
        } catch {
            logger.debug("the store's log was not copied into the store file: \(error)")
        }
        logger.info("closed track \(trackID)", metadata: ["points": "\(session.pointsRecorded)"])
    }

    /// Moves the entries waiting in the inbox into `session`, in the order they came.
    private func takeIn(_ session: inout RecordingSession) {
        let entries = inbox.withLock { inbox in
            let taken = inbox
            inbox = []
            return taken
        }
        for entry in entries { session.append(entry) }
    }

    private func commit(_ session: inout RecordingSession, failing: inout Bool) throws {
        do {
            try store.commit(session.pending, track: trackID)
            session.committed()
            if failing {
                failing = false
                logger.notice("the track store is writable again; the points held in memory are committed")
            }
        } catch {
            let error = pendingError(error, session)
            if session.pending.count >= Self.maximumPending { throw error }
            if !failing {
                failing = true
                logger.error("\(error); holding points in memory and trying again every second")
            }
        }
    }

    private func pendingError(_ error: StoreError, _ session: RecordingSession) -> StoreError {
        if case .diskFull(let path, _) = error { return .diskFull(path: path, pending: session.pending.count) }
        return error
    }
}
