import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a blocking read loop on a thread of its own and hands what it reads to async code.
///
/// A live receiver is read with blocking calls (`poll` on a tty, libgps's `gps_waiting`):
/// on the concurrency pool they would hold one of its few threads (two on a Pi Zero 2), and
/// the location manager and the recorder would wait. Here the loop has a thread to itself and
/// its results go through an unbounded `AsyncThrowingStream` (fixes are never dropped).
///
/// The loop gets a ``Control``: `yield` hands over an element, `isStopped` turns true once
/// the consumer has gone (the stream was cancelled or dropped); the loop should then return
/// within one of its wait timeouts. Returning ends the stream; throwing ends it with the
/// error.
///
/// ```swift
/// let events = ReaderThread.stream(of: SourceEvent.self, name: "gpsd") { control in
///     while !control.isStopped { … control.yield(.fix(fix)) … }
/// }
/// ```
package enum ReaderThread {
    /// What the read loop can do.
    package struct Control<Element: Sendable>: Sendable {
        let continuation: AsyncThrowingStream<Element, any Error>.Continuation
        let stopped: StopFlag

        /// Hands `element` to the consumer; never waits.
        package func yield(_ element: Element) {
            continuation.yield(element)
        }

        /// Whether the consumer has gone.
        package var isStopped: Bool { stopped.isSet }

        /// The flag behind ``isStopped``, for waits that should end as soon as it is set.
        package var stop: StopFlag { stopped }
    }

    /// Starts `loop` on a new thread and returns what it yields.
    package static func stream<Element: Sendable>(
        of: Element.Type = Element.self, name: String,
        _ loop: @escaping @Sendable (Control<Element>) throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: (any Error).self)
        let stopped = StopFlag()
        continuation.onTermination = { _ in stopped.set() }
        let control = Control(continuation: continuation, stopped: stopped)
        let body: @Sendable () -> Void = {
            do {
                try loop(control)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        if !startThread(name: name, body) {
            // No thread to be had: say so rather than hang.
            continuation.finish(throwing: ReaderThreadError.cannotStart(name: name))
        }
        return stream
    }
}

/// The system refused a thread for a reader.
package enum ReaderThreadError: Error, CustomStringConvertible {
    case cannotStart(name: String)

    package var description: String {
        switch self {
        case .cannotStart(let name): "cannot start a thread to read \(name); the system is out of threads or memory"
        }
    }
}

/// A flag set once, read from any thread, that also ends the reader's waits.
///
/// A reader blocks in `poll` on its device with ``descriptor`` beside it: the read end of a
/// pipe that becomes readable when the flag is set. So a reader needs no short timeout to
/// notice that its consumer has gone, and sleeps until its device speaks (one wake-up an
/// epoch, as gpsd has, rather than four a second).
package final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            (readEnd, writeEnd) = (ends[0], ends[1])
        } else {
            // Out of descriptors: waits then end only at their timeouts.
            (readEnd, writeEnd) = (-1, -1)
        }
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    package func set() {
        guard !flag.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    package var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Readable once the flag is set (to put in a `poll` beside the device); -1 when no pipe
    /// could be had, which `poll` ignores.
    package var descriptor: Int32 { readEnd }

    /// Sleeps for `duration`, or less once the flag is set; returns whether it is set.
    @discardableResult
    package func sleep(_ duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + duration
        while !isSet {
            let left = clock.now.duration(to: end)
            guard left > .zero else { break }
            _ = waitReadable(-1, timeout: left, unless: self)
        }
        return isSet
    }
}

/// Waits up to `timeout` for `fd` to be readable (or hung up, or in error), ending early once
/// `stop` is set: `fd`'s `revents`, 0 when the time ran out, the flag was set or a signal came.
/// A negative `fd` is not waited on (a sleep that a stop ends).
package func waitReadable(_ fd: Int32, timeout: Duration, unless stop: StopFlag?) -> Result<Int16, Errno> {
    var entries = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stop?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
    ]
    guard poll(&entries, 2, pollMilliseconds(timeout)) >= 0 else {
        return errno == EINTR ? .success(0) : .failure(Errno(rawValue: errno))
    }
    return .success(entries[0].revents)
}

/// `duration` in whole milliseconds for `poll`, rounded up, at least 1 and at most a minute.
package func pollMilliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(min(max(ms, 1), 60_000))
}

/// Runs `body` on a detached thread named `name` (as `top -H` and `/proc/PID/task` show it,
/// cut to 15 bytes); false if none could be created.
private func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, nil, readerThreadEntry, box) == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}

private final class ThreadBody {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, _ run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}

private func readerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
    nameThisThread(body.name)
    body.run()
    return nil
}

/// Names the calling thread: the kernel keeps 15 bytes (`pthread_setname_np` is not visible
/// to Swift without `_GNU_SOURCE`, so through `/proc/thread-self/comm`, as it does).
package func nameThisThread(_ name: String) {
    #if os(Linux)
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    #endif
}
