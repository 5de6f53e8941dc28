#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the temporary output file when SIGINT or SIGTERM ends a conversion, so an
/// interrupted run leaves nothing behind.
enum TemporaryFileGuard {
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?

    static func install(_ output: OutputFile) {
        guard let tmp = output.temporaryPathForCleanup else { return }
        path = strdup(tmp)
        let handler: @convention(c) (CInt) -> Void = { signal in
            if let p = TemporaryFileGuard.path { unlink(p) }
            _exit(128 + signal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
    }

    /// Lets SIGINT, SIGTERM and SIGHUP through: a parent may have started trackd with them
    /// blocked, and then neither Ctrl-C nor a service manager could stop it.
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func clear() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        free(path)
        path = nil
    }
}
