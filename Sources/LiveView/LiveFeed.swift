import GPSCore
import ServiceLifecycle
import TrackStore

/// One browser's event stream: reads the store every ``pollInterval`` and sends what the
/// ``LiveCursor`` says is new. Reading the store, not the recorder, makes the page show
/// exactly what is committed, the same whether trackd records in this process
/// (`trackd record --serve`) or another (`trackd serve`).
struct LiveFeed<C: Clock<Duration>>: Sendable {
    let store: TrackStore
    let track: TrackSelector
    let clock: C
    let pollInterval: Duration

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
            let summary = try selectedTrack()
            for event in cursor.select(summary) {
                try await send(event.text)
                sent = true
            }
            // The track row changes with every commit of points or fixes, and an event gets a
            // new row id: while neither changes, nothing new is committed and nothing is read.
            let latestEvent = try summary.flatMap { try store.latestEventID(ofTrack: $0.id) }
            if let id = cursor.trackID, let summary, summary.id == id, seen?.summary != summary || seen?.latestEvent != latestEvent {
                while true {
                    let batch = try store.points(ofTrack: id, after: cursor.lastNumber, limit: LiveCursor.batchSize)
                    if let event = cursor.take(batch) {
                        try await send(event.text)
                        sent = true
                    }
                    if batch.count < LiveCursor.batchSize { break }
                }
                if let event = cursor.take(try progress(of: summary, cursor: cursor)) {
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
    private func selectedTrack() throws(StoreError) -> TrackSummary? {
        do {
            return try store.track(track)
        } catch {
            switch error {
            case .noTracks, .noSuchTrack: return nil
            default: throw error
            }
        }
    }

    private func progress(of summary: TrackSummary, cursor: LiveCursor) throws(StoreError) -> TrackProgress {
        var last = cursor.lastPoint
        if last == nil, cursor.lastNumber > 0 {
            last = try store.points(ofTrack: summary.id, after: cursor.lastNumber - 1, limit: 1).first
        }
        return TrackProgress(
            track: summary, lastPoint: last,
            signalEvent: try store.latestEvent(ofTrack: summary.id, among: ["signal-strong", "signal-weak", "signal-invalid"]),
            motionEvent: try store.latestEvent(ofTrack: summary.id, among: ["stationary", "moving"]),
            sourceEvent: try store.latestEvent(ofTrack: summary.id, among: ["source-lost", "source-resumed", "source-connected"]))
    }
}
