#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to standard error unbuffered, retrying interrupted writes.
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }
}
