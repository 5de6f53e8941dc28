import GPSCore
import TrackStore

/// What one browser has been sent, and what to send it next: the policy of a live view's
/// event stream, without I/O.
///
/// The stream opens with a `track` event naming the track. Points follow in `points` events
/// of at most ``batchSize``, each with the id `TRACK:NUMBER` of its last point; a browser
/// that reconnects sends that id back (`Last-Event-ID`) and is sent only what follows. A
/// browser that connects afresh gets the whole track so far. `status` events carry the
/// panel's values whenever they change; a comment goes out after ``heartbeatInterval``
/// without an event. When the track followed is the latest and a newer one starts, a new
/// `track` event tells the page to start again.
public struct LiveCursor: Sendable {
    /// The most points in one event.
    public static let batchSize = 500
    /// The longest quiet time before a comment, seconds: proxies and NAT keep the
    /// connection, and a browser that went away is noticed.
    public static let heartbeatInterval: Double = 15

    /// The track being sent; nil before one exists.
    public private(set) var trackID: Int64?
    /// The number of the last point sent (0 for none).
    public private(set) var lastNumber = 0
    /// The last point sent, for the panel.
    public private(set) var lastPoint: StoredPoint?
    private var lastProgress: TrackProgress?
    private var announcedNoTrack = false
    private var resumeFrom: (track: Int64, number: Int)?
    private var quietSince: Double?

    /// A cursor for a browser that sent `lastEventID` (nil for a fresh page).
    public init(lastEventID: String?) {
        resumeFrom = lastEventID.flatMap(LiveCursor.parseEventID)
    }

    /// `TRACK:NUMBER` → (track, number); nil for anything else.
    public static func parseEventID(_ text: String) -> (track: Int64, number: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let track = Int64(parts[0]), track > 0, let number = Int(parts[1]), number >= 0 else {
            return nil
        }
        return (track, number)
    }

    /// The events for the track now selected (nil: the store has none): a `track` event
    /// when it is not the one being sent, a `notrack` event once while there is none.
    public mutating func select(_ track: TrackSummary?) -> [ServerSentEvent] {
        guard let track else {
            guard trackID == nil, !announcedNoTrack else { return [] }
            announcedNoTrack = true
            return [ServerSentEvent(event: "notrack", data: JSONText.object(["message": JSONText.string("no track has been recorded yet")]))]
        }
        guard track.id != trackID else { return [] }
        trackID = track.id
        lastPoint = nil
        lastProgress = nil
        if let resume = resumeFrom, resume.track == track.id {
            lastNumber = min(resume.number, track.points)
        } else {
            lastNumber = 0
        }
        resumeFrom = nil
        let data = JSONText.object([
            "id": String(track.id),
            "name": JSONText.string(track.name),
            "state": JSONText.string(track.state.rawValue),
            "source": JSONText.string(track.settings.source),
            "start": JSONText.string(track.start?.description),
            "resume_after": String(lastNumber),
        ])
        return [ServerSentEvent(event: "track", id: "\(track.id):\(lastNumber)", data: data)]
    }

    /// The `points` event for points read after ``lastNumber``; nil when there are none
    /// or no track is selected.
    public mutating func take(_ points: [StoredPoint]) -> ServerSentEvent? {
        guard let trackID else { return nil }
        let fresh = points.filter { $0.number > lastNumber }
        guard let last = fresh.last else { return nil }
        lastNumber = last.number
        lastPoint = last
        let rows = fresh.map(LiveCursor.row).joined(separator: ",")
        return ServerSentEvent(
            event: "points", id: "\(trackID):\(last.number)",
            data: "{\"track\":\(trackID),\"points\":[" + rows + "]}")
    }

    /// The `status` event when the progress differs from the last one sent.
    public mutating func take(_ progress: TrackProgress) -> ServerSentEvent? {
        guard progress.trackID == trackID, progress != lastProgress else { return nil }
        lastProgress = progress
        return ServerSentEvent(event: "status", data: progress.json)
    }

    /// A heartbeat comment when nothing was sent for ``heartbeatInterval`` seconds up to
    /// `now` (seconds on any monotonic clock). `sent` says whether this round sent events.
    public mutating func heartbeat(now: Double, sent: Bool) -> String? {
        if sent || quietSince == nil {
            quietSince = now
            return nil
        }
        guard let since = quietSince, now - since >= LiveCursor.heartbeatInterval else { return nil }
        quietSince = now
        return ServerSentEvent.comment("trackd")
    }

    /// `[number, segment, latitude, longitude, accuracy_m, speed_mps, time_ms, elevation_m]`;
    /// a point without a coordinate cannot be stored, so latitude and longitude are numbers.
    static func row(_ point: StoredPoint) -> String {
        let fix = point.fix
        let time = fix.time?.microsecondsSinceEpoch.map { String($0 / 1000) } ?? "null"
        return "[\(point.number),\(point.segment),"
            + JSONText.number(fix.coordinate?.latitude, digits: 7) + ","
            + JSONText.number(fix.coordinate?.longitude, digits: 7) + ","
            + JSONText.number(fix.accuracy?.horizontalMeters, digits: 1) + ","
            + JSONText.number(fix.speedMetersPerSecond, digits: 2) + ","
            + time + ","
            + JSONText.number(fix.altitudeMSLMeters, digits: 1) + "]"
    }
}
