#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program found on `PATH` and waits for it: the Debian tools trackd hands work to
/// (`rsvg-convert` for PNG, `curl` for map tiles). Their messages go to standard error.
enum ChildProcess {
    /// How a run ended; ``phrase`` says it in words for error messages.
    enum Outcome: Equatable {
        case succeeded
        case exited(Int32)
        case killed(Int32)
        case notStarted(String)

        var phrase: String {
            switch self {
            case .succeeded: "it succeeded"
            case .exited(let code): "exit status \(code)"
            case .killed(let signal): "it was killed by signal \(signal)"
            case .notStarted(let why): "it could not be started: \(why)"
            }
        }
    }

    /// `program`'s path on `PATH`; nil when it is not installed.
    static func locate(_ program: String, path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + program
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` (the program's name first) and waits for it.
    static func run(_ executable: String, _ arguments: [String]) -> Outcome {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else { return .notStarted(String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .notStarted("waiting for it failed: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot call.
        let signal = status & 0x7f
        if signal != 0 { return .killed(signal) }
        let code = (status >> 8) & 0xff
        return code == 0 ? .succeeded : .exited(code)
    }
}
