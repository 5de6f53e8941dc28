#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that runs every task of a recording and its timers: the pipeline, the location
/// manager, the recorder and the status line.
///
/// On Swift's global pool a fix went from the reader thread to one pool thread, which woke a
/// second for the manager's events, and each `Task.sleep` went through libdispatch's timer
/// thread and woke two pool threads more: 18 wake-ups a second at 1 Hz where gpsd and
/// gpxlogger together have 3. A recording's work is a few milliseconds a second, in
/// sequence, so one thread that sleeps until a job or a timer is due serves it with one
/// wake-up for each, as an event loop does. Blocking work on it (a commit's sync) delays the
/// next fix by that long and never loses it: fixes wait in the source's stream.
///
/// `trackd record` from a live receiver runs with it as the task executor preference
/// (`withTaskExecutorPreference`, which child tasks inherit; the unstructured tasks of the
/// pipeline and the recorder are given it by name), and gives the timers a ``Sleeper``,
/// whose sleeps are kept here rather than by libdispatch.
package final class RecordingThread: TaskExecutor, @unchecked Sendable {
    /// The process's recording thread; nil when the system refused a thread (the recording
    /// then runs on Swift's global executor and `ContinuousClock`).
    package static let shared = RecordingThread(name: "trackd record")

    /// A clock that reads `ContinuousClock` and sleeps on this thread.
    package struct Sleeper: Clock {
        package typealias Duration = Swift.Duration
        package typealias Instant = ContinuousClock.Instant
        package let thread: RecordingThread

        package init(thread: RecordingThread) { self.thread = thread }

        package var now: Instant { ContinuousClock.now }
        package var minimumResolution: Duration { .milliseconds(1) }

        package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try await thread.sleep(until: deadline)
        }
    }

    private struct Timer {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    // Guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []
    private var nextTimerID: UInt64 = 0
    /// Timers cancelled before they were set: their sleep ends at once.
    private var cancelledEarly: Set<UInt64> = []
    private let name: String

    /// Starts a thread named `name`; nil if none could be had. It lives as long as the process.
    package init?(name: String) {
        self.name = name
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, recordingThreadEntry, context) == 0 else {
            Unmanaged<RecordingThread>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(thread)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
    }

    /// Suspends the calling task until `deadline`; throws `CancellationError` when the task
    /// is cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        pthread_mutex_lock(mutex)
        nextTimerID += 1
        let id = nextTimerID
        pthread_mutex_unlock(mutex)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pthread_mutex_lock(mutex)
                if cancelledEarly.remove(id) != nil {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(throwing: CancellationError())
                    return
                }
                timers.append(Timer(id: id, deadline: deadline, continuation: continuation))
                pthread_cond_signal(wake)
                pthread_mutex_unlock(mutex)
            }
        } onCancel: {
            pthread_mutex_lock(mutex)
            if let index = timers.firstIndex(where: { $0.id == id }) {
                let timer = timers.remove(at: index)
                pthread_mutex_unlock(mutex)
                timer.continuation.resume(throwing: CancellationError())
            } else {
                // Not set yet (or already fired: then the mark is never looked at again).
                cancelledEarly.insert(id)
                pthread_mutex_unlock(mutex)
            }
        }
        // A timer that fired after its task was cancelled leaves a mark: drop it.
        pthread_mutex_lock(mutex)
        cancelledEarly.remove(id)
        pthread_mutex_unlock(mutex)
    }

    fileprivate func loop() {
        nameThisThread(name)
        var batch: [UnownedJob] = []
        var due: [Timer] = []
        let executor = asUnownedTaskExecutor()
        pthread_mutex_lock(mutex)
        while true {
            let now = ContinuousClock.now
            timers.removeAll { timer in
                guard timer.deadline <= now else { return false }
                due.append(timer)
                return true
            }
            if jobs.isEmpty && due.isEmpty {
                if let next = Self.wakeTime(timers.map(\.deadline)) {
                    // The condition waits on CLOCK_MONOTONIC, ContinuousClock is CLOCK_BOOTTIME:
                    // they differ only across a suspend, after which a wait ends late (by
                    // what was left of it), never early; deadlines are looked at again.
                    var until = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &until)
                    add(now.duration(to: next), to: &until)
                    pthread_cond_timedwait(wake, mutex, &until)
                } else {
                    pthread_cond_wait(wake, mutex)
                }
                continue
            }
            swap(&batch, &jobs)
            pthread_mutex_unlock(mutex)
            // Resuming a sleeper enqueues its task here: it runs in the next batch.
            for timer in due { timer.continuation.resume() }
            due.removeAll(keepingCapacity: true)
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
            pthread_mutex_lock(mutex)
        }
    }
}

extension RecordingThread {
    /// How late a timer may fire so that it fires with another: the manager's tick and the
    /// recorder's commit, both once a second, then cost one wake-up, not two.
    package static let coalescing = Duration.milliseconds(50)

    /// When to wake for `deadlines`: the latest of them within ``coalescing`` of the
    /// earliest, so that those fire together. Never before a deadline: a timer fires late
    /// by at most ``coalescing``, never early.
    package static func wakeTime(_ deadlines: [ContinuousClock.Instant]) -> ContinuousClock.Instant? {
        guard let first = deadlines.min() else { return nil }
        return deadlines.filter { $0 <= first + coalescing }.max()
    }
}

/// Adds `duration` (rounded up to a nanosecond) to `time`.
private func add(_ duration: Duration, to time: inout timespec) {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = (attoseconds + 999_999_999) / 1_000_000_000
    time.tv_sec += Int(seconds)
    time.tv_nsec += Int(nanoseconds)
    if time.tv_nsec >= 1_000_000_000 {
        time.tv_sec += 1
        time.tv_nsec -= 1_000_000_000
    }
}

private func recordingThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<RecordingThread>.fromOpaque(context).takeRetainedValue().loop()
    return nil
}
