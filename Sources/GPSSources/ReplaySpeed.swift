/// How fast a recorded or simulated source delivers its fixes.
public enum ReplaySpeed: Sendable, Hashable {
    /// `n` seconds of log time per second of wall time; 1 is real time. Always positive and finite.
    case times(Double)
    /// No waiting: every fix as soon as it is read.
    case max

    /// Parses a `--speed` argument: a positive, finite number (`1`, `20`, `0.5`) or `max`.
    ///
    /// - Throws: ``SourceError/badSpeed(_:)`` for anything else (`0`, `-2`, `inf`, `fast`).
    public static func parse(_ text: String) throws(SourceError) -> ReplaySpeed {
        if text == "max" { return .max }
        guard let n = Double(text), n > 0, n.isFinite else { throw .badSpeed(text) }
        return .times(n)
    }
}
