#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SVG to PNG through librsvg's `rsvg-convert` (Debian's librsvg2-bin).
enum Rasterizer {
    static let program = "rsvg-convert"

    /// The program's path on `PATH`; nil when it is not installed.
    static func locate(path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + program
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Renders the SVG file `svg` into the PNG file `png`, `width` × `height` pixels.
    /// rsvg-convert's own messages go to standard error.
    static func convert(svg: String, png: String, width: Int, height: Int) throws(RenderCommandError) {
        guard let executable = locate() else { throw .rasterizerMissing }
        let arguments = [executable, "-w", String(width), "-h", String(height), "-f", "png", "-o", png, svg]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else {
            throw .rasterizerFailed(status: "it could not be started: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .rasterizerFailed(status: "waiting for it failed: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot call.
        let signal = status & 0x7f
        if signal != 0 { throw .rasterizerFailed(status: "it was killed by signal \(signal)") }
        let code = (status >> 8) & 0xff
        if code != 0 { throw .rasterizerFailed(status: "exit status \(code)") }
    }
}
