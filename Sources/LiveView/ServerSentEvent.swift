/// One Server-Sent Event as the `text/event-stream` format frames it
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html).
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`addEventListener(name)` in the page); nil for `message`.
    public var event: String?
    /// The id a reconnecting browser sends back as `Last-Event-ID`.
    public var id: String?
    /// The payload; each line becomes a `data:` field.
    public var data: String

    public init(event: String? = nil, id: String? = nil, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }

    /// The event's text, ending with the blank line that dispatches it. Line breaks inside
    /// `event` or `id` would end the field early; they are dropped.
    public var text: String {
        var text = ""
        if let event { text += "event: " + ServerSentEvent.oneLine(event) + "\n" }
        if let id { text += "id: " + ServerSentEvent.oneLine(id) + "\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            text += "data: " + line + "\n"
        }
        return text + "\n"
    }

    /// A comment line: ignored by the browser, it keeps proxies and NAT from closing a quiet
    /// connection and tells the server that the client went away.
    public static func comment(_ text: String) -> String { ": " + oneLine(text) + "\n\n" }

    /// How long a browser waits before reconnecting, in milliseconds.
    public static func retry(milliseconds: Int) -> String { "retry: \(max(0, milliseconds))\n\n" }

    private static func oneLine(_ text: String) -> String {
        String(text.filter { !$0.isNewline })
    }
}
