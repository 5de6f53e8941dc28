// libFuzzer entry point for the NMEA framer, decoders and epoch assembler.
//
// Built with `-sanitize=fuzzer -DFUZZING` (see Fuzz/README.md), the top-level code hands
// control to libFuzzer, which calls `LLVMFuzzerTestOneInput` with each input. libFuzzer's own
// `main` cannot be used: SwiftPM links an executable with `main` bound to the module's entry
// point (`--defsym main=NMEAFuzz_main`), so the Swift entry point always runs first.
// Built plainly (`swift build`), the same check runs on every file named on the command
// line, to replay a crash input in the debugger or in a build without the sanitizers.

import GPSCore
import NMEA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one input through `NMEAParser` twice, whole and cut in two at a point the first
/// byte chooses, and traps when a fix breaks a range invariant or the cut changes anything.
///
/// The first byte's low bit also chooses `allowMissingChecksum`, and its next bit turns off
/// satellite detail (the lean mode `trackd convert` uses), so every mode is fuzzed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    let first = input.first ?? 0
    let allowMissingChecksum = first & 1 == 1
    let satellites = first & 2 == 0
    // Anywhere from 0 to count, spread over the whole input whatever its length.
    let cut = count * Int(first) / 255

    let whole = run([input], allowMissingChecksum: allowMissingChecksum, satellites: satellites)
    let split = run([UnsafeRawBufferPointer(rebasing: input[..<cut]), UnsafeRawBufferPointer(rebasing: input[cut...])],
                    allowMissingChecksum: allowMissingChecksum, satellites: satellites)
    precondition(whole.fixes == split.fixes, "cutting the input at \(cut) changed the fixes")
    precondition(whole.statistics == split.statistics, "cutting the input at \(cut) changed the statistics")
    return 0
}

private func run(_ chunks: [UnsafeRawBufferPointer], allowMissingChecksum: Bool, satellites: Bool)
    -> (fixes: [Fix], statistics: NMEAStatistics)
{
    var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum, satellites: satellites)
    var fixes: [Fix] = []
    var rejections = 0
    for chunk in chunks {
        parser.parse(chunk, onReject: { _ in rejections += 1 }) { fixes.append($0) }
    }
    parser.finish(onReject: { _ in rejections += 1 }) { fixes.append($0) }
    for fix in fixes { checkInvariants(fix) }
    let s = parser.statistics
    precondition(s.sentences == s.decoded + s.skipped, "statistics: \(s.sentences) sentences != \(s.decoded) decoded + \(s.skipped) skipped")
    precondition(s.rejectedTotal == rejections, "statistics: \(s.rejectedTotal) rejections counted, \(rejections) reported")
    precondition(s.fixes == fixes.count, "statistics: \(s.fixes) fixes counted, \(fixes.count) emitted")
    return (fixes, s)
}

/// What every fix must satisfy, whatever the input: the fuzzer's oracle.
private func checkInvariants(_ fix: Fix) {
    if let c = fix.coordinate {
        precondition(c.isValid, "coordinate out of range: \(c.latitude), \(c.longitude)")
        precondition(fix.mode != .noFix, "a position with mode none")
        precondition(fix.quality.isValid, "a position with quality invalid")
    } else {
        precondition(fix.mode == .noFix, "mode \(fix.mode) without a position")
    }
    let values = [fix.altitudeMSLMeters, fix.geoidSeparationMeters, fix.speedMetersPerSecond, fix.courseDegrees,
                  fix.magneticVariationDegrees, fix.hdop, fix.vdop, fix.pdop, fix.dgpsAgeSeconds,
                  fix.accuracy?.horizontalMeters, fix.accuracy?.verticalMeters]
    for case let v? in values {
        precondition(v.isFinite, "non-finite value in \(fix)")
    }
    if let s = fix.speedMetersPerSecond { precondition(s >= 0, "negative speed \(s)") }
    if let a = fix.accuracy { precondition(a.horizontalMeters >= 0, "negative accuracy \(a.horizontalMeters)") }
    if let t = fix.time {
        precondition((0..<TimeOfDay.microsecondsPerDay + TimeOfDay.microsecondsPerSecond).contains(t.timeOfDay.microseconds),
                     "time of day out of range: \(t.timeOfDay.microseconds) µs")
        if let d = t.date {
            precondition((1...12).contains(d.month) && (1...31).contains(d.day), "date out of range: \(d)")
        }
    }
    for sat in fix.satellitesInView {
        if let e = sat.elevationDegrees { precondition((0...90).contains(e), "elevation \(e)") }
        if let a = sat.azimuthDegrees { precondition((0..<360).contains(a), "azimuth \(a)") }
        if let s = sat.snr { precondition((0...99).contains(s), "SNR \(s)") }
    }
}

#if FUZZING
/// libFuzzer's driver: parses libFuzzer's options from `argv`, then fuzzes `callback`.
/// Declared here because no C header is imported for it.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
#else
/// Writes a line to standard error.
private func complain(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Runs one file through the same check as a fuzz input.
private func replay(_ path: String) -> Bool {
    guard let file = fopen(path, "rb") else {
        complain("NMEAFuzz: cannot open \(path)")
        return false
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n <= 0 { break }
        bytes += block[..<n]
    }
    let count = bytes.count
    bytes.append(0)  // a valid pointer even for an empty file, as libFuzzer passes
    _ = bytes.withUnsafeBytes { raw in
        raw.baseAddress.map { fuzz($0, count) }
    }
    print("NMEAFuzz: \(path): \(count) bytes, no invariant broken")
    return true
}

// Without libFuzzer: run every file named on the command line through the same check.
let paths = CommandLine.arguments.dropFirst()
if paths.isEmpty {
    complain("usage: NMEAFuzz FILE...  (replays inputs; build with -DFUZZING and -sanitize=fuzzer to fuzz)")
    exit(2)
}
var failed = false
for path in paths where !replay(path) { failed = true }
exit(failed ? 1 : 0)
#endif
