/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64), so that a failing property
/// case can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `range`, without the standard library's algorithm (which may change between
    /// releases) standing between a seed and the case it makes.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func int(_ range: Range<Int>) -> Int {
        int(range.lowerBound...(range.upperBound - 1))
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        int(0..<denominator) < numerator
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[int(0..<items.count)]
    }

    mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: next())
    }

    /// Ascending cut offsets in 0...count, from none to many, for feeding a buffer in pieces.
    mutating func cuts(_ count: Int) -> [Int] {
        switch int(0..<4) {
        case 0: return []
        case 1: return [int(0...count)]
        case 2: return count > 1 ? Array(1..<count) : []
        default:
            var cuts: [Int] = []
            var at = 0
            while true {
                at += int(0...40)
                if at >= count { return cuts }
                cuts.append(at)
            }
        }
    }
}
