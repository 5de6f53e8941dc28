import LiveView
import Testing

@Suite("Server-sent event")
struct ServerSentEventTests {
    @Test("an event is framed as event, id and data lines, ended by a blank line")
    func framing() {
        let event = ServerSentEvent(event: "points", id: "3:120", data: "{\"track\":3}")
        #expect(event.text == "event: points\nid: 3:120\ndata: {\"track\":3}\n\n")
    }

    @Test("an event without a type or id is data lines only")
    func dataOnly() {
        #expect(ServerSentEvent(data: "hello").text == "data: hello\n\n")
    }

    @Test(
        "each line of the data becomes a data line of its own",
        arguments: [
            ("a\nb", "data: a\ndata: b\n\n"),
            ("a\r\nb\rc", "data: a\ndata: b\ndata: c\n\n"),
            ("a\n", "data: a\ndata: \n\n"),
            ("", "data: \n\n"),
        ])
    func multiLineData(data: String, text: String) {
        #expect(ServerSentEvent(data: data).text == text)
    }

    @Test("line breaks in the type or id are dropped, so they cannot end the field early")
    func newlinesInFields() {
        let event = ServerSentEvent(event: "sta\ntus", id: "3:\r\n7", data: "x")
        #expect(event.text == "event: status\nid: 3:7\ndata: x\n\n")
    }

    @Test("a comment is one line starting with a colon, ended by a blank line")
    func comment() {
        #expect(ServerSentEvent.comment("trackd") == ": trackd\n\n")
        #expect(ServerSentEvent.comment("two\nlines") == ": twolines\n\n")
    }

    @Test("retry gives the reconnection delay in milliseconds, never negative")
    func retry() {
        #expect(ServerSentEvent.retry(milliseconds: 2000) == "retry: 2000\n\n")
        #expect(ServerSentEvent.retry(milliseconds: -5) == "retry: 0\n\n")
    }
}
