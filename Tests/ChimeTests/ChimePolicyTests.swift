import Chime
import Testing

@Suite("Chime policy")
struct ChimePolicyTests {
    @Test("100 updates within one second queue one update chime")
    func burstCoalesces() {
        var policy = ChimePolicy(enabled: .all)
        let decisions = (0..<100).map { policy.request(.update, now: .milliseconds(10 * $0)) }
        #expect(decisions.filter { $0 == .queued }.count == 1)
        #expect(decisions.filter { $0 == .coalesced }.count == 99)
        #expect(policy.queue.map(\.kind) == [.update])
    }

    @Test("at 10 Hz for 60 s with a 5 s interval, twelve update chimes are queued")
    func tenHertzForAMinute() {
        var policy = ChimePolicy(enabled: .update, capacity: 100)
        for tick in 0..<600 {
            _ = policy.request(.update, now: .milliseconds(100 * tick))
        }
        #expect(policy.queue.count == 12)
        #expect(policy.queue.map(\.requestedAt) == (0..<12).map { .seconds(5 * $0) })
    }

    @Test("an update exactly one interval after the last queued one is queued")
    func intervalBoundary() {
        var policy = ChimePolicy(enabled: .update, updateInterval: .seconds(2))
        #expect(policy.request(.update, now: .seconds(10)) == .queued)
        #expect(policy.request(.update, now: .milliseconds(11_999)) == .coalesced)
        #expect(policy.request(.update, now: .seconds(12)) == .queued)
    }

    @Test("a zero interval lets every update through")
    func zeroInterval() {
        var policy = ChimePolicy(enabled: .update, updateInterval: .zero)
        #expect(policy.request(.update, now: .zero) == .queued)
        #expect(policy.request(.update, now: .zero) == .queued)
    }

    @Test("coalescing applies to updates only")
    func othersNotCoalesced() {
        var policy = ChimePolicy(enabled: .all)
        #expect(policy.request(.signalWeak, now: .zero) == .queued)
        #expect(policy.request(.signalWeak, now: .zero) == .queued)
    }

    @Test("chimes of a group that is off are not queued", arguments: ChimeKind.allCases)
    func disabled(kind: ChimeKind) {
        var policy = ChimePolicy(enabled: ChimeSet.all.subtracting(ChimeSet(kind.category)))
        #expect(policy.request(kind, now: .zero) == .disabled)
        #expect(policy.queue.isEmpty)
    }

    @Test("the default set plays signal, fix and lifecycle chimes, not updates")
    func defaultSet() {
        var policy = ChimePolicy()
        #expect(policy.request(.update, now: .zero) == .disabled)
        for kind in [ChimeKind.signalStrong, .fixLost, .recordingStarted] {
            #expect(policy.request(kind, now: .zero) == .queued)
        }
    }

    @Test("a full queue drops the next chime and keeps the waiting ones in order")
    func queueBound() {
        var policy = ChimePolicy(enabled: .all, capacity: 4)
        let kinds: [ChimeKind] = [.signalStrong, .signalWeak, .fixLost, .update]
        for kind in kinds { #expect(policy.request(kind, now: .zero) == .queued) }
        #expect(policy.request(.signalStrong, now: .seconds(1)) == .dropped)
        #expect(policy.queue.map(\.kind) == kinds)
        var played: [ChimeKind?] = []
        for _ in 0..<5 { played.append(policy.next()?.kind) }
        #expect(played == kinds + [nil])
    }

    @Test("a lifecycle chime finding the queue full takes the place of the oldest other chime")
    func lifecycleEvicts() {
        var policy = ChimePolicy(enabled: .all, capacity: 2)
        _ = policy.request(.signalStrong, now: .zero)
        _ = policy.request(.fixLost, now: .zero)
        #expect(policy.request(.recordingStopped, now: .zero) == .queuedEvicting(.signalStrong))
        #expect(policy.queue.map(\.kind) == [.fixLost, .recordingStopped])
    }

    @Test("a lifecycle chime finding the queue full of lifecycle chimes is dropped")
    func lifecycleDroppedWhenAllLifecycle() {
        var policy = ChimePolicy(enabled: .all, capacity: 2)
        _ = policy.request(.recordingStarted, now: .zero)
        _ = policy.request(.recordingStopped, now: .zero)
        #expect(policy.request(.recordingStarted, now: .zero) == .dropped)
        #expect(policy.queue.map(\.kind) == [.recordingStarted, .recordingStopped])
    }

    @Test("an update dropped for a full queue does not start a coalescing interval")
    func droppedUpdateDoesNotCoalesce() {
        var policy = ChimePolicy(enabled: .all, capacity: 1)
        _ = policy.request(.fixLost, now: .zero)
        #expect(policy.request(.update, now: .zero) == .dropped)
        _ = policy.next()
        #expect(policy.request(.update, now: .seconds(1)) == .queued)
    }

    @Test("--chime-every takes zero or more seconds", arguments: [(0.0, Duration.zero), (5, .seconds(5)), (0.25, .milliseconds(250))])
    func intervalParsing(seconds: Double, expected: Duration) throws {
        #expect(try ChimePolicy.updateInterval(seconds: seconds) == expected)
    }

    @Test("--chime-every below zero or not a number is refused", arguments: [-1.0, -.infinity, .nan])
    func intervalRefused(seconds: Double) {
        #expect(throws: ChimeError.self) { try ChimePolicy.updateInterval(seconds: seconds) }
    }
}

@Suite("Chime sets")
struct ChimeSetTests {
    static let lists: [(String, ChimeSet)] = [
        ("update,signal,fix,lifecycle", .all),
        ("update", .update),
        ("signal,fix,lifecycle", .default),
        ("Lifecycle, SIGNAL", [.lifecycle, .signal]),
        ("fix,fix", .fix),
    ]

    @Test("--chime lists parse to their groups", arguments: lists)
    func parses(text: String, expected: ChimeSet) throws {
        #expect(try ChimeSet(parsing: text) == expected)
    }

    @Test("an unknown name is refused with the name and the valid ones")
    func unknownName() {
        #expect(throws: ChimeError.unknownChime(name: "updates")) { try ChimeSet(parsing: "signal,updates") }
        let message = ChimeError.unknownChime(name: "updates").description
        #expect(message.contains("'updates'"))
        #expect(message.contains("update, signal, fix, lifecycle"))
    }

    @Test("an empty list or an empty name is refused", arguments: ["", "update,,fix", "signal,"])
    func emptyNames(text: String) {
        #expect(throws: ChimeError.emptyChimeList) { try ChimeSet(parsing: text) }
    }

    @Test("a set prints as --chime takes it")
    func description() throws {
        #expect(ChimeSet.default.description == "signal,fix,lifecycle")
        #expect(ChimeSet.none.description == "")
        #expect(try ChimeSet(parsing: ChimeSet.all.description) == .all)
    }

    @Test("each kind belongs to the group --chime names it by")
    func categories() {
        #expect(ChimeCategory.signal.kinds == [.signalStrong, .signalWeak])
        #expect(ChimeCategory.fix.kinds == [.fixLost])
        #expect(ChimeCategory.lifecycle.kinds == [.recordingStarted, .recordingStopped])
        #expect(ChimeCategory.update.kinds == [.update])
        #expect(ChimeSet.signal.contains(.signalWeak) && !ChimeSet.signal.contains(.fixLost))
    }
}
