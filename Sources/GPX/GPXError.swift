/// Why a ``GPXWriter`` refused a call.
///
/// Errors thrown by the writer's sink are not wrapped: they reach the caller as thrown.
public enum GPXError: Error, Hashable, CustomStringConvertible {
    /// An earlier call to the sink threw, so the bytes already handed over are incomplete;
    /// writing more would leave a hole in the document.
    case outputFailedEarlier
    /// `append` or `beginSegment` after `finish()`: the document is already closed.
    case writerFinished

    public var description: String {
        switch self {
        case .outputFailedEarlier:
            "the GPX output failed earlier (disk full? closed pipe?), so the file is incomplete; "
                + "fix the output and export the track again"
        case .writerFinished:
            "the GPX document was already finished; start a new GPXWriter to write more points"
        }
    }
}
