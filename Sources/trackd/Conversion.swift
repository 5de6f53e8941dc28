import GPSCore
import GPX
import Location
import NMEA

/// Fixes in, a GPX track out: the core of `trackd convert`, without file handling.
///
/// Every fix with a position becomes a point, but for the receiver's bad times: a fix whose
/// date is out of line with the track is held by the same ``FixTimeline`` as the location
/// manager's (with no clock: steps up to 60 s go on), dropped when the next fixes go on from the
/// track, and written when they confirm a step of the receiver's clock (a step back starts a
/// new segment); a date 1024 weeks off is corrected. A fix without a position ends the segment,
/// and so does the start of each new input. The writer is created at the first point, so the
/// GPX metadata carries the time of the first fix.
struct Conversion {
    typealias Sink = (UnsafeRawBufferPointer) throws(CLIError) -> Void

    private let trackName: String?
    /// Whether the output can be rewritten in place, so `<bounds>` can be filled in at the end.
    private let seekable: Bool
    private let sink: Sink
    private var writer: GPXWriter?
    private var segmentEnded = false
    private var timeline = FixTimeline<Fix>()
    private(set) var summary = ConversionSummary()

    init(trackName: String?, seekable: Bool, sink: @escaping Sink) {
        self.trackName = trackName
        self.seekable = seekable
        self.sink = sink
    }

    /// Starts a new input: its first point opens a new segment.
    mutating func beginInput() throws(CLIError) {
        // Each input is a time line of its own: what the last one still held is written.
        try take(timeline.finish())
        timeline = FixTimeline()
        segmentEnded = true
    }

    /// Counts what the parser of one input saw.
    mutating func add(_ statistics: NMEAStatistics) {
        summary.add(statistics)
    }

    /// Closes the document. Returns the `<bounds>` element and where to write it over the
    /// room reserved for it, when the output is seekable and the track has points.
    mutating func finish() throws(CLIError) -> (offset: Int, bytes: [UInt8])? {
        // Fixes held for their time at the end of the input: nothing came to contradict them.
        try take(timeline.finish())
        if writer == nil { try makeWriter(firstFix: nil) }
        try run { w throws(any Error) in try w.finish() }
        summary.segments = writer?.segmentsWritten ?? 0
        guard let slot = writer?.boundsSlot, let bounds = writer?.pointBounds else { return nil }
        return (slot.offset, GPXWriter.boundsElement(bounds))
    }

    mutating func take(_ fix: Fix) throws(CLIError) {
        guard fix.hasPosition else {
            segmentEnded = true
            return
        }
        guard let seconds = fix.time?.secondsSinceEpoch else {
            try write(fix)
            return
        }
        let outcome = timeline.take(fix, seconds: seconds, clock: nil)
        if outcome.repeated {
            try write(fix)
            return
        }
        try take(outcome)
    }

    /// Writes what the time line decided.
    private mutating func take(_ outcome: FixTimeline<Fix>.Outcome) throws(CLIError) {
        summary.timeOutliers += outcome.dropped.count
        summary.timeCorrections += outcome.corrected
        if let step = outcome.step {
            summary.timeSteps += 1
            // Back in time, a new segment; forward, a gap the writer bridges as before.
            if let from = step.fromSeconds, step.toSeconds < from { segmentEnded = true }
        }
        for (fix, corrected) in outcome.ready {
            var fix = fix
            if fix.time?.secondsSinceEpoch != corrected {
                fix.time = FixTime(secondsSinceEpoch: corrected)
            }
            try write(fix)
        }
    }

    private mutating func write(_ fix: Fix) throws(CLIError) {
        if writer == nil { try makeWriter(firstFix: fix) }
        if segmentEnded {
            try run { w throws(any Error) in try w.beginSegment() }
            segmentEnded = false
        }
        try run { w throws(any Error) in try w.append(fix) }
        summary.points += 1
        summary.extendSpan(fix.time)
    }

    private mutating func makeWriter(firstFix: Fix?) throws(CLIError) {
        let sink = self.sink
        let time = firstFix?.time.flatMap { $0.date == nil ? nil : $0 }
        writer = GPXWriter(metadata: GPXMetadata(name: trackName, time: time, reservesBounds: seekable), trackName: trackName) { bytes in
            try sink(bytes)
        }
    }

