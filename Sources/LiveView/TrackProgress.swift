import GPSCore
import TrackStore

/// What the page's panel shows of a track: its state, totals, signal, speed and the current
/// position's accuracy, as committed to the store.
public struct TrackProgress: Sendable, Hashable {
    public var trackID: Int64
    public var state: TrackState
    public var points: Int
    public var segments: Int
    /// The location manager's total distance, metres.
    public var distanceMeters: Double
    /// Seconds from the first point to the last, on the receiver's clock.
    public var elapsedSeconds: Double
    /// `strong`, `weak` or `invalid` (no fix); nil before the first signal event.
    public var signal: String?
    /// The smoothed speed of the last point, 0 when the manager found the receiver
    /// stationary, nil when the fix is lost.
    public var speedMetersPerSecond: Double?
    /// The last point's 95 % horizontal radius, metres.
    public var accuracyMeters: Double?
    /// Whether the source is lost (a receiver unplugged, gpsd gone) and not yet back.
    public var sourceLost: Bool

    /// The progress of `track`, whose last point is `lastPoint`, given the latest of its
    /// events of each group (signal, motion, source).
    public init(track: TrackSummary, lastPoint: StoredPoint?, signalEvent: String?, motionEvent: String?, sourceEvent: String?) {
        trackID = track.id
        state = track.state
        points = track.points
        segments = track.segments
        distanceMeters = track.distanceMeters
        elapsedSeconds = track.durationSeconds
        signal = signalEvent.map { String($0.dropFirst("signal-".count)) }
        sourceLost = sourceEvent == "source-lost" && track.state == .recording
        if signal == "invalid" || sourceLost {
            speedMetersPerSecond = nil
        } else if motionEvent == "stationary" {
            speedMetersPerSecond = 0
        } else {
            speedMetersPerSecond = lastPoint?.fix.speedMetersPerSecond
        }
        accuracyMeters = lastPoint?.fix.accuracy?.horizontalMeters
    }

    /// The `status` event's JSON.
    var json: String {
        JSONText.object([
            "track": String(trackID),
            "state": JSONText.string(state.rawValue),
            "points": String(points),
            "segments": String(segments),
            "distance_m": JSONText.number(distanceMeters, digits: 1),
            "elapsed_s": JSONText.number(elapsedSeconds, digits: 0),
            "signal": JSONText.string(signal),
            "speed_mps": JSONText.number(speedMetersPerSecond, digits: 2),
            "accuracy_m": JSONText.number(accuracyMeters, digits: 1),
            "source_lost": sourceLost ? "true" : "false",
        ])
    }
}
