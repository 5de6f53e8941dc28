import GPSCore

/// Fixes the parser has assembled and the source has not yet delivered, first in, first out.
struct PendingFixes {
    private var fixes: [Fix] = []
    private var head = 0

    var isEmpty: Bool { head == fixes.count }

    mutating func append(_ fix: Fix) {
        fixes.append(fix)
    }

    mutating func append(contentsOf more: [Fix]) {
        fixes.append(contentsOf: more)
    }

    /// The oldest fix, or nil when there is none.
    mutating func removeFirst() -> Fix? {
        guard head < fixes.count else { return nil }
        let fix = fixes[head]
        head += 1
        if head == fixes.count {
            fixes.removeAll(keepingCapacity: true)
            head = 0
        }
        return fix
    }
}
