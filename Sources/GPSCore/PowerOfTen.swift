/// 10^n for n in 0...18, exactly: the scale of an NMEA field's decimals and of GPX's.
///
/// A switch rather than a table, so the hot paths that call it read no lazily initialised
/// global. Traps for n outside 0...18 (10^19 does not fit an `Int64`): callers bound n.
@inline(__always)
package func decimalPowerOfTen(_ n: Int) -> Int64 {
    switch n {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    default: preconditionFailure("10^\(n) does not fit an Int64")
    }
}
