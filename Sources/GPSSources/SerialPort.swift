import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A serial device open for reading as a raw line at a set baud rate; closes its descriptor
/// when closed or dropped.
///
/// Raw mode (`cfmakeraw`) passes every byte through as received: no echo, no line editing,
/// no CR/LF translation, no flow control characters; a byte with a framing error (a wrong
/// baud rate) reads as NUL. `CLOCAL` ignores the modem lines and `CREAD` enables the receiver.
/// The descriptor is non-blocking and read after `poll`, so `VMIN` and `VTIME` are 1 and 0:
/// a read returns what has arrived.
///
/// A class so that a port abandoned half way (the reader thread returned or threw) still
/// closes, in `deinit`. Used on one thread at a time.
final class SerialPort {
    let path: String
    private(set) var baud: BaudRate
    private var descriptor: FileDescriptor?

    private init(path: String, baud: BaudRate, descriptor: FileDescriptor) {
        self.path = path
        self.baud = baud
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Opens `path` (following symbolic links such as /dev/serial/by-id/… or /dev/gps0) and
    /// sets it to raw mode at `baud`.
    ///
    /// - Throws: ``SourceError/noDevice(path:)``, ``SourceError/deviceBusy(path:)``,
    ///   ``SourceError/permissionDenied(path:)``, ``SourceError/notATerminal(path:)``,
    ///   ``SourceError/cannotConfigure(path:reason:)``.
    static func open(_ path: String, baud: BaudRate) throws(SourceError) -> SerialPort {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                FilePath(path), .readOnly, options: [SerialPort.noControllingTerminal, .nonBlocking, .closeOnExec],
                retryOnInterrupt: true)
        } catch let error as Errno {
            throw openError(error, path: path)
        } catch {
            throw .cannotConfigure(path: path, reason: describeSystemError(error))
        }
        let port = SerialPort(path: path, baud: baud, descriptor: fd)
        var settings = termios()
        guard tcgetattr(fd.rawValue, &settings) == 0 else {
            let error = Errno(rawValue: errno)
            port.close()
            throw error == .inappropriateIOCTLForDevice ? .notATerminal(path: path) : .cannotConfigure(path: path, reason: describeSystemError(error))
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        do {
            try port.apply(&settings, baud: baud)
        } catch {
            port.close()
            throw error
        }
        return port
    }

    /// `O_NOCTTY`, which swift-system has but does not make public: a tty opened by a
    /// process without a controlling terminal (a daemon) must not become its terminal, or a
    /// hang-up of the receiver would send trackd SIGHUP.
    static let noControllingTerminal = FileDescriptor.OpenOptions(rawValue: O_NOCTTY)

    /// The error for a failed `open(2)`: the three a user can act on by name, the system's
    /// reason for the rest.
    static func openError(_ error: Errno, path: String) -> SourceError {
        switch error {
        case .noSuchFileOrDirectory, .noSuchAddressOrDevice, .operationNotSupportedByDevice: .noDevice(path: path)
        case .resourceBusy: .deviceBusy(path: path)
        case .permissionDenied, .notPermitted: .permissionDenied(path: path)
        default: .cannotConfigure(path: path, reason: describeSystemError(error))
        }
    }

    /// Sets the line to `rate`; bytes received at the old rate and not yet read are dropped
    /// (they would be garbage at the new one). Setting the rate it already has does nothing.
    ///
    /// - Throws: ``SourceError/cannotConfigure(path:reason:)``.
    func setBaud(_ rate: BaudRate) throws(SourceError) {
        guard rate != baud, let descriptor else { return }
        var settings = termios()
        guard tcgetattr(descriptor.rawValue, &settings) == 0 else {
            throw .cannotConfigure(path: path, reason: describeSystemError(Errno(rawValue: errno)))
        }
        try apply(&settings, baud: rate)
        tcflush(descriptor.rawValue, TCIFLUSH)
    }

    private func apply(_ settings: inout termios, baud rate: BaudRate) throws(SourceError) {
        guard let descriptor else { return }
        let speed = SerialPort.speed(rate)
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0,
              tcsetattr(descriptor.rawValue, TCSANOW, &settings) == 0
        else {
            throw .cannotConfigure(path: path, reason: describeSystemError(Errno(rawValue: errno)))
        }
        baud = rate
    }

    /// The termios speed constant for `rate`.
    static func speed(_ rate: BaudRate) -> speed_t {
        switch rate {
        case .b4800: speed_t(B4800)
        case .b9600: speed_t(B9600)
        case .b19200: speed_t(B19200)
        case .b38400: speed_t(B38400)
        case .b57600: speed_t(B57600)
        case .b115200: speed_t(B115200)
        case .b230400: speed_t(B230400)
        }
    }

    /// What one wait and read gave.
    enum ReadResult: Equatable {
        /// Bytes arrived: this many, at the start of the buffer.
        case bytes(Int)
        /// Nothing within the timeout.
        case timeout
        /// The device went away: unplugged (EIO, hang-up, end of file) or closed.
        case gone(String)
    }

    /// Waits up to `timeout` for bytes and reads what has arrived into `buffer`. Retries on EINTR.
    /// Returns ``ReadResult/timeout`` at once when `stop` is set.
    func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, until stop: StopFlag? = nil) -> ReadResult {
        guard let descriptor else { return .gone("closed") }
        let revents: Int16
        switch waitReadable(descriptor.rawValue, timeout: timeout, unless: stop) {
        case .failure(let error): return .gone("poll: " + describeSystemError(error))
        case .success(let events): revents = events
        }
        // Nothing from the device (a timeout, or the stop flag set): the caller looks again.
        if revents == 0 { return .timeout }
        if revents & Int16(POLLNVAL) != 0 { return .gone("poll: not open") }
        // On POLLHUP or POLLERR, read anyway: it returns what is left, then 0 or EIO.
        do {
            let count = try descriptor.read(into: buffer, retryOnInterrupt: true)
            return count > 0 ? .bytes(count) : .gone("end of file: hung up")
        } catch Errno.wouldBlock {
            return revents & Int16(POLLHUP | POLLERR) != 0 ? .gone("hung up") : .timeout
        } catch {
            return .gone("read: " + describeSystemError(error))
        }
    }

    /// Closes the descriptor; later reads find it gone.
    func close() {
        try? descriptor?.close()
        descriptor = nil
    }

}
