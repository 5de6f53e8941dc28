@testable import Chime
import Testing

@Suite("Device retry")
struct DeviceRetryTests {
    @Test("only the failure that starts an outage is to be logged")
    func logOnce() {
        var retry = DeviceRetry(retryInterval: .seconds(30))
        var toLog: [Bool] = []
        toLog.append(retry.failed(now: .zero))
        toLog.append(retry.failed(now: .seconds(30)))
        toLog.append(retry.failed(now: .seconds(60)))
        let recovered = retry.succeeded()
        toLog.append(retry.failed(now: .seconds(90)))
        #expect(toLog == [true, false, false, true])
        #expect(recovered)
    }

    @Test("a failed device is tried again only after the retry interval since the last failure")
    func retryInterval() {
        var retry = DeviceRetry(retryInterval: .seconds(30))
        #expect(retry.mayTry(now: .zero))
        _ = retry.failed(now: .seconds(5))
        #expect(!retry.mayTry(now: .seconds(34)))
        #expect(retry.mayTry(now: .seconds(35)))
        _ = retry.failed(now: .seconds(35))
        #expect(!retry.mayTry(now: .seconds(64)))
    }

    @Test("a success without an outage is not reported as a recovery")
    func quietSuccess() {
        var retry = DeviceRetry()
        let recovered = retry.succeeded()
        #expect(!recovered)
        #expect(retry.mayTry(now: .zero))
    }
}
