import Foundation
import GPSCore
import NMEA
import SystemPackage
@testable import GPSSources

#if canImport(Glibc)
import Glibc
#endif

/// A temporary directory that removes itself, for the symbolic links that stand in for
/// udev's /dev/gps0.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("serial-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Makes `name` in the directory a symbolic link to `target`, and returns its path.
    @discardableResult
    func link(_ name: String, to target: String) throws -> String {
        let link = path + "/" + name
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        return link
    }
}

/// The fixes `NMEAParser` makes of `bytes` and its statistics, without finishing: what a live
/// source has delivered once it has read them (the last epoch waits for the next one).
func liveParse(_ bytes: [UInt8], allowMissingChecksum: Bool = false) -> (fixes: [Fix], statistics: NMEAStatistics) {
    var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: true)
    var fixes: [Fix] = []
    bytes.withUnsafeBytes { parser.parse($0) { fixes.append($0) } }
    return (fixes, parser.statistics)
}

/// The first `count` bytes of the hike log, cut at a line end.
func hikePrefix(_ count: Int) throws -> [UInt8] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.hike)))
    let prefix = bytes.prefix(count)
    guard let end = prefix.lastIndex(of: 0x0A) else { return Array(prefix) }
    return Array(bytes[...end])
}

/// What a UART reading at `receiveRate` makes of `bytes` sent at `sendRate`, 8N1, back to
/// back: the bytes a source reads from a receiver at the wrong baud rate.
///
/// The receiver waits for a falling edge (a start bit), samples the eight data bits and the
/// stop bit at their middles at its own rate, and delivers the byte; a byte whose stop bit is
/// low (a framing error) reads as NUL, as a tty in raw mode delivers it. At the same rate the
/// bytes come through unchanged.
func uartReceive(_ bytes: [UInt8], sentAt sendRate: Int, readAt receiveRate: Int) -> [UInt8] {
    let sentBit = 1.0 / Double(sendRate)
    let readBit = 1.0 / Double(receiveRate)
    let end = Double(bytes.count * 10) * sentBit
    /// The line at time `t`: true is mark (idle, 1).
    func level(_ t: Double) -> Bool {
        let bit = Int(t / sentBit)
        let index = bit / 10
        guard t >= 0, index < bytes.count else { return true }
        switch bit % 10 {
        case 0: return false
        case 9: return true
        case let k: return (bytes[index] >> (k - 1)) & 1 == 1
        }
    }
    var out: [UInt8] = []
    var t = 0.0
    while t < end {
        if level(t) {
            // Idle: on to the next bit boundary of the sender, where the line may fall.
            t = (floor(t / sentBit) + 1) * sentBit + sentBit * 1e-6
            continue
        }
        if level(t + readBit / 2) {
            t += readBit / 16  // a glitch shorter than half a bit: not a start bit
            continue
        }
        var value: UInt8 = 0
        for i in 0..<8 where level(t + (Double(i) + 1.5) * readBit) {
            value |= 1 << i
        }
        out.append(level(t + 9.5 * readBit) ? value : 0)
        t += 9.5 * readBit
    }
    return out
}

/// Deterministic pseudo-random bytes (SplitMix64), so that a failure can be reproduced.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}

/// u-blox UBX NAV-PVT-sized frames: what a u-blox receiver set to binary output sends.
func ubxFrames(_ count: Int) -> [UInt8] {
    let payload = pseudoRandomBytes(92, seed: 7)
    let frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00] + payload + [0x12, 0x34]
    return Array((0..<count).map { _ in frame }.joined())
}
