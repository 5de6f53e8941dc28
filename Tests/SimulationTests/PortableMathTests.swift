import Foundation
import Testing

@testable import Simulation

@Suite("Portable math")
struct PortableMathTests {
    @Test("sin, cos, exp, log and atan2 agree with the C library to 1e-14", arguments: Array(stride(from: -20.0, through: 20.0, by: 0.37)))
    func agreesWithLibm(x: Double) {
        #expect(abs(PortableMath.sin(x) - Foundation.sin(x)) < 1e-14)
        #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-14)
        #expect(abs(PortableMath.exp(x) - Foundation.exp(x)) <= 1e-14 * Foundation.exp(x))
        let positive = abs(x) + 1e-3
        #expect(abs(PortableMath.log(positive) - Foundation.log(positive)) < 1e-14)
        #expect(abs(PortableMath.atan2(x, 3.1) - Foundation.atan2(x, 3.1)) < 1e-14)
        #expect(abs(PortableMath.atan2(-1.7, x) - Foundation.atan2(-1.7, x)) < 1e-14)
    }

    @Test("sin and cos stay accurate for the angles of a long route")
    func largeArguments() {
        for x in [1_000.0, 12_345.678, 99_999.5] {
            #expect(abs(PortableMath.sin(x) - Foundation.sin(x)) < 1e-12)
            #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-12)
        }
    }
}
