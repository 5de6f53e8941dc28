import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import TrackStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The live view: one page that draws a track as it grows, its files and its event stream,
/// served by Hummingbird.
///
/// - `GET /` the page; `GET /live.js`, `GET /live.css` its script and style.
/// - `GET /events` the track as Server-Sent Events (see ``LiveCursor``): the whole track so
///   far, then what is committed, read from the store every ``pollInterval``.
/// - `GET /tiles/Z/X/Y.png` map tiles, when the server is given a way to find them; the page
///   draws them under the path.
///
/// `HEAD` on each of them answers as `GET` does, without the body.
///
/// ``run()`` listens until a graceful shutdown; ``listening`` opens once it listens (with the
/// page's URL) or fails with a ``LiveViewError``.
///
/// Clients cannot hold the server, or the recorder beside it, for long: ``limits`` caps the
/// connections and the time a request may take to arrive, and the event streams read the
/// store on a queue of their own (``StoreReader``), so that the server's tasks on Swift's
/// cooperative pool only ever await.
public struct LiveViewServer: Service {
    public let store: TrackStore
    public let track: TrackSelector
    public let address: ListenAddress
    public let pollInterval: Duration
    /// The PNG of map tile (zoom, x, y), nil when there is none; nil for no tiles (a grid).
    public let tile: (@Sendable (_ zoom: Int, _ x: Int, _ y: Int) -> [UInt8]?)?
    public let limits: LiveViewLimits
    public let logger: Logger
    public let listening = ListeningGate()

    /// - Parameters:
    ///   - track: the track to show: an id, or `latest` to follow whichever is newest.
    ///   - pollInterval: how often each stream looks for new points; the recorder commits
    ///     once a second.
    ///   - tile: where map tiles to draw under the path come from (a folder of `z/x/y.png`).
    ///   - limits: the most connections at once and the request timeout; see ``LiveViewLimits``.
    public init(
        store: TrackStore, track: TrackSelector, address: ListenAddress, pollInterval: Duration = .milliseconds(500),
        tile: (@Sendable (_ zoom: Int, _ x: Int, _ y: Int) -> [UInt8]?)? = nil, limits: LiveViewLimits = .production,
        logger: Logger
    ) {
        self.store = store
        self.track = track
        self.address = address
        self.pollInterval = pollInterval
        self.tile = tile
        self.limits = limits
        self.logger = logger
    }

    public func run() async throws {
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .warning)
        let address = self.address
        let gate = listening
        let logger = self.logger
        let connections = ConnectionCount(limit: limits.maximumConnections)
        let timeout = TimeAmount(limits.requestTimeout)
        let app = Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                CappedHTTP1Channel(
                    http1: HTTP1Channel(responder: responder, configuration: HTTP1Channel.Configuration(idleTimeout: timeout)),
                    connections: connections)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: "trackd"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                let host = address.host.contains(":") ? "[\(address.host)]" : address.host
                let url = "http://\(host):\(port)/"
                logger.notice("live view on \(url)")
                gate.open(url: url)
            },
            logger: serverLogger)
        do {
            try await app.run()
        } catch {
            let reason = LiveViewServer.listenError(error, address: address)
            gate.fail(reason)
            throw reason
        }
        gate.fail(CancellationError())
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        for (path, file) in Assets.files {
            router.get(RouterPath(path)) { _, _ in
                Response(
                    status: .ok,
                    headers: LiveViewServer.headers(contentType: file.contentType),
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
        let tile = self.tile
        router.get("tiles.json") { _, _ in
            Response(
                status: .ok, headers: LiveViewServer.headers(contentType: "application/json"),
                body: ResponseBody(byteBuffer: ByteBuffer(string: tile == nil ? "{\"tiles\":false}" : "{\"tiles\":true}")))
        }
        router.get("tiles/:z/:x/{y}.png") { _, context in
            // Numbers in the tile grid only: nothing else reaches the tile source.
            guard let tile, let z = context.parameters.get("z", as: Int.self), let x = context.parameters.get("x", as: Int.self),
                let y = context.parameters.get("y", as: Int.self), (0...24).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z,
                let bytes = tile(z, x, y)
            else {
                return Response(status: .notFound, headers: LiveViewServer.headers(contentType: "text/plain"))
            }
            var headers = LiveViewServer.headers(contentType: "image/png")
            headers[.cacheControl] = "max-age=86400"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let feed = LiveFeed(store: store, track: track, clock: ContinuousClock(), pollInterval: pollInterval)
        var eventHeaders = LiveViewServer.headers(contentType: "text/event-stream; charset=utf-8")
        eventHeaders[HTTPField.Name("X-Accel-Buffering")!] = "no"
        let headers = eventHeaders
        // The other routes' HEAD comes from the router (autoGenerateHeadEndpoints), with the
        // GET's Content-Length; a stream has none, and HEAD must not start one.
        router.head("events") { _, _ in
            Response(status: .ok, headers: headers, body: ResponseBody(contentLength: nil) { writer in try await writer.finish(nil) })
        }
        router.get("events") { request, _ in
            let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!]
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    // Ends on a graceful shutdown (the browser reconnects to whoever serves
                    // next) or when the browser goes away (a write fails).
                    do {
                        try await feed.run(lastEventID: lastEventID) { text in
                            try await writer.write(ByteBuffer(string: text))
                        }
                    } catch is CancellationError {}
                    try await writer.finish(nil)
                })
        }
        return router
    }

    static func headers(contentType: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = Assets.contentSecurityPolicy
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return headers
    }

    /// What a failure to listen means to the user.
    static func listenError(_ error: any Error, address: ListenAddress) -> any Error {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return LiveViewError.addressInUse(address)
            case EACCES, EPERM: return LiveViewError.privilegedPort(address)
            case EADDRNOTAVAIL: return LiveViewError.notLocal(address)
            case EAFNOSUPPORT, EPROTONOSUPPORT:
                return LiveViewError.cannotListen(
                    address,
                    reason: "this process may not use the network (a systemd unit such as trackd@.service allows only AF_UNIX); serve the live view with trackd-live.service instead")
            default: return LiveViewError.cannotListen(address, reason: String(cString: strerror(error.errnoCode)))
            }
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return LiveViewError.unknownHost(address)
        }
        return error
    }
}
