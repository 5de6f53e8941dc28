import Foundation
import GPSSources
import Testing

@Suite("Source errors")
struct SourceErrorTests {
    /// The error that ends iterating a log source, with the events before it.
    func failure(_ path: String) async -> (events: [SourceEvent], error: SourceError?) {
        let (events, error) = await drain(LogFileSource(path: path, speed: .max))
        return (events, error as? SourceError)
    }

    @Test("a missing file cannot be opened, and the message names it and the reason")
    func missingFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).nmea").path
        let (events, error) = await failure(path)
        #expect(events.isEmpty)
        let reason = "No such file or directory (ENOENT)"
        #expect(error == .cannotOpen(path: path, reason: reason))
        #expect(error?.description == "cannot open \(path): \(reason); check the path and its permissions")
    }

    @Test("a directory is refused as a directory")
    func directory() async throws {
        let file = try TemporaryFile("x")
        let dir = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
        let (events, error) = await failure(dir)
        #expect(events.isEmpty)
        #expect(error == .isDirectory(path: dir))
        #expect(error?.description.contains(dir) == true)
    }

    @Test("an empty file is refused as empty")
    func emptyFile() async throws {
        let file = try TemporaryFile("")
        let (events, error) = await failure(file.path)
        #expect(events.isEmpty)
        #expect(error == .emptyInput(path: file.path))
        #expect(error?.description.contains(file.path) == true)
    }

    @Test("text without NMEA yields connected and then fails at the end, with the bytes read")
    func noNMEA() async throws {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog.\n", count: 2000)
        let file = try TemporaryFile(text)
        let (events, error) = await failure(file.path)
        #expect(events == [.connected("log \(file.path)")])
        #expect(error == .noNMEA(path: file.path, bytes: text.utf8.count, rejected: 0))
        #expect(error?.description.contains(file.path) == true)
        #expect(error?.description.contains("\(text.utf8.count) bytes") == true)
    }

    @Test("sentences without checksums are rejected unless allowed, and the message says how to allow them")
    func missingChecksums() async throws {
        let text = "$GPRMC,080000.00,A,4710.0000,N,00800.0000,E,1.9,0.0,140924,,,A\r\n"
            + "$GPRMC,080001.00,A,4710.0005,N,00800.0000,E,1.9,0.0,140924,,,A\r\n"
        let file = try TemporaryFile(text)
        let (_, error) = await failure(file.path)
        #expect(error == .noNMEA(path: file.path, bytes: text.utf8.count, rejected: 2))
        #expect(error?.description.contains("--allow-missing-checksum") == true)

        let allowed = await drain(LogFileSource(path: file.path, speed: .max, allowMissingChecksum: true))
        #expect(allowed.error == nil)
        #expect(allowed.events.fixes.count == 2)
    }

    @Test("standard input is refused: give a file")
    func standardInput() async throws {
        let (events, error) = await failure("-")
        #expect(events.isEmpty)
        #expect(error == .cannotOpen(path: "-", reason: "reading standard input is not supported here; give a file"))
    }

    @Test("a failed iteration then ends")
    func endsAfterError() async throws {
        var iterator = LogFileSource(path: "/nonexistent/log.nmea", speed: .max).makeAsyncIterator()
        await #expect(throws: SourceError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}
