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
/// Runs on a ``ReaderThread``, blocking on gpsd's socket and the reader's ``StopFlag``
/// together, so that it wakes when a report comes or the consumer has gone, and not between.
struct GPSDReader {
    /// The longest one wait for a report blocks.
    static let wait = Duration.seconds(2)
    /// How long a fix waits for a more complete report of the same time. gpsd sends one TPV
    /// per position sentence of an epoch (2 to 4 for most receivers), each more complete than
    /// the last, within milliseconds; the manager takes one fix per time, so the last wins.
    static let epochQuiet = Duration.milliseconds(100)

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
            switch connection.read(timeout: pending == nil ? Self.wait : Self.epochQuiet, until: control.stop) {
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
            if control.stop.sleep(backoff.nextDelay()) { return nil }
            if let connection = try? GPSDConnection.open(address, device: device) {
                backoff.reset()
                return connection
            }
        }
        return nil
    }
}