    /// Runs a writer operation, passing sink errors through as they are.
    private mutating func run(_ body: (inout GPXWriter) throws(any Error) -> Void) throws(CLIError) {
        guard var w = writer else { return }
        writer = nil  // keep the writer's buffer uniquely referenced while it works
        defer { writer = w }
        do {
            try body(&w)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .writeFailed(path: "the GPX output", reason: "\(error)")
        }
    }
}

/// What a conversion read and wrote.
struct ConversionSummary {
    var sentences = 0
    var skipped = 0
    var rejected: [RejectionReason: Int] = [:]
    var fixes = 0
    var points = 0
    var segments = 0
    var first: FixTime?
    var last: FixTime?
    /// Fixes dropped because their time was out of line with the track.
    var timeOutliers = 0
    /// Confirmed steps of the fix times: a gap of over a minute, or the receiver's clock moved.
    var timeSteps = 0
    /// Fix times moved by a whole GPS week cycle.
    var timeCorrections = 0

    mutating func add(_ s: NMEAStatistics) {
        sentences += s.sentences
        skipped += s.skipped
        fixes += s.fixes
        for (reason, n) in s.rejected { rejected[reason, default: 0] += n }
    }

    /// Widens the span to `time`: the earliest and the latest dated point, so that a track
    /// whose times step back (a receiver's clock re-sync) never shows a negative span.
    mutating func extendSpan(_ time: FixTime?) {
        guard let time, let t = time.microsecondsSinceEpoch else { return }
        if first.flatMap(\.microsecondsSinceEpoch).map({ t < $0 }) ?? true { first = time }
        if last.flatMap(\.microsecondsSinceEpoch).map({ t > $0 }) ?? true { last = time }
    }

    var rejectedTotal: Int { rejected.values.reduce(0, +) }

    /// `576000 sentences, 3 rejected (2 bad-checksum, 1 garbled), 72000 fixes, 71400 points in 3 segments, 2024-06-01T14:00:00Z to ... (2h00m00s)`
    var line: String {
        var s = "\(sentences) sentences, \(rejectedTotal) rejected"
        if rejectedTotal > 0 {
            s += " (" + rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ") + ")"
        }
        s += ", \(fixes) fixes, \(points) point\(points == 1 ? "" : "s") in \(segments) segment\(segments == 1 ? "" : "s")"
        if timeOutliers > 0 { s += ", \(timeOutliers) dropped for a bad time" }
        if timeSteps > 0 { s += ", \(timeSteps) jump\(timeSteps == 1 ? "" : "s") in time" }
        if timeCorrections > 0 { s += ", \(timeCorrections) dated 1024 weeks off and corrected" }
        if let first, let last {
            s += ", \(first) to \(last)"
            if let a = first.microsecondsSinceEpoch, let b = last.microsecondsSinceEpoch {
                s += " (" + duration(seconds: (b - a) / 1_000_000) + ")"
            }
        }
        return s
    }

    var json: String {
        var reasons: [String] = []
        for reason in RejectionReason.allCases {
            reasons.append("\"\(reason.rawValue)\":\(rejected[reason] ?? 0)")
        }
        var fields = [
            "\"sentences\":\(sentences)",
            "\"rejected\":{" + reasons.joined(separator: ",") + "}",
            "\"rejected_total\":\(rejectedTotal)",
            "\"skipped\":\(skipped)",
            "\"fixes\":\(fixes)",
            "\"points\":\(points)",
            "\"segments\":\(segments)",
            "\"time_outliers\":\(timeOutliers)",
            "\"time_steps\":\(timeSteps)",
            "\"time_corrections\":\(timeCorrections)",
        ]
        fields.append("\"start\":" + (first.map { "\"\($0)\"" } ?? "null"))
        fields.append("\"end\":" + (last.map { "\"\($0)\"" } ?? "null"))
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// `2h03m07s`, `4m05s`, `12s`.
func duration(seconds total: Int64) -> String {
    let h = total / 3600, m = total / 60 % 60, s = total % 60
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    if h > 0 { return "\(h)h\(two(m))m\(two(s))s" }
    if m > 0 { return "\(m)m\(two(s))s" }
    return "\(s)s"
}
