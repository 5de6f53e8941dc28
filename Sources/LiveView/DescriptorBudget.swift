/// How many connections the live view can take without running the process out of file
/// descriptors.
///
/// A server that runs out (`accept` fails with `EMFILE`) spins a core: NIO's accept backoff
/// stops asking for reads, but the failed accept leaves its read pending, and the listening
/// socket, still readable, is polled and accepted from again at once. Worse, the recorder
/// beside it cannot open its receiver again after an unplug. So the connections are kept
/// below the descriptor limit: the soft limit is raised towards the hard one when it is too
/// low for the cap and ``reserve``, and the cap is lowered when even that is not enough. This
/// is the plan; the process that serves sets its limit and gives the server the cap
/// (``LiveViewLimits/maximumConnections``).
public struct DescriptorBudget: Sendable, Hashable {
    /// Descriptors kept for everything but the live view's connections: the store's
    /// connections and their write-ahead logs, the receiver or gpsd socket, audio, NIO's and
    /// dispatch's threads, standard streams, and connections being refused. About 30 are in use
    /// when `trackd record --serve` runs; 64 leaves room.
    public static let reserve = 64

    /// The soft limit to set, when it must be raised.
    public var raiseSoftLimit: Int?
    /// The most connections to serve at once.
    public var connections: Int

    /// The budget for `wanted` connections under the limits `soft` and `hard`.
    public static func plan(wanted: Int, soft: Int, hard: Int) -> DescriptorBudget {
        let needed = wanted + reserve
        guard soft < needed else { return DescriptorBudget(raiseSoftLimit: nil, connections: wanted) }
        let raised = min(needed, max(soft, hard))
        return DescriptorBudget(
            raiseSoftLimit: raised > soft ? raised : nil, connections: max(1, min(wanted, raised - reserve)))
    }
}
