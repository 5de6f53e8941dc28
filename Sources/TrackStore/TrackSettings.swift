/// The settings a track was recorded with, kept with it so a track can be compared or
/// re-filtered later. Values are the command-line spellings (`best`, `fitness`).
public struct TrackSettings: Sendable, Hashable {
    public var accuracy: String
    public var activity: String
    /// Metres; `nil` for no distance filter.
    public var distanceFilterMeters: Double?
    /// What the fixes came from, for people: `log hike.nmea`, `simulated hike`, `gpsd localhost:2947`.
    public var source: String

    public init(accuracy: String, activity: String, distanceFilterMeters: Double?, source: String) {
        self.accuracy = accuracy
        self.activity = activity
        self.distanceFilterMeters = distanceFilterMeters
        self.source = source
    }
}
