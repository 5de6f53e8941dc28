/// Whether each fix's time fits the track's time line: the time decision, as a value.
///
/// Receivers get time wrong in a few known ways: one fix dated far ahead or behind (a corrupted
/// RMC date, a cold start that guesses the year), a date a whole GPS week cycle (1024 weeks)
/// off after a week-number rollover, and a real step of the receiver's clock (a re-sync, two
/// logs spliced). The time line keeps the track going through all of them:
///
/// 1. **Week rollover.** A time that is a whole number of 1024-week cycles away from what the
///    time line (or a synchronised system clock) expects, within the window below, is moved by
///    those cycles and used: ``Outcome/corrected`` counts it.
/// 2. **In line.** A time after the last accepted one and no further ahead of it than
///    ``stepWithoutClockSeconds`` or, when it is more, than the clock moved since, plus
///    ``forwardSlackSeconds``, is accepted. A time up to
///    ``lateRepeatSeconds`` before or equal to the last is a repeat of an earlier epoch
///    (``Outcome/repeated``); it is never a point.
/// 3. **Out of line.** Any other time is held, not used. When a later fix is in line again,
///    the held fixes were outliers: ``Outcome/dropped``. When ``confirmationFixes`` fixes in a
///    row are in line with each other but not with the track, the receiver really moved its
///    clock: the step is accepted (``Outcome/step``, which starts a new segment) and the held
///    fixes are released in order (``Outcome/ready``), so nothing is lost.
/// 4. **System clock.** When the caller passes the time of a system clock that is synchronised
///    (NTP), a first fix more than ``systemClockToleranceSeconds`` away from it is held like an
///    out-of-line fix and needs the same confirmation; later fixes are judged against the
///    track's time, which agreed with the clock or was confirmed against it.
///
/// A time is never trusted because it is late in the sequence: whatever the receiver does, at
/// most ``confirmationFixes`` - 1 fixes pass before the time line follows it.
///
/// Generic over what is held, so that the location manager holds fixes with their arrival
/// times and `trackd convert` holds plain fixes.
public struct FixTimeline<Element>: Sendable where Element: Sendable {
    /// One GPS week-number cycle, seconds: 1024 weeks.
    public static var weekCycleSeconds: Double { 1024 * 7 * 86_400 }
    /// How far, seconds, a fix time may run ahead of the last accepted time plus the clock's
    /// progress since: fix delivery jitters, and receivers buffer a few epochs.
    public static var forwardSlackSeconds: Double { 5 }
    /// Fixes dated up to this many seconds before the last accepted one are late repeats of
    /// earlier epochs (gpsd resends, a receiver's duplicate sentences), not a clock step.
    public static var lateRepeatSeconds: Double { 2 }
    /// The largest step, seconds, taken as the track going on whatever the clock did; a longer
    /// gap than this and than the clock moved needs confirming like any step. The same as the
    /// longest gap a replayed log's clock crosses at once.
    public static var stepWithoutClockSeconds: Double { 60 }
    /// How many fixes in line with each other confirm a clock step.
    public static var confirmationFixes: Int { 3 }
    /// How far, seconds, a fix time may be from a synchronised system clock.
    public static var systemClockToleranceSeconds: Double { 300 }
    /// How many week cycles either way a rollover correction considers.
    static var maximumCycles: Int { 4 }

    /// A step of the receiver's time that was confirmed and taken.
    public struct Step: Sendable, Hashable {
        /// The last accepted time before the step, seconds since 1970; nil when the step was
        /// the first time taken (its fixes disagreed with the system clock).
        public var fromSeconds: Double?
        /// The first time after it, seconds since 1970.
        public var toSeconds: Double

        public init(fromSeconds: Double?, toSeconds: Double) {
            self.fromSeconds = fromSeconds
            self.toSeconds = toSeconds
        }
    }

    /// What to do after one fix.
    public struct Outcome: Sendable {
        /// Fixes held earlier, now known to be outliers: never use them.
        public var dropped: [Element] = []
        /// The fix is a repeat of an epoch already taken (not after the last accepted time).
        public var repeated = false
        /// A confirmed step, to be taken before ``ready``.
        public var step: Step?
        /// The fixes to use now, in order, with their times (corrected when needed).
        public var ready: [(element: Element, seconds: Double)] = []
        /// How many of ``ready`` were moved by whole week cycles.
        public var corrected = 0
    }

    private struct Entry: Sendable {
        var element: Element
        var seconds: Double
        var clock: Double?
        var corrected: Bool
    }

    /// The last accepted fix time, and the clock when it arrived.
    private var anchor: (seconds: Double, clock: Double?)?
    /// Fixes in line with each other but not with ``anchor``.
    private var held: [Entry] = []

    public init() {}

