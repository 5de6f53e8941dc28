/// How much the live view lets its clients hold: the most connections at once, and how long
/// a connection may take to send a request.
///
/// A browser's page holds two or three connections (the page, its event stream, tiles); a
/// client that opens connections and sends nothing, or half a request, holds them only until
/// ``requestTimeout``; a connection beyond ``maximumConnections`` is answered `503 Service
/// Unavailable` and closed at once instead of waiting in a queue. Together they bound the
/// descriptors and memory the server can use, so that no number of clients can keep the
/// recorder from opening its receiver again (the systemd units' `LimitNOFILE=512` leaves room
/// for the store, the receiver and the refused connections).
public struct LiveViewLimits: Sendable, Hashable {
    /// The most connections open at once, event streams included; 128 in production (dozens
    /// of pages). From 1 up.
    public var maximumConnections: Int
    /// How long a connection may take to send a complete request head (request line and
    /// headers) after it opens or after its last response ended: both the header timeout and
    /// the keep-alive idle timeout. 10 s in production. An event stream, once its request is
    /// read, is not cut by it.
    public var requestTimeout: Duration

    /// The production limits: 128 connections, 10 s.
    public static let production = LiveViewLimits(maximumConnections: 128, requestTimeout: .seconds(10))

    public init(maximumConnections: Int, requestTimeout: Duration) {
        precondition(maximumConnections >= 1, "the live view needs room for at least one connection")
        precondition(requestTimeout > .zero, "a request timeout must be positive")
        self.maximumConnections = maximumConnections
        self.requestTimeout = requestTimeout
    }
}
