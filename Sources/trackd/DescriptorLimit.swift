import LiveView

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's limit on open files, set for the live view's connections.
enum DescriptorLimit {
    /// Plans for `connections` under this process's limits (``DescriptorBudget``) and raises
    /// its soft limit if the plan says so: the connections to serve, and the limit now.
    static func fit(connections wanted: Int) -> (connections: Int, softLimit: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (wanted, -1) }
        let soft = Int(clamping: UInt64(limit.rlim_cur))
        let hard = limit.rlim_max == rlim_t.max ? Int.max : Int(clamping: UInt64(limit.rlim_max))
        let budget = DescriptorBudget.plan(wanted: wanted, soft: soft, hard: hard)
        guard let raise = budget.raiseSoftLimit else { return (budget.connections, soft) }
        var raised = limit
        raised.rlim_cur = rlim_t(raise)
        guard setrlimit(resource, &raised) == 0 else {
            return (DescriptorBudget.plan(wanted: wanted, soft: soft, hard: soft).connections, soft)
        }
        return (budget.connections, raise)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
