import CGPSShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One open libgps connection to gpsd, watching its JSON reports; closes when dropped.
///
/// Not thread-safe: the gpsd reader thread owns it. A class so that a connection abandoned
/// by a stopped reader is still closed, in `deinit`.
final class GPSDConnection {
    /// What one wait for a report brought.
    enum Read {
        /// A whole report, copied out of libgps.
        case report(trackd_gps_report)
        /// Nothing within the wait, or only part of a report so far.
        case nothing
        /// gpsd closed the connection or it failed.
        case closed
    }

    let address: GPSDAddress
    private var gps: OpaquePointer?
    /// The report buffer, reused: a report with its satellites is several KiB.
    private var report = trackd_gps_report()
    /// Whether libgps holds part of a report. libgps 3.22's socket is non-blocking, so a read
    /// then returns "nothing yet" and `gps_waiting` "waiting" at once; the next wait is on
    /// the socket itself, for the rest to arrive, rather than a busy loop.
    private var holdsPartialReport = false

    private init(address: GPSDAddress, gps: OpaquePointer) {
        self.address = address
        self.gps = gps
    }

    deinit {
        close()
    }

    /// Connects to gpsd and asks it to stream JSON reports, of `device` alone when given.
    ///
    /// - Throws: ``SourceError/gpsdUnavailable(address:reason:)`` with the system's reason
    ///   (`Connection refused`) when the connection cannot be made or the watch not sent.
    static func open(_ address: GPSDAddress, device: String?) throws(SourceError) -> GPSDConnection {
        var code: Int32 = 0
        guard let gps = trackd_gps_open(address.host, String(address.port), &code) else {
            let libgps = String(cString: trackd_gps_errstr(code))
            throw .gpsdUnavailable(address: address, reason: connectFailureReason(address) ?? libgps)
        }
        let connection = GPSDConnection(address: address, gps: gps)
        let streamed = device.map { trackd_gps_stream(gps, $0) } ?? trackd_gps_stream(gps, nil)
        guard streamed == 0 else {
            throw .gpsdUnavailable(address: address, reason: "gpsd took the connection but not the request to stream reports")
        }
        return connection
    }

    /// Waits up to `timeout` for a report and reads it; returns ``Read/nothing`` at once when
    /// `stop` is set.
    func read(timeout: Duration, until stop: StopFlag? = nil) -> Read {
        guard let gps else { return .closed }
        // libgps may hold whole reports already read from the socket; otherwise wait on the
        // socket and the stop flag together.
        let waiting = (!holdsPartialReport && trackd_gps_waiting(gps, 0))
            || waitReadable(trackd_gps_fd(gps), timeout: timeout, unless: stop).map { $0 != 0 } == .success(true)
        guard waiting else { return .nothing }
        let status = trackd_gps_read(gps, &report)
        holdsPartialReport = status == 0
        if status < 0 { return .closed }
        if status == 0 { return .nothing }
        return .report(report)
    }

    /// Closes the connection; later reads find it closed.
    func close() {
        if let gps { trackd_gps_close(gps) }
        gps = nil
    }
}
