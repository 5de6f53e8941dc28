/// A seeded pseudo-random generator: xoshiro256**, seeded through SplitMix64.
///
/// The same seed gives the same numbers on every platform: the generator is integer
/// arithmetic only, and ``gaussian()`` uses ``PortableMath``. The system generator is never
/// used. Each part of the simulation (route, receiver error, sky, fix losses) draws from a
/// stream of its own, ``stream(_:)``, so that changing one part (the noise, say) leaves the
/// others as they were.
public struct RandomSource: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose state is four SplitMix64 outputs from `seed`.
    public init(seed: UInt64) {
        var sm = seed
        s0 = RandomSource.splitMix(&sm)
        s1 = RandomSource.splitMix(&sm)
        s2 = RandomSource.splitMix(&sm)
        s3 = RandomSource.splitMix(&sm)
    }

    /// An independent generator for one named part of the simulation.
    public static func stream(_ seed: UInt64, _ part: Part) -> RandomSource {
        var sm = seed ^ (part.rawValue &* 0xD1B5_4A32_D192_ED03)
        return RandomSource(seed: splitMix(&sm))
    }

    /// The parts of the simulation that draw random numbers.
    public enum Part: UInt64, Sendable {
        case route = 1
        case receiver = 2
        case sky = 3
        case fixLoss = 4
        case multipath = 5
    }

    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// Uniform in [0, 1), with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Standard normal (mean 0, standard deviation 1), by the Marsaglia polar method.
    public mutating func gaussian() -> Double {
        while true {
            let u = 2 * uniform() - 1
            let v = 2 * uniform() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                return u * (-2 * PortableMath.log(s) / s).squareRoot()
            }
        }
    }

    /// Exponentially distributed with the given mean.
    public mutating func exponential(mean: Double) -> Double {
        -mean * PortableMath.log(1 - uniform())
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        uniform() < p
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

/// A first-order Gauss-Markov process: an error that wanders with standard deviation
/// `sigma` and forgets itself over `correlationSeconds`.
///
/// x(t + dt) = a x(t) + sqrt(1 - a²) sigma w, with a = e^(-dt / correlation time) and w standard
/// normal. This is the usual model of a GNSS position error, which drifts over tens of
/// seconds rather than jumping from one epoch to the next.
struct GaussMarkov: Sendable {
    let sigma: Double
    private let a: Double
    private let b: Double
    private(set) var value: Double

    init(sigma: Double, correlationSeconds: Double, step: Double, random: inout RandomSource) {
        self.sigma = sigma
        a = PortableMath.exp(-step / correlationSeconds)
        b = (1 - a * a).squareRoot() * sigma
        value = sigma * random.gaussian()
    }

    mutating func advance(_ random: inout RandomSource) -> Double {
        value = a * value + b * random.gaussian()
        return value
    }
}
