import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Hummingbird's HTTP/1.1 connection, behind a cap on how many are open at once: a
/// connection over ``ConnectionCount/limit`` gets `503 Service Unavailable` and is closed as
/// soon as it is accepted, so that it holds no descriptor for long and the server goes on
/// accepting (Hummingbird's own `MaximumAvailableConnections` stops accepting instead, which
/// leaves new connections waiting in the kernel's queue, unanswered).
struct CappedHTTP1Channel: ServerChildChannel {
    /// An accepted connection: served, or refused (`http` nil).
    struct Connection: ServerChildChannelValue {
        let channel: any Channel
        let http: HTTP1Channel.Value?
    }

    let http1: HTTP1Channel
    let connections: ConnectionCount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Connection> {
        guard connections.admit() else {
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefuseConnection())
                return Connection(channel: channel, http: nil)
            }
        }
        let connections = self.connections
        channel.closeFuture.whenComplete { _ in connections.release() }
        return http1.setup(channel: channel, logger: logger).map { Connection(channel: channel, http: $0) }
    }

    func handle(value: Connection, logger: Logger) async {
        guard let http = value.http else { return }
        await http1.handle(value: http, logger: logger)
    }
}

/// The connections open, against a limit.
final class ConnectionCount: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection if there is room; false (and nothing counted) if not.
    func admit() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// A counted connection closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}

/// Answers `503 Service Unavailable` on a connection over the cap and closes it, without
/// reading what the client sent.
final class RefuseConnection: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    static let response: String = {
        let body = "the live view has as many connections as it serves at once; try again in a moment\n"
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 2\r\nConnection: close\r\n\r\n" + body
    }()

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
        let channel = context.channel
        channel.writeAndFlush(ByteBuffer(string: RefuseConnection.response)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
