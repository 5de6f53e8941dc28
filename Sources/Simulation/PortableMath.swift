/// The elementary functions the simulator needs, built from `+ - * /` and `squareRoot()` only.
///
/// Those operations are correctly rounded by IEEE 754 on every platform Swift runs on, so
/// these functions return the same bits everywhere, and so does the simulator's output. libm's
/// `sin`, `exp` and `log` differ in the last bit between C libraries (glibc, musl, Apple's),
/// and one such bit can change a printed digit. Accuracy is a few units in the last place,
/// far finer than any number the simulator prints.
enum PortableMath {
    static let pi = 3.141_592_653_589_793
    static let halfPi = 1.570_796_326_794_896_6
    static let ln2 = 0.693_147_180_559_945_3
    /// pi/2 split in two for Cody-Waite argument reduction: `halfPiHigh` has zero low bits,
    /// so `k * halfPiHigh` is exact for the |k| the simulator meets.
    private static let halfPiHigh = 1.570_796_326_734_125_6
    private static let halfPiLow = 6.077_100_506_506_192e-11

    static func radians(_ degrees: Double) -> Double { degrees * (pi / 180) }
    static func degrees(_ radians: Double) -> Double { radians * (180 / pi) }

    /// Sine of `x` radians; |x| up to about 1e6.
    static func sin(_ x: Double) -> Double {
        let (k, r) = reduce(x)
        switch k & 3 {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// Cosine of `x` radians; |x| up to about 1e6.
    static func cos(_ x: Double) -> Double {
        let (k, r) = reduce(x)
        switch k & 3 {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// e^x; 0 below -745, infinity above 709.
    static func exp(_ x: Double) -> Double {
        if x < -745 { return 0 }
        if x > 709 { return .infinity }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        // Taylor series of e^r for |r| <= ln2 / 2: 20 terms are well past double precision.
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term = term * r / Double(n)
            sum += term
        }
        return scale(sum, by: Int(k))
    }

    /// Natural logarithm of `x` > 0.
    static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log of \(x)")
        // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh((m - 1) / (m + 1)).
        var e = Int(x.exponent)
        var m = x.significand
        if m > 1.414_213_562_373_095 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = s
        var n = 3.0
        while n < 60 {
            term *= s2
            sum += term / n
            n += 2
        }
        return 2 * sum + Double(e) * ln2
    }

    /// The angle of (x, y) from the positive x axis, -pi...pi.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 {
            if y > 0 { return halfPi }
            if y < 0 { return -halfPi }
            return 0
        }
        let a = atan(y / x)
        if x > 0 { return a }
        return y >= 0 ? a + pi : a - pi
    }

    /// Arctangent of `x`, -pi/2...pi/2.
    static func atan(_ x: Double) -> Double {
        if x < 0 { return -atan(-x) }
        if x > 1 { return halfPi - atan(1 / x) }
        // Halve the angle twice (atan x = 2 atan(x / (1 + sqrt(1 + x^2)))), leaving |t| <= 0.2.
        var t = x
        for _ in 0..<2 { t = t / (1 + (1 + t * t).squareRoot()) }
        let t2 = t * t
        var term = t
        var sum = t
        var n = 3.0
        var sign = -1.0
        while n < 40 {
            term *= t2
            sum += sign * term / n
            sign = -sign
            n += 2
        }
        return 4 * sum
    }

    /// `x` reduced to r in [-pi/4, pi/4] with x = k pi/2 + r.
    private static func reduce(_ x: Double) -> (Int, Double) {
        let k = (x / halfPi).rounded()
        return (Int(k), (x - k * halfPiHigh) - k * halfPiLow)
    }

    /// sin r for |r| <= pi/4 (Taylor series to r^21).
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = r
        var sum = r
        var n = 1.0
        for _ in 0..<10 {
            term = -term * r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// cos r for |r| <= pi/4 (Taylor series to r^20).
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0
        var sum = 1.0
        var n = 0.0
        for _ in 0..<10 {
            term = -term * r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// `x * 2^k`, exactly.
    private static func scale(_ x: Double, by k: Int) -> Double {
        Double(sign: .plus, exponent: k, significand: x)
    }
}
