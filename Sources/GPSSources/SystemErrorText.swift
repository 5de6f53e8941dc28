import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A message for a system error, for error reasons: `No such file or directory (ENOENT)`.
package func describeSystemError(_ error: any Error) -> String {
    guard let errno = error as? Errno else { return "\(error)" }
    return "\(String(cString: strerror(errno.rawValue))) (\(errnoName(errno)))"
}

/// The symbolic name of the errors a reader or writer of files meets; the number for the rest.
private func errnoName(_ e: Errno) -> String {
    switch e {
    case .noSuchFileOrDirectory: "ENOENT"
    case .permissionDenied: "EACCES"
    case .isDirectory: "EISDIR"
    case .notDirectory: "ENOTDIR"
    case .noSpace: "ENOSPC"
    case .ioError: "EIO"
    case .readOnlyFileSystem: "EROFS"
    case .tooManyOpenFiles: "EMFILE"
    case .fileExists: "EEXIST"
    case .resourceBusy: "EBUSY"
    case .fileNameTooLong: "ENAMETOOLONG"
    case .tooManySymbolicLinkLevels: "ELOOP"
    default: "errno \(e.rawValue)"
    }
}
