#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `body` on a detached thread of its own; false if the system refused one.
///
/// ALSA writes block for as long as the device takes (forever, for a stalled one): on the
/// concurrency pool they would hold one of its few threads (two on a Pi Zero 2) and the
/// location manager would wait. The same pattern as GPSSources' ReaderThread.
func startPlaybackThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, nil, playbackThreadEntry, box) == 0 else {
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

private func playbackThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
    return nil
}

/// A counting semaphore the playback thread sleeps on: `signal` never waits, so the caller
/// of ``ChimePlayer/play(_:)`` never does either.
final class Wakeup: @unchecked Sendable {
    // @unchecked: a POSIX semaphore may be posted and waited on from any thread; the
    // pointer is never reassigned and is freed only when no thread can hold a reference.
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        // Fails only for a value above SEM_VALUE_MAX; 0 is not.
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes the thread once; returns at once.
    func signal() {
        sem_post(semaphore)
    }

    /// Sleeps until signalled (once per signal), through interrupting signals.
    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
