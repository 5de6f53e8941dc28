import GPSCore
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
        case .timeStepped(let from, let to):
            return [.event(kind: "time-step", detail: TimeStepText.detail(from: from, to: to)), .segmentBreak(reason: "time-step")]
        case .rejected, .timeCorrected:
            return []
        }
    }

    /// Entries for a source event other than a fix, and the fix as received.
    static func entries(for event: SourceEvent) -> [RecordingEntry] {
        switch event {
        case .connected(let what): [.event(kind: "source-connected", detail: what)]
        case .lost(let why): [.event(kind: "source-lost", detail: why), .segmentBreak(reason: "source-lost"), .sourceGap]
        case .resumed(let what): [.event(kind: "source-resumed", detail: what)]
        case .trouble(let what): [.event(kind: "source-trouble", detail: what)]
        case .fix(let fix): [.received(fix)]
        }
    }
}

/// How trackd words the receiver's time problems, in the log and in the store's events.
enum TimeStepText {
    /// `2024-06-01T08:00:00Z`, from seconds since 1970.
    static func time(_ seconds: Double) -> String {
        FixTime(secondsSinceEpoch: seconds).description
    }

    /// A signed span in words: `1 s`, `3h20m00s`, `365 days`.
    static func span(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        if magnitude >= 2 * 86_400 { return "\(Int64(magnitude / 86_400)) days" }
        if magnitude < 1 { return DecimalText.fixed(magnitude, digits: 1) + " s" }
        let whole = Int64(magnitude.rounded())
        return whole < 60 ? "\(whole) s" : duration(seconds: whole)
    }

    /// `from 2024-06-01T08:00:00Z to 2024-06-01T07:58:20Z (1m40s back)`.
    static func detail(from: Double?, to: Double) -> String {
        guard let from else { return "to \(time(to))" }
        return "from \(time(from)) to \(time(to)) (\(span(to - from)) \(to >= from ? "ahead" : "back"))"
    }

    /// The log line for a fix dropped for its time.
    static func outlier(_ fix: Fix, lastSeconds: Double?) -> String {
        let when = fix.time.map(String.init(describing:)) ?? "an unknown time"
        guard let seconds = fix.time?.secondsSinceEpoch, let last = lastSeconds else {
            return "dropped a fix dated \(when): its time was out of line with the track and the next fixes were not"
        }
        let offset = seconds - last
        return "dropped a fix dated \(when), \(span(offset)) \(offset >= 0 ? "ahead of" : "behind") the track: "
            + "the receiver's time was wrong for that fix (the fixes after it went on from the track's time)"
    }
}
