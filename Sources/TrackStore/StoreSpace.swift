#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The free space a store's file system must have before SQLite's shared memory is used.
///
/// SQLite keeps the WAL index in `<store>-shm`, a file it maps into memory. It grows that
/// file by writing one byte at the end of each 4 KiB page and then writes the pages through
/// the mapping. On a file system whose blocks are smaller than a page (ext4 of less than
/// 512 MiB uses 1 KiB blocks), or with a file left sparse by a crash, the rest of the page is
/// a hole: when the disk is full, the first write to it cannot get a block and the kernel
/// sends SIGBUS, which kills the process before SQLite can report anything. With 9 to 11 KiB
/// free on an 8 MiB ext4, every `trackd tracks` died so (BENCHMARKS.md, "A full disk").
///
/// So trackd checks first: a reader uses the shared memory only when the space it may need
/// can be allocated (see ``ReadingMode`` for what it does otherwise), and a writer refuses to
/// open without that space and room for its first commits. `statvfs` alone cannot tell: ext4
/// counts as free the clusters it keeps for its own metadata (`reserved_clusters`, 163 KiB on
/// that 8 MiB disk), which no file can get. So the space is tried: an unnamed file
/// (`O_TMPFILE`) in the store's directory is given the bytes with `posix_fallocate` and
/// closed, which frees them. Where that cannot be tried (no write permission on the
/// directory, a file system without `O_TMPFILE`), `statvfs`'s count for unprivileged users
/// decides.
struct StoreSpace: Sendable, Hashable {
    /// Bytes free to unprivileged users on the file system of the store (`f_bavail`), for
    /// messages.
    var availableBytes: Int64
    /// Bytes the WAL index of the store's current WAL may need that its `-shm` file does not
    /// hold yet (0 when it is all allocated).
    var sharedMemoryShortfallBytes: Int64
    /// The store's page size, bytes.
    var pageSizeBytes: Int
    private var directory: String

    /// One region of the WAL index, bytes; it indexes 4096 WAL frames (the first one 4062).
    static let indexRegionBytes: Int64 = 32 << 10
    /// Frames the first region of the WAL index holds (its header takes the rest).
    static let framesInFirstRegion: Int64 = 4062
    /// What a file system may take beyond the data when a file grows (an extent block, a
    /// directory block), bytes.
    static let allocationMarginBytes: Int64 = 16 << 10
    /// WAL frames a recorder writes before the first automatic checkpoint moves them into
    /// the store (SQLite's `wal_autocheckpoint`, 1000 pages).
    static let framesBeforeCheckpoint: Int64 = 1000

    /// The space on the file system holding `storePath` (which need not exist yet).
    static func measure(storePath: String, pageSizeBytes defaultPageSize: Int) -> StoreSpace? {
        var info = statvfs()
        let target = fileExists(storePath) ? storePath : parentDirectory(of: storePath)
        guard statvfs(target, &info) == 0 else { return nil }
        let available = Int64(info.f_bavail) * Int64(info.f_frsize)
        let pageSize = walPageSize(storePath + "-wal") ?? defaultPageSize
        let wal = fileSizes(storePath + "-wal")
        let frames = max(0, ((wal?.size ?? 0) - 32) / Int64(pageSize + 24))
        let regions = 1 + frames / framesInFirstRegion
        let indexBytes = regions * indexRegionBytes
        let allocated = fileSizes(storePath + "-shm").map { min($0.size, $0.allocated) } ?? 0
        let shortfall = allocated >= indexBytes ? 0 : indexBytes - allocated + allocationMarginBytes
        return StoreSpace(
            availableBytes: available, sharedMemoryShortfallBytes: shortfall, pageSizeBytes: pageSize,
            directory: parentDirectory(of: storePath))
    }

    /// Whether SQLite can extend the `-shm` file and write it through its mapping.
    var allowsSharedMemory: Bool { sharedMemoryShortfallBytes == 0 || canAllocate(sharedMemoryShortfallBytes) }

    /// What a recorder needs free to start: the WAL index, and the WAL up to its first
    /// checkpoint (about 1 MiB with 1 KiB pages).
    var neededForRecording: Int64 {
        sharedMemoryShortfallBytes + Self.framesBeforeCheckpoint * Int64(pageSizeBytes + 24) + Self.allocationMarginBytes
    }

    /// What a command that changes tracks (`trackd delete`) needs free: the WAL index, and
    /// a WAL of a few hundred pages.
    var neededForChanging: Int64 {
        sharedMemoryShortfallBytes + 200 * Int64(pageSizeBytes + 24) + Self.allocationMarginBytes
    }

    /// Whether `bytes` can be allocated on the store's file system now, by this user.
    func canAllocate(_ bytes: Int64) -> Bool {
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; __O_TMPFILE is 020000000 on Linux's common
        // architectures (x86, arm, arm64, riscv), and the C macro is not imported.
        let fd = open(directory, O_RDWR | O_CLOEXEC | O_DIRECTORY | 0o20000000, 0o600)
        guard fd >= 0 else { return availableBytes >= bytes }
        defer { close(fd) }
        let result = posix_fallocate(fd, 0, off_t(bytes))
        switch result {
        case 0: return true
        case ENOSPC, EDQUOT, EFBIG: return false
        default: return availableBytes >= bytes
        }
    }
}

/// `bytes` for people: `812 KiB`, `1.1 MiB`.
func formatBytes(_ bytes: Int64) -> String {
    if bytes < 1 << 20 { return "\((bytes + 1023) / 1024) KiB" }
    let tenths = (bytes * 10 + (1 << 20) - 1) / (1 << 20)
    return "\(tenths / 10).\(tenths % 10) MiB"
}

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}

/// The size of the file at `path` and the bytes allocated to it; nil when it does not exist.
private func fileSizes(_ path: String) -> (size: Int64, allocated: Int64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (Int64(info.st_size), Int64(info.st_blocks) * 512)
}

/// The page size in a WAL header (bytes 8-11, big-endian); nil without a WAL. Read from the
/// WAL rather than the store: closing a descriptor of the store would drop the POSIX locks
/// that SQLite connections of this process hold on it.
private func walPageSize(_ path: String) -> Int? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = [0, 0, 0, 0]
    guard bytes.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 4, 8) }) == 4 else { return nil }
    let value = bytes.reduce(0) { $0 << 8 | Int($1) }
    return value >= 512 && value <= 65536 && value & (value - 1) == 0 ? value : nil
}

/// The directory holding `path`.
func parentDirectory(of path: String) -> String {
    let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return parent.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : parent
}
