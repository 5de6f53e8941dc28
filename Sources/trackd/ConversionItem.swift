import GPSCore

/// What the parsing thread hands the GPX thread, in order.
enum ConversionItem: Sendable {
    case fix(Fix)
    /// The next input begins: its first point opens a new segment.
    case newInput

    /// Fixes per hand-over: large enough that the threads rarely meet at the queue's lock.
    static let batchSize = 512
}
