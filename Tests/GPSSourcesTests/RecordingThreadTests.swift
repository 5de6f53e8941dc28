import Foundation
import Synchronization
import Testing
import TrackdTestSupport
@testable import GPSSources

#if canImport(Glibc)
import Glibc
#endif

/// The name of the thread that calls it, as the kernel has it.
private func threadName() -> String {
    (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
}

@Suite("Recording thread", .timeLimit(.minutes(1)))
struct RecordingThreadTests {
    let thread = RecordingThread(name: "rec-test")!

    @Test("a task that prefers it, its child tasks and the tasks made for it run on the one named thread")
    func runsTasks() async throws {
        let names = await withTaskExecutorPreference(thread) {
            let here = threadName()
            async let child = threadName()
            let made = await Task(executorPreference: thread) { threadName() }.value
            return [here, await child, made]
        }
        #expect(names == ["rec-test", "rec-test", "rec-test"])
    }

    @Test("its clock's sleeps end on the thread, none before its deadline, whatever order they were set in")
    func sleeps() async throws {
        let clock = RecordingThread.Sleeper(thread: thread)
        let start = ContinuousClock.now
        let offsets: [Duration] = [.milliseconds(40), .milliseconds(5), .milliseconds(120), .milliseconds(20)]
        let results = try await withTaskExecutorPreference(thread) {
            try await withThrowingTaskGroup(of: (Duration, ContinuousClock.Instant, String).self) { group in
                for offset in offsets {
                    group.addTask {
                        try await clock.sleep(until: start + offset, tolerance: nil)
                        return (offset, ContinuousClock.now, threadName())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(results.count == offsets.count)
        for (offset, woke, name) in results {
            #expect(woke >= start + offset, "woke before its deadline: \(offset)")
            #expect(name == "rec-test")
        }
    }

    @Test("cancelling a sleeping task ends its sleep with CancellationError")
    func cancelSleep() async throws {
        let clock = RecordingThread.Sleeper(thread: thread)
        let sleeping = Task(executorPreference: thread) {
            try await clock.sleep(for: .seconds(3600))
        }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
    }

    @Test("a task cancelled before it sleeps does not sleep")
    func cancelledFirst() async throws {
        let clock = RecordingThread.Sleeper(thread: thread)
        let outcome = await Task(executorPreference: thread) { () -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await clock.sleep(for: .seconds(3600))
                return false
            } catch {
                return error is CancellationError
            }
        }.value
        #expect(outcome)
    }

    @Test("timers due within the coalescing window wake the thread once, at the latest of them, never early")
    func coalescing() {
        let t = ContinuousClock.now
        #expect(RecordingThread.wakeTime([]) == nil)
        #expect(RecordingThread.wakeTime([t]) == t)
        #expect(RecordingThread.wakeTime([t + .milliseconds(30), t, t + .seconds(1)]) == t + .milliseconds(30))
        #expect(RecordingThread.wakeTime([t + .seconds(1), t + .seconds(2)]) == t + .seconds(1))
        #expect(RecordingThread.wakeTime([t, t + RecordingThread.coalescing]) == t + RecordingThread.coalescing)
    }
}

/// A port handed to the one task that reads it while the test waits.
private struct PortHandle: @unchecked Sendable {
    let port: SerialPort
}

@Suite("Stop flag", .timeLimit(.minutes(1)))
struct StopFlagTests {
    @Test("a read waiting on a silent device returns once the flag is set, without waiting for its timeout")
    func endsRead() async throws {
        let pty = try PseudoTerminal()
        let opened = PortHandle(port: try SerialPort.open(pty.slavePath, baud: .b9600))
        defer { opened.port.close() }
        let stop = StopFlag()
        let result = Mutex<String?>(nil)
        let reading = Task.detached { [opened] in
            let port = opened.port
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
            defer { buffer.deallocate() }
            // A minute: the suite's time limit, so only the flag can end it in time.
            let outcome = port.read(into: buffer, timeout: .seconds(60), until: stop)
            result.withLock { $0 = "\(outcome)" }
        }
        try await Task.sleep(for: .milliseconds(50))
        stop.set()
        await reading.value
        #expect(result.withLock { $0 } == "timeout")
        #expect(stop.isSet)
    }

    @Test("bytes that arrive before the flag is set are read")
    func readsBytes() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, baud: .b9600)
        defer { port.close() }
        let stop = StopFlag()
        #expect(pty.writeNow("$GPGGA\r\n") == 8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        guard case .bytes(let count) = port.read(into: buffer, timeout: .seconds(60), until: stop) else {
            Issue.record("no bytes read")
            return
        }
        #expect(count == 8)
    }

    @Test("a sleep ends once the flag is set from another thread, and says so")
    func endsSleep() async throws {
        let stop = StopFlag()
        let sleeping = Task.detached { stop.sleep(.seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        stop.set()
        #expect(await sleeping.value)
        #expect(!StopFlag().sleep(.milliseconds(1)), "a flag never set: the sleep runs out")
    }
}
