import Testing
@testable import LiveView

@Suite("the live view's descriptor budget")
struct DescriptorBudgetTests {
    @Test("a limit with room for the cap and the reserve is left alone")
    func roomy() {
        #expect(DescriptorBudget.plan(wanted: 128, soft: 1_024, hard: 524_288) == DescriptorBudget(raiseSoftLimit: nil, connections: 128))
        #expect(DescriptorBudget.plan(wanted: 128, soft: 192, hard: 192) == DescriptorBudget(raiseSoftLimit: nil, connections: 128))
    }

    @Test("a soft limit too low for the cap is raised to what it needs, within the hard limit")
    func raised() {
        #expect(DescriptorBudget.plan(wanted: 128, soft: 100, hard: 4_096) == DescriptorBudget(raiseSoftLimit: 192, connections: 128))
        #expect(DescriptorBudget.plan(wanted: 128, soft: 100, hard: 160) == DescriptorBudget(raiseSoftLimit: 160, connections: 96))
    }

    @Test("when the hard limit is too low, the cap is lowered below it, to one at least")
    func lowered() {
        #expect(DescriptorBudget.plan(wanted: 128, soft: 128, hard: 128) == DescriptorBudget(raiseSoftLimit: nil, connections: 64))
        #expect(DescriptorBudget.plan(wanted: 128, soft: 32, hard: 32) == DescriptorBudget(raiseSoftLimit: nil, connections: 1))
    }
}
