import Foundation
import Testing
import GPSCore

@Suite("JSON text")
struct JSONTextTests {
    @Test(
        "quotes, backslashes, control characters and line separators are escaped",
        arguments: [
            ("say \"hi\"", #""say \"hi\"""#),
            (#"C:\tracks"#, #""C:\\tracks""#),
            ("a\nb\rc\td", #""a\nb\rc\td""#),
            ("\u{01}", #""\u0001""#),
            ("\u{1F}", #""\u001f""#),
            ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#),
            ("Zürich ⛰", "\"Zürich ⛰\""),
        ])
    func escaping(text: String, json: String) {
        #expect(JSONText.string(text) == json)
    }

    @Test("an escaped string reads back as the same text")
    func roundTrip() throws {
        let text = "q\"b\\n\n\u{0}\u{1}\u{7F}\u{2028}é🚶"
        let decoded = try JSONDecoder().decode([String].self, from: Data(("[" + JSONText.string(text) + "]").utf8))
        #expect(decoded == [text])
    }

    @Test("a missing string is null")
    func nilString() {
        #expect(JSONText.string(nil as String?) == "null")
        #expect(JSONText.string("x" as String?) == "\"x\"")
    }

    @Test(
        "numbers are plain decimals with at most the digits asked for",
        arguments: [
            (47.123456789, 7, "47.1234568"),
            (2.5, 2, "2.5"),
            (2.0, 1, "2"),
            (-8.25, 1, "-8.3"),
            (1234.0, 0, "1234"),
        ])
    func numbers(value: Double, digits: Int, text: String) {
        #expect(JSONText.number(value, digits: digits) == text)
    }

    @Test("a missing, infinite or NaN number is null", arguments: [nil, Double.nan, Double.infinity, -Double.infinity])
    func nullNumbers(value: Double?) {
        #expect(JSONText.number(value, digits: 2) == "null")
    }

    @Test("an object keeps its members in the order given")
    func object() {
        #expect(JSONText.object(["b": "1", "a": "\"x\""]) == #"{"b":1,"a":"x"}"#)
    }
}
