#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system clock, when something keeps it right: the receiver's time is checked against it.
///
/// A Raspberry Pi has no battery-backed clock: until NTP (or gpsd) sets it, its time is
/// wherever the last shutdown left it. So the system time counts only when it is known to be
/// synchronised: systemd-timesyncd (Debian's and Raspberry Pi OS's NTP client) keeps its flag
/// file while it is. Other NTP clients are not asked (their state is behind `adjtimex`, which
/// the hardened units forbid), so with them the receiver's time is checked against itself only.
enum SynchronisedClock {
    /// The flag file systemd-timesyncd keeps while the clock is synchronised.
    static let timesyncFlag = "/run/systemd/timesync/synchronized"

    /// Seconds since 1970 on the system clock, or nil when it is not known to be synchronised.
    @Sendable static func now() -> Double? {
        guard isSynchronised() else { return nil }
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func isSynchronised() -> Bool {
        access(timesyncFlag, F_OK) == 0
    }
}
