import GPSCore

/// A point as stored: its place in the track, its segment and the fix.
public struct StoredPoint: Sendable, Hashable {
    /// The point's place in the track, from 1.
    public var number: Int
    /// The segment it belongs to, from 1.
    public var segment: Int
    /// The fix; its speed is the location manager's smoothed speed.
    public var fix: Fix

    public init(number: Int, segment: Int, fix: Fix) {
        self.number = number
        self.segment = segment
        self.fix = fix
    }
}
