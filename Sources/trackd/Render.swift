import ArgumentParser
import GPSCore
import GPX
import TrackRender
import TrackStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a track as a picture: a map of the path coloured by speed, its profiles and totals.",
        discussion: """
            The map is Web Mercator, north up, fitted to the track with a margin: one line per \
            segment coloured by speed (a legend gives the bins in km/h), green and red pins at the \
            start and end, a scale bar, and a light grid whose squares are the scale bar's length \
            (or, with --tiles, a basemap from a folder of z/x/y.png tiles or a tile server, whose \
            tiles are cached on disk). Under it, the elevation \
            and speed profiles over distance, and the totals: distance (counted in steps of 5 m or \
            more, so noise does not add up; fix losses bridged), moving time (steps at 0.5 m/s or \
            more), elevation gain and loss (smoothed over 200 m, counted past 10 m turns) and \
            maximum speed. The track comes from the store, or from a GPX file. SVG is written \
            directly; PNG through rsvg-convert (Debian's librsvg2-bin).
            """
    )

    @Argument(help: ArgumentHelp("The track: its id (see `trackd tracks`), 'latest', or a GPX file.", valueName: "id|latest|file.gpx"))
    var track: String = "latest"

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The picture to write: a .svg or .png file.", valueName: "file"))
    var output: String

    @Option(help: "The picture's width in pixels.")
    var width: Int = PictureLayout.defaultWidth

    @Option(help: "The picture's height in pixels, map, profiles and totals together.")
    var height: Int = PictureLayout.defaultHeight

    @Option(
        help: ArgumentHelp(
            "Map tiles drawn under the path: a folder of DIR/z/x/y.png tiles (OpenStreetMap's scheme), or a tile server's URL template with {z}, {x} and {y}.",
            discussion: "Tiles from a server are fetched once with curl into the cache (--tile-cache) and read from it afterwards, offline too. Missing tiles stay blank.",
            valueName: "dir|url"))
    var tiles: String?

    @Option(
        help: ArgumentHelp(
            "Where tiles fetched from a server are kept, as DIR/z/x/y.png (a folder --tiles can use offline).",
            discussion: "Default: $XDG_CACHE_HOME/trackd/tiles/SERVER, else ~/.cache/trackd/tiles/SERVER.",
            valueName: "dir"))
    var tileCache: String?

    @OptionGroup var storeLocation: StoreLocation

    /// The output formats, from the output's extension.
    enum Format { case svg, png }

    var format: Format? {
        let lower = output.lowercased()
        if lower.hasSuffix(".svg") { return .svg }
        if lower.hasSuffix(".png") { return .png }
        return nil
    }

    func validate() throws {
        guard format != nil else {
            throw ValidationError("Please give the picture as a .svg or .png file, not '\(output)'.")
        }
        guard width >= PictureLayout.minimumWidth, height >= PictureLayout.minimumHeight, width <= 20_000, height <= 20_000 else {
            throw ValidationError("Please give a size from \(PictureLayout.minimumWidth)×\(PictureLayout.minimumHeight) to 20000×20000 pixels, not \(width)×\(height).")
        }
        if let tiles {
            do { _ = try TileSource(tiles, cache: tileCache, environment: TileSource.environment) } catch {
                throw ValidationError(error.description)
            }
        } else if tileCache != nil {
            throw ValidationError("--tile-cache goes with --tiles URL-TEMPLATE.")
        }
    }

    func run() throws {
        TemporaryFileGuard.unblockTerminationSignals()
        let source = try load()
        let picture = try TrackPicture(
            title: source.title, subtitle: source.subtitle, segments: source.segments, width: width, height: height)
        let tileSource = try tiles.map { try TileSource($0, cache: tileCache, environment: TileSource.environment) }
        let basemap = tileSource.map { source in picture.basemap { source.tile($0) } }
        if let warning = tileSource?.warning { writeStandardError("trackd: \(warning)\n") }
        let svg = picture.svg(basemap: basemap)
        switch format ?? .svg {
        case .svg: try writeSVG(svg)
        case .png: try writePNG(svg)
        }
        let totals = picture.measurement.totals
        var line = "trackd: rendered \(source.label) -> \(output) (\(width)×\(height)): "
        line += kilometres(totals.distanceMeters) + " km"
        line += ", moving " + (totals.movingSeconds.map { duration(seconds: Int64($0.rounded())) } ?? "unknown")
        if let gain = totals.elevationGainMeters, let loss = totals.elevationLossMeters {
            line += ", gain \(decimal(gain, digits: 0)) m, loss \(decimal(loss, digits: 0)) m"
        }
        if let top = totals.maxSpeedMetersPerSecond { line += ", max \(decimal(top * 3.6, digits: 1)) km/h" }
        line += ", \(totals.points) point\(totals.points == 1 ? "" : "s") in \(totals.segments) segment\(totals.segments == 1 ? "" : "s")"
        if let basemap {
            line += ", \(basemap.tiles.count) of \(picture.tilesNeeded.count) tiles"
            if let summary = tileSource?.summary { line += " (\(summary))" }
        }
        if source.skipped > 0 { line += " (\(source.skipped) points without a valid position skipped)" }
        writeStandardError(line + "\n")
    }

    /// What to draw, from the store or a GPX file.
    struct Source {
        var title: String
        var subtitle: String?
        /// The track as the user names it, in messages: `track 3 'hike'`, `walk.gpx`.
        var label: String
        var segments: [[TrackPoint]]
        var skipped = 0
    }

    func load() throws -> Source {
        if let selector = TrackSelector(track) {
            let store = try TrackStore.open(at: storeLocation.resolved.path, access: .read)
            let summary = try store.track(selector)
            var segments: [[TrackPoint]] = []
            var current = 0
            try store.forEachPoint(ofTrack: summary.id) { number, fix in
                guard let point = TrackPoint(fix) else { return }
                if number != current || segments.isEmpty {
                    segments.append([])
                    current = number
                }
                segments[segments.count - 1].append(point)
            }
            guard !segments.isEmpty else { throw RenderError.noPoints(track: "track \(summary.id)") }
            let subtitle = "track \(summary.id)" + (summary.start.map { " · \($0)" } ?? "")
            return Source(title: summary.name ?? "track \(summary.id)", subtitle: subtitle, label: TrackDescription.label(summary), segments: segments)
        }
        let bytes = try readTrackFile(track)
        let gpx = try GPXTrackReader(bytes: bytes, path: track)
        let base = track.split(separator: "/").last.map(String.init) ?? track
        let points = gpx.segments.reduce(0) { $0 + $1.count }
        guard points > 0 else { throw RenderError.noPoints(track: track) }
        let start = gpx.segments.lazy.compactMap(\.first).first?.secondsSinceEpoch
        let subtitle = base + (start.map { " · " + FixTime(secondsSinceEpoch: $0.rounded(.down)).description } ?? "")
        return Source(title: gpx.name ?? base, subtitle: subtitle, label: track, segments: gpx.segments, skipped: gpx.skippedPoints)
    }

    private func writeSVG(_ svg: String) throws {
        let out = try TemporaryFileGuard.withTerminationSignalsHeld { () throws(CLIError) in
            let out = try OutputFile.create(output)
            TemporaryFileGuard.install(out)
            return out
        }
        defer { TemporaryFileGuard.clear() }
        do {
            // A new temporary file: writing at offset 0 writes it whole.
            try out.write(Array(svg.utf8), at: 0)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
    }

    /// The SVG goes to a temporary file beside the output, rsvg-convert draws it into the
    /// output's temporary file, which then replaces the output; both temporary files go.
    private func writePNG(_ svg: String) throws {
        guard ChildProcess.locate(Rasterizer.program) != nil else { throw RenderCommandError.rasterizerMissing }
        let (png, drawing) = try TemporaryFileGuard.withTerminationSignalsHeld { () throws(CLIError) in
            let png = try OutputFile.create(output)
            let drawing: OutputFile
            do throws(CLIError) {
                drawing = try OutputFile.create(output + ".svg")
            } catch {
                png.discard()
                throw error
            }
            TemporaryFileGuard.install([png, drawing])
            return (png, drawing)
        }
        defer { TemporaryFileGuard.clear() }
        defer { drawing.discard() }
        do {
            guard let svgPath = drawing.temporaryPathForCleanup, let pngPath = png.temporaryPathForCleanup else {
                throw CLIError.cannotCreateOutput(path: output, reason: "a PNG cannot be written to a device or pipe")
            }
            try drawing.write(Array(svg.utf8), at: 0)
            try Rasterizer.convert(svg: svgPath, png: pngPath, width: width, height: height)
            try png.commit()
        } catch {
            png.discard()
            throw error
        }
    }
}

/// The GPX file the user named; a missing one gets a hint at the other kinds of track.
private func readTrackFile(_ path: String) throws(CLIError) -> [UInt8] {
    do {
        return try readInput(path)
    } catch {
        guard case .cannotOpen(let path, let reason) = error, reason.contains("ENOENT") else { throw error }
        throw .cannotOpen(path: path, reason: "\(reason); give a track id from `trackd tracks`, 'latest', or a GPX file")
    }
}

/// The whole content of the file at `path`.
private func readInput(_ path: String) throws(CLIError) -> [UInt8] {
    let input: InputFile
    do {
        input = try InputFile.open(path)
    } catch .emptyInput {
        return []
    }
    defer { input.close() }
    var bytes: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { chunk.deallocate() }
    while true {
        let n = try input.read(into: chunk)
        if n == 0 { return bytes }
        bytes += chunk[0..<n]
    }
}

/// The content of the file at `path`; nil when it cannot be read (a missing tile).
func readWholeFile(_ path: String) -> [UInt8]? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
    return try? readInput(path)
}
