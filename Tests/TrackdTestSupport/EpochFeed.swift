#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A log's epochs written into pseudo-terminals in order, as a receiver sends them, one
/// terminal after another across an unplug.
public struct EpochFeed: Sendable {
    public let epochs: [String]
    /// How many epochs have been written.
    public private(set) var next = 0

    public init(_ epochs: [String]) {
        self.epochs = epochs
    }

    /// Whether every epoch has been written.
    public var isFinished: Bool { next >= epochs.count }

    /// Writes the next `count` epochs (fewer at the end) to `terminal`, `pauseMicroseconds` apart.
    public mutating func feed(_ terminal: PseudoTerminal, epochs count: Int, pauseMicroseconds: UInt32 = 20_000) {
        for _ in 0..<count where next < epochs.count {
            terminal.writeNow(epochs[next])
            next += 1
            if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
        }
    }
}
