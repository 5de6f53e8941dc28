/// How loud chimes are: `--volume 0-100`, a percentage of trackd's loudest chime.
///
/// The sample amplitude is `0.9 × Int16.max × (percent / 100)²`: squaring follows the ear
/// more closely than a straight line (50 is 12 dB below 100, 10 is 40 dB below), and the 0.9
/// leaves headroom for a resampler's overshoot. 0 writes silence. The device's own mixer
/// (`alsamixer`) still applies on top.
public struct ChimeVolume: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Percent, 0...100.
    public let percent: Int

    /// The loudest amplitude as a fraction of Int16 full scale, left for resampler overshoot.
    public static let headroom = 0.9
    /// The volume unless told otherwise: loud enough in a backpack, 5 dB under the top.
    public static let `default` = ChimeVolume(checked: 75)
    /// Silence.
    public static let silent = ChimeVolume(checked: 0)
    /// Full volume.
    public static let full = ChimeVolume(checked: 100)

    /// - Throws: ``ChimeError/volumeOutOfRange(_:)`` unless `percent` is in 0...100.
    public init(percent: Int) throws(ChimeError) {
        guard (0...100).contains(percent) else { throw ChimeError.volumeOutOfRange(String(percent)) }
        self.percent = percent
    }

    /// Parses `--volume`'s text, a whole number from 0 to 100.
    ///
    /// - Throws: ``ChimeError/volumeOutOfRange(_:)`` for anything else.
    public init(parsing text: String) throws(ChimeError) {
        guard let percent = Int(text) else { throw ChimeError.volumeOutOfRange(text) }
        try self.init(percent: percent)
    }

    private init(checked percent: Int) { self.percent = percent }

    /// The factor applied to a full-scale sine, 0...``headroom``.
    public var amplitude: Double {
        let fraction = Double(percent) / 100
        return Self.headroom * fraction * fraction
    }

    public static func < (lhs: ChimeVolume, rhs: ChimeVolume) -> Bool { lhs.percent < rhs.percent }

    public var description: String { "\(percent)" }
}
