import GPSSources
import Testing

@Suite("Replay speed")
struct ReplaySpeedTests {
    @Test("numbers and max parse", arguments: [
        ("1", ReplaySpeed.times(1)), ("20", .times(20)), ("0.5", .times(0.5)), ("max", .max),
    ])
    func parses(_ text: String, _ speed: ReplaySpeed) throws {
        #expect(try ReplaySpeed.parse(text) == speed)
    }

    @Test("zero, negative, infinite and non-numbers are refused with a message that quotes them",
          arguments: ["0", "-2", "inf", "nan", "fast", "", "MAX"])
    func refuses(_ text: String) {
        #expect(throws: SourceError.badSpeed(text)) { try ReplaySpeed.parse(text) }
        #expect(SourceError.badSpeed(text).description
            == "Please give --speed as a positive number (1 for real time, 10 for ten times faster) or 'max', not '\(text)'.")
    }
}
