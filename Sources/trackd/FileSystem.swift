#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the directories above `path` that are missing, like `mkdir -p`; errors are left
/// to whoever then creates the file.
func createParentDirectories(of path: String) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/").dropLast() {
        prefix += "/" + component
        _ = mkdir(prefix, 0o755)
    }
}

/// Whether `path` is (or links to) a directory.
func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
}
