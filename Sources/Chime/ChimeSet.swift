/// Which groups of chimes sound: the value of `--chime update,signal,fix,lifecycle`.
///
/// ```swift
/// let set = try ChimeSet(parsing: "update,signal")   // [.update, .signal]
/// set.contains(.signalWeak)                          // true
/// ChimeSet.default.description                       // "signal,fix,lifecycle"
/// ```
public struct ChimeSet: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A chime per location update (coalesced, see ``ChimePolicy/updateInterval``).
    public static let update = ChimeSet(.update)
    /// Signal turned strong or weak.
    public static let signal = ChimeSet(.signal)
    /// Fix lost or receiver unplugged.
    public static let fix = ChimeSet(.fix)
    /// Recording started and stopped.
    public static let lifecycle = ChimeSet(.lifecycle)

    /// What `trackd record` plays unless told otherwise: signal, fix and lifecycle. Updates
    /// are off: at one a second or more they are tiring, so the user asks for them.
    public static let `default`: ChimeSet = [.signal, .fix, .lifecycle]
    /// Every chime.
    public static let all: ChimeSet = [.update, .signal, .fix, .lifecycle]
    /// No chime (`--no-chime`).
    public static let none: ChimeSet = []

    /// The set holding one group.
    public init(_ category: ChimeCategory) {
        self.init(rawValue: 1 << UInt8(ChimeCategory.allCases.firstIndex(of: category) ?? 0))
    }

    /// Parses a comma-separated list of group names (`update`, `signal`, `fix`,
    /// `lifecycle`), in any order and letter case, spaces around names ignored.
    ///
    /// - Throws: ``ChimeError/unknownChime(name:)`` for a name not in that list,
    ///   ``ChimeError/emptyChimeList`` for an empty list or an empty name (`"update,,fix"`).
    public init(parsing text: String) throws(ChimeError) {
        self = []
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces.lowercased() }
        for name in names {
            guard !name.isEmpty else { throw ChimeError.emptyChimeList }
            guard let category = ChimeCategory(rawValue: name) else {
                throw ChimeError.unknownChime(name: name)
            }
            insert(ChimeSet(category))
        }
    }

    /// The groups in the set, in `--chime` order.
    public var categories: [ChimeCategory] {
        ChimeCategory.allCases.filter { contains(ChimeSet($0)) }
    }

    /// Whether `kind` sounds.
    public func contains(_ kind: ChimeKind) -> Bool {
        contains(ChimeSet(kind.category))
    }

    /// The set as `--chime` takes it ("signal,fix,lifecycle"); empty for no chime.
    public var description: String {
        categories.map(\.rawValue).joined(separator: ",")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
