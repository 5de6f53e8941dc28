import GPSCore
import NMEA
import Testing

/// Sends sentences to an ``EpochAssembler`` one at a time, as a receiver does, and keeps
/// which sentence completed each fix.
struct Feed {
    private(set) var assembler = EpochAssembler()
    /// Every fix emitted so far, in order.
    private(set) var fixes: [Fix] = []
    /// For each fix, the number of sentences sent when it was emitted (1 = on the first).
    private(set) var emittedAfter: [Int] = []
    private(set) var sent = 0

    /// Decodes and adds one sentence; returns the fixes it completed.
    @discardableResult
    mutating func send(_ line: String) throws -> [Fix] {
        let decoded = try decode(line)
        sent += 1
        var out: [Fix] = []
        assembler.add(decoded) { out.append($0) }
        fixes += out
        emittedAfter += Array(repeating: sent, count: out.count)
        return out
    }

    /// Sends each line in turn; returns the fixes they completed.
    @discardableResult
    mutating func send(_ lines: [String]) throws -> [Fix] {
        var out: [Fix] = []
        for line in lines { out += try send(line) }
        return out
    }

    /// Ends the stream; returns the last epoch's fix, if any.
    @discardableResult
    mutating func finish() -> [Fix] {
        var out: [Fix] = []
        assembler.finish { out.append($0) }
        fixes += out
        emittedAfter += Array(repeating: sent, count: out.count)
        return out
    }

    /// All fixes of `lines`, the stream ended after them.
    static func fixes(_ lines: [String]) throws -> [Fix] {
        var feed = Feed()
        try feed.send(lines)
        feed.finish()
        return feed.fixes
    }
}

/// `hh:mm:ss` (or `hh:mm:ss.ss`) of an NMEA time field, for expectations.
func tod(_ hhmmss: String) -> TimeOfDay {
    let digits = Array(hhmmss.utf8).map { Int($0) - 48 }
    func pair(_ i: Int) -> Int { digits[i] * 10 + digits[i + 1] }
    var micro = 0
    if digits.count > 7 {
        var scale = 100_000
        for d in digits[7...] { micro += d * scale; scale /= 10 }
    }
    return TimeOfDay(hour: pair(0), minute: pair(2), second: pair(4), microsecond: micro)
}
