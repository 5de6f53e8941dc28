import GPSCore

/// One track as `trackd tracks` lists it.
public struct TrackSummary: Sendable, Hashable {
    public var id: Int64
    public var name: String?
    public var state: TrackState
    /// Fix time of the first point, UTC; `nil` while the track has no point.
    public var start: FixTime?
    /// Fix time of the last point, UTC.
    public var end: FixTime?
    /// The location manager's total distance, metres (noise does not add to it).
    public var distanceMeters: Double
    public var points: Int
    public var segments: Int
    /// Every fix received, accepted or not.
    public var rawFixes: Int
    public var settings: TrackSettings
    /// Wall-clock time the recording started, microseconds since 1970.
    public var createdAtMicroseconds: Int64

    /// Seconds from the first to the last point; 0 without points.
    public var durationSeconds: Double {
        guard let a = start?.microsecondsSinceEpoch, let b = end?.microsecondsSinceEpoch else { return 0 }
        return Double(b - a) / 1e6
    }
}

/// Which track a command means: `latest` or an id.
public enum TrackSelector: Sendable, Hashable, CustomStringConvertible {
    case latest
    case id(Int64)

    /// `latest` or a positive integer; nil otherwise.
    public init?(_ text: String) {
        if text == "latest" {
            self = .latest
        } else if let id = Int64(text), id > 0 {
            self = .id(id)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .latest: "latest"
        case .id(let id): String(id)
        }
    }
}
