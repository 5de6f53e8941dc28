import Dispatch
import TrackStore

/// Runs the live view's store reads on a queue of their own, never on the task that asked.
///
/// A read is a blocking SQLite call (GRDB's `read` waits for its connection and the disk). Run
/// on a task, it would block a thread of Swift's cooperative pool, which has one thread per
/// core and also runs the recorder's pipeline, location manager and commits: a few pages
/// polling a slow SD card could hold them all. Here the task suspends while a serial dispatch
/// queue (threads of its own, outside the cooperative pool) reads, one read at a time.
final class StoreReader: Sendable {
    let store: TrackStore
    private let queue = DispatchQueue(label: "trackd.live-view.store")

    init(store: TrackStore) {
        self.store = store
    }

    /// `body`'s result, read from the store on the reader's queue.
    func read<T: Sendable>(_ body: @escaping @Sendable (TrackStore) throws -> T) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(store) })
            }
        }
    }
}
