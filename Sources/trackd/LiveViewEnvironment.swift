import ArgumentParser
import LiveView
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The live view's limits, from the environment over the production values
/// (``LiveViewLimits/production``: 128 connections, 10 s to send a request):
/// `TRACKD_LIVE_CONNECTIONS` is the most connections at once, `TRACKD_LIVE_REQUEST_TIMEOUT`
/// the seconds a connection may take to send its request. A unit that raises the first must
/// raise its `LimitNOFILE=` too.
enum LiveViewEnvironment {
    static func limits(environment: [String: String] = LiveViewEnvironment.current) throws(ValidationError) -> LiveViewLimits {
        var limits = LiveViewLimits.production
        if let text = environment["TRACKD_LIVE_CONNECTIONS"], !text.isEmpty {
            guard let count = Int(text), (1...100_000).contains(count) else {
                throw ValidationError("TRACKD_LIVE_CONNECTIONS must be a number of connections from 1 to 100000, not '\(text)'.")
            }
            limits.maximumConnections = count
        }
        if let text = environment["TRACKD_LIVE_REQUEST_TIMEOUT"], !text.isEmpty {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 3_600 else {
                throw ValidationError("TRACKD_LIVE_REQUEST_TIMEOUT must be seconds from 0.1 to 3600, such as 10, not '\(text)'.")
            }
            limits.requestTimeout = .milliseconds(Int64((seconds * 1_000).rounded()))
        }
        return limits
    }

    /// The limits above, with as many connections as this process's descriptors allow
    /// (``DescriptorBudget``): its soft limit is raised towards the hard one when the plan
    /// says so, and a lowered cap is logged.
    static func limitsWithinDescriptors(logger: Logger) throws(ValidationError) -> LiveViewLimits {
        var limits = try self.limits()
        let wanted = limits.maximumConnections
        let (cap, descriptors) = DescriptorLimit.fit(connections: wanted)
        if cap < wanted {
            logger.warning(
                "the live view serves at most \(cap) connections, not \(wanted): the process may open only \(descriptors) files (raise LimitNOFILE= or ulimit -n)")
        }
        limits.maximumConnections = cap
        return limits
    }

    /// The variables above, from this process's environment.
    static var current: [String: String] {
        var result: [String: String] = [:]
        for key in ["TRACKD_LIVE_CONNECTIONS", "TRACKD_LIVE_REQUEST_TIMEOUT"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }
}
