/// Where a track is in its life.
public enum TrackState: String, Sendable, Hashable, CaseIterable {
    /// A recorder is writing it (or was, until a kill or power cut; see ``recovered``).
    case recording
    /// The recorder closed it: at the end of its input, or on SIGINT/SIGTERM.
    case finished
    /// The recorder died while writing it; the next recorder closed it at its last committed point.
    case recovered
}
