import Logging
import ServiceLifecycle

/// Tells systemd how the recording goes: `READY=1` when it runs, `WATCHDOG=1` every
/// ``SystemdNotifier/watchdogInterval``, a `STATUS=` line with each, and `STOPPING=1` when
/// the group shuts down.
///
/// `trackd record` lists it last in its service group, so it runs once the store is open,
/// the track is created and the source is chosen (READY means "recording", not "has a
/// fix": a cold receiver may take minutes for that), and it is the first service a shutdown
/// reaches, so STOPPING=1 goes out as soon as SIGTERM arrives or the input ends. Each ping
/// follows a read of the running track from the store: a recorder whose store no longer
/// answers stops pinging and systemd restarts it (`WatchdogSec=` in systemd/trackd@.service).
struct SystemdWatchdog<C: Clock<Duration>>: Service {
    let notifier: SystemdNotifier
    let clock: C
    let logger: Logger
    /// The `STATUS=` text, asked for before each message.
    let status: @Sendable () -> String

    func run() async throws {
        send("READY=1\nSTATUS=\(status())")
        if let interval = notifier.watchdogInterval {
            while !Task.isShuttingDownGracefully {
                do {
                    try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
                } catch {
                    break
                }
                if Task.isShuttingDownGracefully { break }
                send("WATCHDOG=1\nSTATUS=\(status())")
            }
        } else {
            try? await gracefulShutdown()
        }
        send("STOPPING=1\nSTATUS=stopping: closing the track")
    }

    private func send(_ state: String) {
        if let failure = notifier.send(state) {
            logger.warning("cannot notify systemd at \(notifier.socketPath ?? ""): \(failure)")
        }
    }
}
