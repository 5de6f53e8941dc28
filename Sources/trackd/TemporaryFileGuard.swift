#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the temporary output files when SIGINT or SIGTERM ends a command, so an
/// interrupted run leaves nothing behind.
enum TemporaryFileGuard {
    /// The temporary files, as C strings in a fixed table the signal handler can read
    /// without allocating.
    nonisolated(unsafe) private static var paths: (UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)
        = (nil, nil)

    static func install(_ output: OutputFile) {
        install([output])
    }

    /// Guards up to two outputs (a command's result and its side file).
    static func install(_ outputs: [OutputFile]) {
        let temporary = outputs.compactMap(\.temporaryPathForCleanup)
        precondition(temporary.count <= 2, "TemporaryFileGuard holds two files")
        guard !temporary.isEmpty else { return }
        paths = (strdup(temporary[0]), temporary.count > 1 ? strdup(temporary[1]) : nil)
        let handler: @convention(c) (CInt) -> Void = { signal in
            if let p = TemporaryFileGuard.paths.0 { unlink(p) }
            if let p = TemporaryFileGuard.paths.1 { unlink(p) }
            _exit(128 + signal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
    }

    /// Runs `body` (creating the outputs and installing the guard) with SIGINT, SIGTERM and
    /// SIGHUP held back, so no signal can end trackd between a temporary file's creation and
    /// its registration here; a signal that came meanwhile is handled right after.
    static func withTerminationSignalsHeld<T>(_ body: () throws(CLIError) -> T) throws(CLIError) -> T {
        var set = terminationSignals
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    private static var terminationSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }

    /// Lets SIGINT, SIGTERM and SIGHUP through: a parent may have started trackd with them
    /// blocked, and then neither Ctrl-C nor a service manager could stop it.
    static func unblockTerminationSignals() {
        var set = terminationSignals
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func clear() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        free(paths.0)
        free(paths.1)
        paths = (nil, nil)
    }
}
