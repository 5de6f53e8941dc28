#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a consumer of batches on a thread of its own, fed through a small bounded queue.
///
/// `trackd convert` parses on the calling thread and formats and writes GPX here, so on a
/// multi-core machine (every Raspberry Pi since the 2) the two halves overlap. The queue holds
/// at most ``capacity`` batches: memory stays bounded, and a slow disk slows the parser
/// instead of filling memory. The consumer's first error stops it; ``put(_:)`` then returns
/// false and ``finish()`` rethrows the error.
final class WriterThread: @unchecked Sendable {
    typealias Batch = [ConversionItem]
    typealias Failure = CLIError

    /// Batches waiting at most: enough to ride out a slow write, small enough to stay flat.
    let capacity: Int

    // State shared between the threads, guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Batch] = []
    private var closed = false
    private var failure: Failure?

    private let consume: (Batch) throws(Failure) -> Void
    private var thread = pthread_t()
    private var started = false

    /// Starts the thread; `consume` is called on it for each batch, in order.
    init(capacity: Int = 4, consume: @escaping (Batch) throws(Failure) -> Void) {
        self.capacity = capacity
        self.consume = consume
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        queue.reserveCapacity(capacity)
    }

    /// Starts the thread. Without one (the system refuses), batches are consumed on the
    /// caller's thread instead.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        started = pthread_create(&thread, nil, writerThreadEntry, context) == 0
        if !started {
            Unmanaged<WriterThread>.fromOpaque(context).release()
        }
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Hands a batch over, waiting while the queue is full. Returns false once the consumer
    /// has failed: the caller should stop and call ``finish()`` for the error.
    @discardableResult
    func put(_ batch: Batch) -> Bool {
        guard started else {
            guard failure == nil else { return false }
            do { try consume(batch) } catch { failure = error }
            return failure == nil
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while queue.count >= capacity && failure == nil {
            pthread_cond_wait(changed, mutex)
        }
        guard failure == nil else { return false }
        queue.append(batch)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Waits until every batch is consumed and the thread has ended; rethrows its error.
    func finish() throws(Failure) {
        if started {
            pthread_mutex_lock(mutex)
            closed = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
            pthread_join(thread, nil)
            started = false
        }
        if let failure { throw failure }
    }

    fileprivate func loop() {
        while true {
            pthread_mutex_lock(mutex)
            while queue.isEmpty && !closed {
                pthread_cond_wait(changed, mutex)
            }
            if queue.isEmpty {
                pthread_mutex_unlock(mutex)
                return
            }
            let batch = queue.removeFirst()
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
            do {
                try consume(batch)
            } catch {
                pthread_mutex_lock(mutex)
                failure = error
                queue.removeAll()
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(mutex)
                return
            }
        }
    }
}

private func writerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WriterThread>.fromOpaque(context).takeRetainedValue().loop()
    return nil
}
