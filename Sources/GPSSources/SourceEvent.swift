import GPSCore

/// What a source reports: fixes, and changes of its connection.
///
/// Every ``FixSource`` starts with ``connected(_:)``; recorded and simulated sources then
/// yield only ``fix(_:)`` until they end. ``lost(_:)`` and ``resumed(_:)`` are for live
/// sources (gpsd, a serial receiver) whose peer can go away and come back.
public enum SourceEvent: Sendable, Hashable {
    /// The source was opened; the text says what for people: `log sample-nmea/hike.nmea`,
    /// `simulated hike`.
    case connected(String)
    /// One fix, no-fix epochs included.
    case fix(Fix)
    /// The source went away; the text says why.
    case lost(String)
    /// The source is back after ``lost(_:)``; the text says what was reopened.
    case resumed(String)
    /// Something is wrong but the source goes on (a receiver sending bytes that are not
    /// NMEA); the text says what and what to do. Sent once per spell.
    case trouble(String)
}