    /// Takes one fix dated `seconds` since 1970, arriving at `clock` (seconds on any clock that
    /// runs with real or log time; nil when there is none) with the synchronised system clock
    /// at `systemTime` (seconds since 1970; nil when not synchronised or not live).
    public mutating func take(
        _ element: Element, seconds rawSeconds: Double, clock: Double?, systemTime: Double? = nil
    ) -> Outcome {
        var outcome = Outcome()
        var seconds = rawSeconds
        var corrected = false
        if let shifted = rolloverCorrection(rawSeconds, clock: clock, systemTime: systemTime) {
            seconds = shifted
            corrected = true
        }
        let entry = Entry(element: element, seconds: seconds, clock: clock, corrected: corrected)

        // Once the track has a time, the system clock only helps correct rollovers: the
        // track's time was either in agreement with it or confirmed against it.
        let inLine: Bool
        if let anchor {
            if seconds <= anchor.seconds, seconds >= anchor.seconds - Self.lateRepeatSeconds {
                outcome.repeated = true
                return outcome
            }
            inLine = Self.follows(seconds, clock: clock, after: anchor)
        } else {
            inLine = systemTime.map { abs(seconds - $0) <= Self.systemClockToleranceSeconds } ?? true
        }
        if inLine {
            outcome.dropped = held.map(\.element)
            held = []
            accept(entry, into: &outcome)
            return outcome
        }
        // Out of line: hold it, with the fixes it is in line with.
        if let last = held.last, Self.follows(seconds, clock: clock, after: (last.seconds, last.clock)) {
            held.append(entry)
        } else {
            outcome.dropped = held.map(\.element)
            held = [entry]
        }
        if held.count >= Self.confirmationFixes {
            outcome.step = Step(fromSeconds: anchor?.seconds, toSeconds: held[0].seconds)
            let confirmed = held
            held = []
            for entry in confirmed { accept(entry, into: &outcome) }
        }
        return outcome
    }

    /// The input ended: fixes still held are taken as a step (nothing is lost at the end of a
    /// log whose last fixes came after a gap), and the time line starts afresh.
    public mutating func finish() -> Outcome {
        var outcome = Outcome()
        guard let first = held.first else { return outcome }
        outcome.step = Step(fromSeconds: anchor?.seconds, toSeconds: first.seconds)
        let rest = held
        held = []
        for entry in rest { accept(entry, into: &outcome) }
        return outcome
    }

    private mutating func accept(_ entry: Entry, into outcome: inout Outcome) {
        anchor = (entry.seconds, entry.clock)
        outcome.ready.append((entry.element, entry.seconds))
        if entry.corrected { outcome.corrected += 1 }
    }

    /// Whether a time `seconds` arriving at `clock` goes on from `previous`: later, and no
    /// further ahead than ``stepWithoutClockSeconds`` or, when longer, than the clock moved
    /// (a receiver that was out of reach for an hour), plus the slack. Steps up to a minute
    /// pass whatever the clock did, so that a receiver read faster than real time (a burst
    /// after a stall, a log fed into a tty) goes on.
    private static func follows(_ seconds: Double, clock: Double?, after previous: (seconds: Double, clock: Double?)) -> Bool {
        guard seconds > previous.seconds else { return false }
        return seconds - previous.seconds <= allowedStep(clock: clock, since: previous.clock) + forwardSlackSeconds
    }

    /// The step of fix times taken as going on: ``stepWithoutClockSeconds``, or how far the
    /// clock moved from `then` to `clock` when that is longer.
    private static func allowedStep(clock: Double?, since then: Double?) -> Double {
        guard let clock, let then else { return stepWithoutClockSeconds }
        return max(stepWithoutClockSeconds, clock - then)
    }

    /// The time moved by whole week cycles when that puts it where the system clock or the
    /// time line expects it and it is not there already; nil otherwise.
    private func rolloverCorrection(_ seconds: Double, clock: Double?, systemTime: Double?) -> Double? {
        let expected: (time: Double, window: Double)
        if let systemTime {
            expected = (systemTime, Self.systemClockToleranceSeconds)
        } else if let anchor {
            let moved = Self.allowedStep(clock: clock, since: anchor.clock)
            expected = (anchor.seconds + moved / 2, moved / 2 + Self.forwardSlackSeconds + Self.lateRepeatSeconds)
        } else {
            return nil
        }
        let offset = seconds - expected.time
        guard abs(offset) > expected.window else { return nil }
        let cycles = (offset / Self.weekCycleSeconds).rounded()
        guard cycles != 0, abs(cycles) <= Double(Self.maximumCycles) else { return nil }
        let shifted = seconds - cycles * Self.weekCycleSeconds
        return abs(shifted - expected.time) <= expected.window ? shifted : nil
    }
}
