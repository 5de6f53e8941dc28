import ArgumentParser
import LiveView
import Logging
import ServiceLifecycle
import TrackStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the live view of a track from the store: one that a recorder is writing, or a finished one.",
        discussion: """
            The page draws the track and, while a recorder writes it (`trackd record` in another \
            process, or the systemd service), adds each point as it is committed, with the \
            current position and its accuracy circle, the signal, distance, speed and elapsed \
            time. With 'latest' (the default) the page moves on to each new track. Everything \
            the page needs is served by trackd; nothing is fetched from the internet. \
            SIGINT or SIGTERM stops serving.
            """
    )

    @Argument(help: ArgumentHelp("The track: its id (see `trackd tracks`), or 'latest' to follow the newest.", valueName: "id|latest"))
    var track: String = "latest"

    @Option(
        help: ArgumentHelp(
            "Where to listen: HOST:PORT, or a port on 127.0.0.1.",
            discussion: "127.0.0.1 is this machine only; 0.0.0.0:8080 serves every network, such as a phone on the Pi's Wi-Fi.",
            valueName: "host:port"))
    var bind: String = ListenAddress.default.description

    @Option(
        help: ArgumentHelp(
            "A folder of DIR/z/x/y.png map tiles to draw under the path (such as the cache `trackd render --tiles URL` fills).",
            discussion: "Without it the page draws a grid. The tiles are served by trackd, so they work offline.",
            valueName: "dir"))
    var tiles: String?

    @OptionGroup var storeLocation: StoreLocation

    func validate() throws {
        guard TrackSelector(track) != nil else {
            throw ValidationError("Please give the track as a number from `trackd tracks` or 'latest', not '\(track)'.")
        }
        do { _ = try ListenAddress(parsing: bind) } catch { throw ValidationError("--bind: \(error)") }
        if let tiles {
            guard isDirectory(tiles) else {
                throw ValidationError("--tiles \(tiles) is not a folder; give a folder of z/x/y.png tiles, such as ~/.cache/trackd/tiles/SERVER.")
            }
        }
    }

    func run() async throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let selector = TrackSelector(track) ?? .latest
        let address = try ListenAddress(parsing: bind)
        let store = try TrackStore.open(at: storeLocation.resolved.path, access: .read)
        store.reportReadingNote()
        if case .id = selector { _ = try store.track(selector) }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "trackd")
        let tile = try tiles.map { path in
            guard let folder = TileFolder(path) else {
                throw ValidationError("--tiles \(path) is not a folder; give a folder of z/x/y.png tiles, such as ~/.cache/trackd/tiles/SERVER.")
            }
            return { @Sendable (zoom: Int, x: Int, y: Int) in folder.tile(zoom: zoom, x: x, y: y) }
        }
        let server = LiveViewServer(
            store: store, track: selector, address: address, tile: tile, limits: try LiveViewEnvironment.limitsWithinDescriptors(logger: logger), logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
