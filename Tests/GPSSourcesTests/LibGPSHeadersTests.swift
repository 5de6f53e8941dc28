import Foundation
import Testing

/// The libgps shim against the gps.h of both Debian releases trackd runs on: this machine's
/// (Debian 12, gpsd 3.22) and Debian 13 trixie's (gpsd 3.25), whose libgps-dev
/// scripts/check-libgps-headers fetches once into ~/.cache/trackd. Without network on the
/// first run the script fails, and so does this test, saying so.
@Suite("libgps headers")
struct LibGPSHeadersTests {
    /// Runs `scripts/check-libgps-headers`, returning its exit status and its output and errors together.
    static func check() throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Fixtures.packageRoot.appendingPathComponent("scripts/check-libgps-headers")
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("the shim compiles against Debian 12's gps.h (gpsd 3.22) and Debian 13's (gpsd 3.25, STATUS_DGPS)")
    func bothReleases() throws {
        let (status, output) = try Self.check()
        #expect(status == 0, "scripts/check-libgps-headers failed:\n\(output)")
        let lines = output.split(separator: "\n")
        let system = lines.first { $0.hasPrefix("ok: ") && $0.contains("(/usr/include): libgps-dev 3.") }
        let trixie = lines.first { $0.hasPrefix("ok: ") && $0.contains("Debian 13 trixie") }
        #expect(system != nil, "no line says the shim compiles against /usr/include:\n\(output)")
        #expect(trixie?.contains("libgps-dev 3.25") == true, "no line says it compiles against trixie's libgps-dev 3.25:\n\(output)")
        #expect(trixie?.contains("gpsd API 14.0") == true, "trixie's gps.h is not API 14.0:\n\(output)")
    }
}
