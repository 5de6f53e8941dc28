import GPSCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The gpsd read loop: connect, turn reports into events, and reconnect when gpsd goes away.
///
/// Runs on a ``ReaderThread``, blocking in libgps for at most ``waitMicroseconds`` at a time
/// so that it notices within that long that the consumer has gone.
struct GPSDReader {
    /// The longest one wait for a report blocks: how soon a stopped source lets go of gpsd.
    static let waitMicroseconds: Int32 = 250_000
    /// How long a fix waits for a more complete report of the same time. gpsd sends one TPV
    /// per position sentence of an epoch (2 to 4 for most receivers), each more complete than
    /// the last, within milliseconds; the manager takes one fix per time, so the last wins.
    static let epochQuietMicroseconds: Int32 = 100_000
    /// The longest one slice of a reconnect delay sleeps, for the same reason.
    static let sleepSlice = Duration.milliseconds(100)

    let address: GPSDAddress
    let device: String?
    let reconnect: Bool

    /// Runs until the consumer stops (or, without `reconnect`, until gpsd goes away).
    ///
    /// - Throws: ``SourceError/gpsdUnavailable(address:reason:)`` when the first connection fails.
    func run(_ control: ReaderThread.Control<SourceEvent>) throws(SourceError) {
        var connection = try GPSDConnection.open(address, device: device)
        control.yield(.connected("gpsd \(address)"))
        var sky: GPSDSky?
        var pending: Fix?
        var backoff = ReconnectBackoff()
        func flush() {
            if let fix = pending { control.yield(.fix(fix)) }
            pending = nil
        }
        while !control.isStopped {
            let wait = pending == nil ? Self.waitMicroseconds : Self.epochQuietMicroseconds
            switch connection.read(timeoutMicroseconds: wait) {
            case .report(let report):
                if GPSDFixMapping.isSKY(report) {
                    sky = GPSDFixMapping.sky(from: report)
                }
                if let fix = GPSDFixMapping.fix(from: report, sky: sky) {
                    if let held = pending, held.time == fix.time {
                        // The same epoch again: keep the more complete report.
                        if fix.mode.rawValue >= held.mode.rawValue { pending = fix }
                    } else {
                        flush()
                        pending = fix
                    }
                }
            case .nothing:
                flush()
            case .closed:
                flush()
                connection.close()
                control.yield(.lost("gpsd at \(address) went away"))
                guard reconnect, let again = reconnectAfterLoss(&backoff, control) else { return }
                connection = again
                sky = nil
                control.yield(.resumed("gpsd \(address)"))
            }
        }
        flush()
    }

    /// Tries to connect again, waiting as `backoff` says between attempts, until it succeeds
    /// (then resets `backoff`) or the consumer stops (nil).
    private func reconnectAfterLoss(
        _ backoff: inout ReconnectBackoff, _ control: ReaderThread.Control<SourceEvent>
    ) -> GPSDConnection? {
        while !control.isStopped {
            sleep(backoff.nextDelay(), unlessStopped: control)
            if control.isStopped { return nil }
            if let connection = try? GPSDConnection.open(address, device: device) {
                backoff.reset()
                return connection
            }
        }
        return nil
    }

    /// Sleeps the reader thread for `delay`, in slices, returning early once the consumer stops.
    private func sleep(_ delay: Duration, unlessStopped control: ReaderThread.Control<SourceEvent>) {
        var left = delay
        while left > .zero, !control.isStopped {
            let slice = min(left, Self.sleepSlice)
            let (seconds, attoseconds) = slice.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0, errno == EINTR {
                request = remaining
            }
            left -= slice
        }
    }
}
