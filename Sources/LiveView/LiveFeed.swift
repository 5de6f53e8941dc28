import GPSCore
import ServiceLifecycle
import TrackStore

/// One browser's event stream: reads the store every ``pollInterval`` and sends what the
/// ``LiveCursor`` says is new. Reading the store, not the recorder, makes the page show
/// exactly what is committed, the same whether trackd records in this process
/// (`trackd record --serve`) or another (`trackd serve`). Every read runs on the
/// ``StoreReader``'s queue, never on the stream's task.
struct LiveFeed<C: Clock<Duration>>: Sendable {
    let reader: StoreReader
    let track: TrackSelector
    let clock: C
    let pollInterval: Duration

    init(reader: StoreReader, track: TrackSelector, clock: C, pollInterval: Duration) {
        self.reader = reader
        self.track = track
        self.clock = clock
        self.pollInterval = pollInterval
    }

    /// A feed with a reader of its own.
    init(store: TrackStore, track: TrackSelector, clock: C, pollInterval: Duration) {
        self.init(reader: StoreReader(store: store), track: track, clock: clock, pollInterval: pollInterval)
    }

    /// Sends events until cancelled or until `send` throws (the browser went away); on a
    /// graceful shutdown, reads and sends once more (the recorder's last commit, the track's
    /// final state) and returns.
    func run(lastEventID: String?, send: (String) async throws -> Void) async throws {
        var cursor = LiveCursor(lastEventID: lastEventID)
        var seen: (summary: TrackSummary, latestEvent: Int64?)?
        let start = clock.now
        try await send(ServerSentEvent.retry(milliseconds: 2000))
        while true {
            try Task.checkCancellation()
            let stopping = Task.isShuttingDownGracefully
            var sent = false
            let track = self.track
            // The track row changes with every commit of points or fixes, and an event gets a
            // new row id: while neither changes, nothing new is committed and nothing is read.
            let (summary, latestEvent) = try await reader.read { store in
                let summary = try LiveFeed.selectedTrack(track, in: store)
                return (summary, try summary.flatMap { try store.latestEventID(ofTrack: $0.id) })
            }
            for event in cursor.select(summary) {
                try await send(event.text)
                sent = true
            }
            if let id = cursor.trackID, let summary, summary.id == id, seen?.summary != summary || seen?.latestEvent != latestEvent {
                while true {
                    let after = cursor.lastNumber
                    let batch = try await reader.read { store in
                        try store.points(ofTrack: id, after: after, limit: LiveCursor.batchSize)
                    }
                    if let event = cursor.take(batch) {
                        try await send(event.text)
                        sent = true
                    }
                    if batch.count < LiveCursor.batchSize { break }
                }
                let (lastPoint, lastNumber) = (cursor.lastPoint, cursor.lastNumber)
                let progress = try await reader.read { store in
                    try LiveFeed.progress(of: summary, lastPoint: lastPoint, lastNumber: lastNumber, in: store)
                }
                if let event = cursor.take(progress) {
                    try await send(event.text)
                    sent = true
                }
                seen = (summary, latestEvent)
            }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if let beat = cursor.heartbeat(now: seconds, sent: sent) { try await send(beat) }
            if stopping { return }
            try await clock.sleep(for: pollInterval)
        }
    }

    /// The track to show now; nil while the store has none (or the one named was deleted).
    private static func selectedTrack(_ track: TrackSelector, in store: TrackStore) throws(StoreError) -> TrackSummary? {
        do {
            return try store.track(track)
        } catch {
            switch error {
            case .noTracks, .noSuchTrack: return nil
            default: throw error
            }
        }
    }

    private static func progress(
        of summary: TrackSummary, lastPoint: StoredPoint?, lastNumber: Int, in store: TrackStore
    ) throws(StoreError) -> TrackProgress {
        var last = lastPoint
        if last == nil, lastNumber > 0 {
            last = try store.points(ofTrack: summary.id, after: lastNumber - 1, limit: 1).first
        }
        return TrackProgress(
            track: summary, lastPoint: last,
            signalEvent: try store.latestEvent(ofTrack: summary.id, among: ["signal-strong", "signal-weak", "signal-invalid"]),
            motionEvent: try store.latestEvent(ofTrack: summary.id, among: ["stationary", "moving"]),
            sourceEvent: try store.latestEvent(ofTrack: summary.id, among: ["source-lost", "source-resumed", "source-connected"]))
    }
}
