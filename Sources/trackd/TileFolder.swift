#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder of `z/x/y.png` map tiles that `trackd serve --tiles` serves: only files that
/// are inside it.
///
/// A tile's path is resolved (every symbolic link followed, as `realpath(3)` does) and read
/// only when the result lies under the folder's own resolved path: a link to another tile in
/// the folder is served, a link (to a file or to a directory) that leads out of it, such as
/// `14/8/5.png -> /etc/passwd`, is not, as if the tile were missing.
struct TileFolder: Sendable {
    /// The folder as given.
    let path: String
    /// The folder's resolved path, without a trailing `/`.
    let root: String

    /// Nil when the folder does not exist or cannot be resolved.
    init?(_ path: String) {
        guard let root = TileFolder.resolve(path), isDirectory(root) else { return nil }
        self.path = path
        self.root = root == "/" ? "" : root
    }

    /// The PNG of tile (zoom, x, y); nil when it is missing, not a regular file, or outside
    /// the folder.
    func tile(zoom: Int, x: Int, y: Int) -> [UInt8]? {
        guard let resolved = TileFolder.resolve("\(path)/\(zoom)/\(x)/\(y).png"), contains(resolved) else { return nil }
        return readWholeFile(resolved)
    }

    /// Whether the resolved path `resolved` lies under the folder.
    func contains(_ resolved: String) -> Bool {
        resolved.hasPrefix(root + "/")
    }

    /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
