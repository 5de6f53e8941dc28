import GPSCore

/// What a recorder is told, in the order it happened.
public enum RecordingEntry: Sendable, Hashable {
    /// A fix as the source delivered it, accepted or not (the `raw_fix` table).
    case received(Fix)
    /// A location update: a point of the track, with the manager's smoothed speed, m/s.
    case point(Fix, speedMetersPerSecond: Double)
    /// The next point starts a new segment; `reason` says why (`fix-lost`, `source-lost`).
    case segmentBreak(reason: String)
    /// The source went away: the next received fix is the first after a gap.
    case sourceGap
    /// Something worth keeping happened: `signal-weak`, `stationary`, `source-lost`, …
    case event(kind: String, detail: String?)
    /// The manager's total distance so far, metres.
    case distance(Double)
}

/// Turns entries into rows: numbers segments, marks gaps, dates events. A value, tested
/// without a database.
struct RecordingSession: Sendable {
    let trackID: Int64
    private(set) var pending = PendingWrites()
    private(set) var segmentNumber = 0
    private(set) var pointsRecorded = 0
    private(set) var fixesReceived = 0
    private var breakReason: String? = "start"
    private var afterGap = false
    /// The time of the newest received fix, for dating events.
    private var lastTimeMicroseconds: Int64?

    init(trackID: Int64) {
        self.trackID = trackID
    }

    mutating func append(_ entry: RecordingEntry) {
        switch entry {
        case .received(let fix):
            if let t = fix.time?.microsecondsSinceEpoch { lastTimeMicroseconds = t }
            fixesReceived += 1
            pending.rawFixes.append(RawFixRecord(trackId: trackID, number: fixesReceived, afterGap: afterGap, fix: fix))
            afterGap = false
        case .point(let fix, let speed):
            if let reason = breakReason {
                segmentNumber += 1
                pending.segments.append(SegmentRecord(trackId: trackID, number: segmentNumber, reason: reason))
                breakReason = nil
            }
            pointsRecorded += 1
            pending.points.append(
                PointRecord(trackId: trackID, number: pointsRecorded, segment: segmentNumber, speedMetersPerSecond: speed, fix: fix))
        case .segmentBreak(let reason):
            // The first reason wins: a source loss also makes the signal invalid.
            if segmentNumber > 0 && breakReason == nil { breakReason = reason }
        case .sourceGap:
            afterGap = true
        case .event(let kind, let detail):
            pending.events.append(SignalEventRecord(trackId: trackID, timeUs: lastTimeMicroseconds, kind: kind, detail: detail))
        case .distance(let metres):
            pending.distanceMeters = metres
        }
    }

    /// After a successful commit.
    mutating func committed() {
        pending = PendingWrites()
    }
}
