import Synchronization

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

/// A flag set once, read from any thread.
package final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package func set() { flag.store(true, ordering: .releasing) }

    package var isSet: Bool { flag.load(ordering: .acquiring) }
}

/// Runs `body` on a detached thread; false if none could be created.
private func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, nil, readerThreadEntry, box) == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

private func readerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
