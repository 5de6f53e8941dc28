import TrackRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `trackd render --tiles` gets the basemap's tiles: a folder of `z/x/y.png`, or a
/// tile server's URL template (`https://tile.example.org/{z}/{x}/{y}.png`, as MapKit's
/// MKTileOverlay takes it) whose tiles are fetched once with `curl` into a cache folder of
/// the same `z/x/y.png` layout, which `--tiles` can then use offline.
final class TileSource {
    enum Kind: Equatable {
        case folder(String)
        case server(template: String, cache: String)
    }

    let kind: Kind
    /// Tiles fetched from the server in this run.
    private(set) var fetched = 0
    /// Tiles found in the cache.
    private(set) var cached = 0
    /// Tiles the server did not give, with curl's last reason.
    private(set) var failed = 0
    private var lastFailure: String?
    /// Set once the server cannot be reached: no more tries in this run.
    private var unreachable = false
    private let curl: String?

    /// How trackd introduces itself to tile servers (their usage policies ask for it).
    static let userAgent = "trackd/\(TrackdVersion.string) (GPS track recorder; trackd render)"

    /// `text` as `--tiles` takes it; `cache` is `--tile-cache`, defaulting to
    /// `$XDG_CACHE_HOME/trackd/tiles/HOST` (else `~/.cache/trackd/tiles/HOST`).
    init(_ text: String, cache: String?, environment: [String: String]) throws(TileSourceError) {
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            for placeholder in ["{z}", "{x}", "{y}"] where !text.contains(placeholder) {
                throw .badTemplate(text, missing: placeholder)
            }
            kind = .server(template: text, cache: cache ?? TileSource.defaultCache(for: text, environment: environment))
            curl = ChildProcess.locate("curl")
            guard curl != nil else { throw .curlMissing }
        } else {
            guard isDirectory(text) else { throw .notAFolder(text) }
            guard cache == nil else { throw .cacheWithFolder }
            kind = .folder(text)
            curl = nil
        }
    }

    /// The PNG of tile `id`; nil when there is none.
    func tile(_ id: TileID) -> [UInt8]? {
        switch kind {
        case .folder(let folder):
            return readWholeFile("\(folder)/\(id).png")
        case .server(let template, let cache):
            let path = "\(cache)/\(id).png"
            if let bytes = readWholeFile(path) {
                cached += 1
                return bytes
            }
            guard !unreachable, let curl else {
                failed += 1
                return nil
            }
            return fetch(id, from: TileSource.url(template, id: id), into: path, curl: curl)
        }
    }

    /// What to add to the summary line: where the tiles came from.
    var summary: String? {
        guard case .server(_, let cache) = kind else { return nil }
        return "\(fetched) fetched, \(cached) from the cache \(cache)"
    }

    /// A warning when tiles could not be fetched.
    var warning: String? {
        guard case .server(let template, _) = kind, failed > 0 else { return nil }
        let reason = lastFailure.map { ": \($0)" } ?? ""
        return "\(failed) tile\(failed == 1 ? "" : "s") could not be fetched from \(template)\(reason); they stay blank (the tiles fetched are kept for next time)"
    }

    /// The environment variables the default cache depends on.
    static var environment: [String: String] {
        var result: [String: String] = [:]
        for key in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }

    /// The template with `{z}`, `{x}` and `{y}` filled in for `id`.
    static func url(_ template: String, id: TileID) -> String {
        template.replacing("{z}", with: String(id.zoom)).replacing("{x}", with: String(id.x)).replacing("{y}", with: String(id.y))
    }

    /// The default cache folder for a template: one per server, so that two servers' tiles
    /// never mix.
    static func defaultCache(for template: String, environment: [String: String]) -> String {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ".") + "/.cache"
        }
        let afterScheme = template.split(separator: "://", maxSplits: 1).last.map(String.init) ?? template
        let prefix = afterScheme.prefix { $0 != "{" }
        var key = String(prefix.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        while key.hasSuffix("_") { key.removeLast() }
        return "\(base)/trackd/tiles/\(key.isEmpty ? "server" : key)"
    }

    private func fetch(_ id: TileID, from url: String, into path: String, curl: String) -> [UInt8]? {
        createParentDirectories(of: path)
        let partial = path + ".part"
        let outcome = ChildProcess.run(curl, [
            curl, "--silent", "--fail", "--location", "--connect-timeout", "5", "--max-time", "30",
            "--user-agent", TileSource.userAgent, "--output", partial, url,
        ])
        defer { unlink(partial) }
        switch outcome {
        case .succeeded:
            guard let bytes = readWholeFile(partial), bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
                failed += 1
                lastFailure = "\(url) is not a PNG image"
                return nil
            }
            guard rename(partial, path) == 0 else {
                failed += 1
                lastFailure = "cannot write the cache \(path): \(String(cString: strerror(errno)))"
                return bytes
            }
            fetched += 1
            return bytes
        case .exited(let code) where [5, 6, 7, 28, 35].contains(code):
            // Cannot resolve, connect, or time out: offline, as on a trail. Stop trying.
            unreachable = true
            failed += 1
            lastFailure = "the server cannot be reached (curl exit status \(code))"
            return nil
        case .exited(22):
            failed += 1
            lastFailure = "the server answered with an HTTP error, such as 404, for \(url)"
            return nil
        default:
            failed += 1
            lastFailure = "curl failed for \(url) (\(outcome.phrase))"
            return nil
        }
    }
}

/// A `--tiles` or `--tile-cache` that cannot be used.
enum TileSourceError: Error, CustomStringConvertible {
    case notAFolder(String)
    case badTemplate(String, missing: String)
    case curlMissing
    case cacheWithFolder

    var description: String {
        switch self {
        case .notAFolder(let text):
            "--tiles \(text) is neither a folder of z/x/y.png tiles nor an http:// or https:// URL template; give a folder, or a template such as https://tile.example.org/{z}/{x}/{y}.png"
        case .badTemplate(let text, let missing):
            "--tiles \(text) has no \(missing); a tile server's URL template has {z}, {x} and {y}, such as https://tile.example.org/{z}/{x}/{y}.png"
        case .curlMissing:
            "fetching tiles from a server needs curl, which is not installed; install it (apt-get install curl), or give --tiles a folder of z/x/y.png tiles"
        case .cacheWithFolder:
            "--tile-cache applies to a tile server's URL template; a folder given to --tiles is read as it is"
        }
    }
}
