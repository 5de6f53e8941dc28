/// What went wrong with a track store, where, and what to do about it.
///
/// Every case names the store's path. None of them loses what was committed before: the
/// store is never modified or deleted on an error.
public enum StoreError: Error, Hashable, CustomStringConvertible {
    /// There is no store at the path (reading commands only; recording creates one).
    case noStore(path: String)
    /// The store, or its directory, could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The store cannot be written: a read-only file, directory or file system.
    case notWritable(path: String, reason: String)
    /// The file is not a trackd store: not SQLite at all, or another program's database.
    case notATrackStore(path: String, reason: String)
    /// The store was written by a newer trackd whose schema this one does not know.
    case newerSchema(path: String)
    /// SQLite found the file damaged.
    case damaged(path: String, detail: String)
    /// The disk is full; `pending` points and fixes are held in memory, not written.
    case diskFull(path: String, pending: Int)
    /// The disk holding the store has too little free space to open it for writing:
    /// `availableBytes` are free, `neededBytes` are needed. Nothing was written.
    case notEnoughSpace(path: String, availableBytes: Int64, neededBytes: Int64)
    /// Another recorder holds the store.
    case inUse(path: String, holder: String)
    /// The store file has `links` names (hard links). SQLite keeps the WAL beside the name
    /// a store is opened by, so commits made through one name are invisible through another,
    /// and writing through two names can mix their WALs. `recorder` (`pid N`) is recording
    /// through another name, when one is.
    case hardLinked(path: String, links: Int, recorder: String?)
    /// No track has that id.
    case noSuchTrack(id: Int64, path: String)
    /// The store holds no track yet.
    case noTracks(path: String)
    /// The track is being recorded by a running recorder; `holder` is `pid N` when known.
    case trackIsRecording(id: Int64, path: String, holder: String)
    /// Any other SQLite failure, with SQLite's message.
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .noStore(let path):
            "no track store at \(path); record a track first with `trackd record`, or give --store the path of an existing store"
        case .cannotOpen(let path, let reason):
            "cannot open the track store \(path): \(reason); check that its directory exists and that you may write there, or give --store another path"
        case .notWritable(let path, let reason):
            "the track store \(path) is not writable (\(reason)); check the permissions of the file and its directory, or give --store a writable path"
        case .notATrackStore(let path, let reason):
            "\(path) is not a trackd track store (\(reason)); give --store a new file name, or move that file away"
        case .newerSchema(let path):
            "the track store \(path) was written by a newer trackd; upgrade trackd to read it (nothing was changed)"
        case .damaged(let path, let detail):
            "the track store \(path) is damaged (\(detail)); `trackd export` may still read its undamaged tracks; stop trackd, copy the file away, and salvage it with `sqlite3 \(path) .recover`; record into a new --store meanwhile"
        case .notEnoughSpace(let path, let available, let needed):
            "the disk holding the track store \(path) is full: \(formatBytes(available)) free, and trackd needs \(formatBytes(needed)) there to write to the store; free some space (everything committed is intact, and `trackd tracks` and `trackd export` still read it)"
        case .diskFull(let path, let pending):
            "the disk holding \(path) is full; \(pending) points and fixes could not be written (everything committed before is intact); free some space"
        case .inUse(let path, let holder):
            "another trackd is recording into \(path) (\(holder)); stop it first (systemctl stop trackd, or Ctrl-C in its terminal), or give --store another file"
        case .hardLinked(let path, let links, let recorder?):
            "another trackd (\(recorder)) is recording into the track store \(path) through another of its \(links) names (hard links), and its newest commits cannot be seen through this one, so nothing is changed; stop the recorder first (systemctl stop trackd, or Ctrl-C in its terminal); then keep one name (remove the other links, or use a symbolic link instead)"
        case .hardLinked(let path, let links, nil):
            "the track store \(path) has \(links) names (hard links); SQLite keeps the store's WAL beside the name it is opened by, so writing through two names can lose or mix commits, and trackd writes only to a store with one name; remove the other links (or use a symbolic link instead), then try again"
        case .noSuchTrack(let id, let path):
            "there is no track \(id) in \(path); `trackd tracks` lists the tracks there"
        case .noTracks(let path):
            "the track store \(path) holds no track yet; record one with `trackd record`"
        case .trackIsRecording(let id, let path, let holder):
            "track \(id) in \(path) is being recorded right now (by trackd, \(holder)); stop the recorder first (systemctl stop trackd, or Ctrl-C in its terminal), then delete it"
        case .failed(let path, let reason):
            "the track store \(path) failed: \(reason)"
        }
    }
}
