import GPSSources
import Location
import TrackStore

/// What the recorder keeps of the location manager's and the source's events.
enum RecordingEntries {
    /// Entries for a location event: points, distance, signal and motion events; a signal
    /// that becomes invalid (fix lost) ends the segment. Rejections are not entries: every
    /// fix is kept as received.
    static func entries(for event: LocationEvent) -> [RecordingEntry] {
        switch event {
        case .locationUpdated(let location):
            var fix = location.fix
            fix.courseDegrees = location.courseDegrees ?? fix.courseDegrees
            return [.point(fix, speedMetersPerSecond: location.speedMetersPerSecond)]
        case .signalStrengthChanged(let strength):
            let event = RecordingEntry.event(kind: "signal-\(strength.rawValue)", detail: nil)
            return strength == .invalid ? [event, .segmentBreak(reason: "fix-lost")] : [event]
        case .signalConsistentlyWeak:
            return [.event(kind: "signal-consistently-weak", detail: nil)]
        case .distanceUpdated(let total):
            return [.distance(total)]
        case .stationary:
            return [.event(kind: "stationary", detail: nil)]
        case .movingAgain:
            return [.event(kind: "moving", detail: nil)]
        case .rejected:
            return []
        }
    }

    /// Entries for a source event other than a fix.
    static func entries(for event: SourceEvent) -> [RecordingEntry] {
        switch event {
        case .connected(let what): [.event(kind: "source-connected", detail: what)]
        case .lost(let why): [.event(kind: "source-lost", detail: why), .segmentBreak(reason: "source-lost"), .sourceGap]
        case .resumed(let what): [.event(kind: "source-resumed", detail: what)]
        case .fix(let fix): [.received(fix)]
        }
    }
}
