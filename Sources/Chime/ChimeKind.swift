/// A sound trackd makes, and the notes it is made of.
///
/// Every chime is a run of sine notes played back to back, each with its own 5 ms fade in
/// and out (``ToneSynthesizer/fade``), so there is a short dip, never a click, between notes.
/// The pitches are chosen to be told apart without looking: one short high blip that can
/// repeat all day, rising for good news, falling for bad, low and long for a lost fix, and
/// a C-major arpeggio up and down for the start and end of a recording.
///
/// | Chime | `--chime` | Notes | Length |
/// |---|---|---|---|
/// | ``update`` | `update` | 1320 Hz 80 ms | 80 ms |
/// | ``signalStrong`` | `signal` | 660 Hz 120 ms, 990 Hz 120 ms | 240 ms |
/// | ``signalWeak`` | `signal` | 990 Hz 120 ms, 660 Hz 120 ms | 240 ms |
/// | ``fixLost`` | `fix` | 330 Hz 400 ms | 400 ms |
/// | ``recordingStarted`` | `lifecycle` | 523 Hz, 659 Hz, 784 Hz, 120 ms each | 360 ms |
/// | ``recordingStopped`` | `lifecycle` | 784 Hz, 659 Hz, 523 Hz, 120 ms each | 360 ms |
public enum ChimeKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A location update was published (the Travel History sample's chime).
    case update = "update"
    /// The signal turned strong: a rising fifth.
    case signalStrong = "signal-strong"
    /// The signal turned weak: a falling fifth.
    case signalWeak = "signal-weak"
    /// The fix was lost, or the receiver was unplugged: one low, long tone.
    case fixLost = "fix-lost"
    /// A recording started: C–E–G up.
    case recordingStarted = "recording-started"
    /// A recording stopped: G–E–C down.
    case recordingStopped = "recording-stopped"

    /// The group `--chime` turns this chime on with.
    public var category: ChimeCategory {
        switch self {
        case .update: .update
        case .signalStrong, .signalWeak: .signal
        case .fixLost: .fix
        case .recordingStarted, .recordingStopped: .lifecycle
        }
    }

    /// The notes, in the order they sound (the table above).
    public var notes: [Note] {
        switch self {
        case .update: [Note(hertz: 1320, duration: .milliseconds(80))]
        case .signalStrong: [Note(hertz: 660, duration: .milliseconds(120)), Note(hertz: 990, duration: .milliseconds(120))]
        case .signalWeak: [Note(hertz: 990, duration: .milliseconds(120)), Note(hertz: 660, duration: .milliseconds(120))]
        case .fixLost: [Note(hertz: 330, duration: .milliseconds(400))]
        case .recordingStarted: [523, 659, 784].map { Note(hertz: $0, duration: .milliseconds(120)) }
        case .recordingStopped: [784, 659, 523].map { Note(hertz: $0, duration: .milliseconds(120)) }
        }
    }

    /// How long the chime sounds: the sum of its notes.
    public var duration: Duration {
        notes.reduce(.zero) { $0 + $1.duration }
    }

    public var description: String { rawValue }
}

/// One sine tone of a chime.
public struct Note: Sendable, Hashable {
    /// Pitch in hertz; audible range, well under half of any sample rate trackd uses.
    public var hertz: Double
    /// How long it sounds, fades included.
    public var duration: Duration

    public init(hertz: Double, duration: Duration) {
        self.hertz = hertz
        self.duration = duration
    }
}

/// The groups of chimes `--chime` names: `update`, `signal`, `fix`, `lifecycle`.
public enum ChimeCategory: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``ChimeKind/update``.
    case update
    /// ``ChimeKind/signalStrong`` and ``ChimeKind/signalWeak``.
    case signal
    /// ``ChimeKind/fixLost`` (fix lost, receiver unplugged).
    case fix
    /// ``ChimeKind/recordingStarted`` and ``ChimeKind/recordingStopped``.
    case lifecycle

    /// The chimes of this group.
    public var kinds: [ChimeKind] {
        ChimeKind.allCases.filter { $0.category == self }
    }

    public var description: String { rawValue }
}
