@testable import LiveView
import Testing

@Suite("listening gate")
struct ListeningGateTests {
    struct PortInUse: Error {}

    @Test("waiters before and after the server listens get its URL")
    func opens() async throws {
        let gate = ListeningGate()
        async let early = gate.wait()
        async let alsoEarly = gate.wait()
        // The waiters may or may not be parked yet; either way they get the URL.
        await Task.yield()
        gate.open(url: "http://127.0.0.1:8080/")
        #expect(try await early == "http://127.0.0.1:8080/")
        #expect(try await alsoEarly == "http://127.0.0.1:8080/")
        #expect(try await gate.wait() == "http://127.0.0.1:8080/")
    }

    @Test("a server that cannot listen fails every waiter, and a later open changes nothing")
    func fails() async {
        let gate = ListeningGate()
        let early = Task { try await gate.wait() }
        await Task.yield()
        gate.fail(PortInUse())
        gate.open(url: "http://127.0.0.1:8080/")
        await #expect(throws: PortInUse.self) { try await early.value }
        await #expect(throws: PortInUse.self) { try await gate.wait() }
    }
}
