/// How a store is opened. The defaults are what `trackd` uses.
public struct StoreOptions: Sendable, Hashable {
    /// SQLite's `synchronous` setting on the recorder's connection.
    public enum Synchronous: String, Sendable, Hashable, CaseIterable {
        /// The WAL is synced only at checkpoints: fewer syncs, but a power cut can lose every
        /// commit since the last checkpoint (up to 1000 pages: many minutes of points).
        case normal = "NORMAL"
        /// The WAL is synced at every commit: a power cut loses at most the last batch. The
        /// recorder commits once a second, so this costs one sync a second whatever the fix
        /// rate (measured in BENCHMARKS.md, "Store durability").
        case full = "FULL"
    }

    /// Default ``Synchronous/full``.
    public var synchronous: Synchronous = .full
    /// How long to wait for another process's lock on the database, seconds. Default 5.
    public var busyTimeoutSeconds: Double = 5
    /// The WAL is truncated to this size after a checkpoint, bytes. Default 4 MiB.
    public var journalSizeLimitBytes = 4 << 20
    /// The page size of a new store, bytes (512 to 65536, a power of two). Default 1024:
    /// a one-second commit writes a few pages, so small pages cut what reaches the storage.
    public var pageSizeBytes = 1024
    /// SQLite's `max_page_count`: the store cannot grow beyond this many pages (SQLite then
    /// fails as on a full disk). `nil`: no limit.
    public var maximumPageCount: Int?

    public init() {}
}
