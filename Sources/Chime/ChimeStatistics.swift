/// What became of the chimes a ``ChimePlayer`` was asked for since it was made.
/// Chimes of a group that is off are not counted.
public struct ChimeStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Played to the end on the device.
    public var played = 0
    /// Not played: the queue was full, the device could not be opened or failed during the
    /// chime, or the player had stopped.
    public var dropped = 0
    /// Update chimes folded into an earlier one (``ChimePolicy/updateInterval``).
    public var coalesced = 0
    /// Waiting in the queue now (not counting the one playing).
    public var queued = 0

    public init(played: Int = 0, dropped: Int = 0, coalesced: Int = 0, queued: Int = 0) {
        self.played = played
        self.dropped = dropped
        self.coalesced = coalesced
        self.queued = queued
    }

    public var description: String {
        "\(played) played, \(dropped) dropped, \(coalesced) coalesced, \(queued) queued"
    }
}
