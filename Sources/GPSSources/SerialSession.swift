import GPSCore
import NMEA

/// What a serial reader needs to know, handed to its thread.
struct SerialSettings: Sendable {
    var path: String
    /// The rate given by the user: only it is tried.
    var fixedBaud: BaudRate?
    var remembered: BaudRate?
    var allowMissingChecksum: Bool
    var detectionTimeout: Duration

    /// The rates to try, the rate in use (if any) first.
    func rates(first current: BaudRate?) -> [BaudRate] {
        if let fixedBaud { return [fixedBaud] }
        return BaudRate.detectionOrder(remembered: current ?? remembered)
    }
}

/// The blocking read loop of a ``SerialSource``, on its reader thread: open, detect the rate,
/// read and parse, and wait for the device after an unplug.
///
/// The waits are `poll`s on the device and the reader's ``StopFlag``, so that a consumer that
/// has gone is noticed at once, and that a receiver sending once a second wakes the thread
/// once a second. Time is read from `ContinuousClock`,
/// the source's clock, and handed to the pure policies (``BaudDetection``,
/// ``SerialWatchdog``) as durations.
final class SerialSession {
    /// The longest a read waits for bytes before the silence is looked at (the watchdog, the
    /// device node): 2 s, longer than a receiver's slowest usual rate of one epoch a second.
    static let readWait = Duration.seconds(2)
    /// The size of one read: more than a second of NMEA at 38400 baud, so that a backlog
    /// after a stall takes few reads.
    static let bufferBytes = 4096

    private let settings: SerialSettings
    private let counters: SerialCounters
    private var parser: NMEAParser
    /// The statistics of the parsers of earlier connections.
    private var earlier = NMEAStatistics()
    private var buffer = [UInt8](repeating: 0, count: SerialSession.bufferBytes)
    private let start = ContinuousClock.now
    /// Whether a `.lost` has been yielded and not yet followed by `.resumed`.
    private var isLost = false

    private var path: String { settings.path }

    init(_ settings: SerialSettings, counters: SerialCounters) {
        self.settings = settings
        self.counters = counters
        parser = NMEAParser(allowMissingChecksum: settings.allowMissingChecksum, satellites: true)
    }

    /// Opens the device and detects its rate; nil when the consumer stopped first.
    /// Detects the rate, then goes on listening for `listening`; the rate and every byte read
    /// at it. Nil when stopped.
    func probeOnly(listening: Duration, stop: StopFlag) throws(SourceError) -> (rate: BaudRate, bytes: [UInt8])? {
        let rates = settings.rates(first: nil)
        let port = try SerialPort.open(path, baud: rates.first ?? .b9600)
        defer { port.close() }
        switch try detect(port, rates: rates, stop: stop) {
        case .found(let rate, var bytes):
            let clock = ContinuousClock()
            let end = clock.now + listening
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
            defer { buffer.deallocate() }
            while clock.now < end, !stop.isSet {
                guard case .bytes(let n) = port.read(into: buffer, timeout: clock.now.duration(to: end), until: stop)
                else { continue }
                bytes += buffer.prefix(n)
            }
            return (rate, bytes)
        case .stopped: return nil
        case .gone(let reason): throw .cannotConfigure(path: path, reason: "it went away (\(reason)) while its baud rate was detected")
        }
    }

    /// Runs the source until the consumer stops.
    func run(_ control: ReaderThread.Control<SourceEvent>) throws(SourceError) {
        let rates = settings.rates(first: nil)
        var port = try SerialPort.open(path, baud: rates.first ?? .b9600)
        var captured: [UInt8]
        switch try detect(port, rates: rates, stop: control.stop) {
        case .found(_, let bytes): captured = bytes
        case .stopped: return
        case .gone(let reason):
            throw .cannotConfigure(path: path, reason: "it went away (\(reason)) while its baud rate was detected")
        }
        control.yield(.connected(connectedText(port.baud)))
        while true {
            captured.withUnsafeBytes { _ = parse($0, control) }
            guard let reason = readUntilGone(port, control) else { return }
            port.close()
            dropEpoch()
            if !isLost {
                isLost = true
                control.yield(.lost("\(path) was unplugged (\(reason)); waiting for it to come back"))
            }
            guard case let (again, bytes)? = reconnect(at: port.baud, control) else { return }
            port = again
            captured = bytes
            isLost = false
            counters.update { $0.reconnections += 1 }
            control.yield(.resumed(connectedText(port.baud)))
        }
    }

    private func connectedText(_ rate: BaudRate) -> String {
        "serial \(path) at \(rate.rawValue) baud"
    }

    private enum Detection {
        /// The rate that brought sentences, and every byte read at it.
        case found(BaudRate, [UInt8])
        case stopped
        case gone(String)
    }

    /// Tries `rates` in turn until one brings NMEA.
    ///
    /// - Throws: ``SourceError/noNMEAAtAnyBaud(device:rates:bytesSeen:sample:checksumless:)``
    ///   when none did; ``SourceError/cannotConfigure(path:reason:)`` when a rate cannot be set.
    private func detect(_ port: SerialPort, rates: [BaudRate], stop: StopFlag) throws(SourceError) -> Detection {
        var report = BaudSearchReport()
        for rate in rates {
            try port.setBaud(rate)
            var detection = BaudDetection(timeout: settings.detectionTimeout, allowMissingChecksum: settings.allowMissingChecksum)
            var captured: [UInt8] = []
            let begin = ContinuousClock.now
            while true {
                if stop.isSet { return .stopped }
                let left = settings.detectionTimeout - begin.duration(to: .now)
                let result = buffer.withUnsafeMutableBytes { port.read(into: $0, timeout: min(SerialSession.readWait, left), until: stop) }
                let verdict: BaudDetection.Verdict
                switch result {
                case .bytes(let count):
                    counters.update { $0.bytesRead += count }
                    captured += buffer[0..<count]
                    verdict = buffer.withUnsafeBytes { raw in
                        detection.observe(UnsafeRawBufferPointer(rebasing: raw[0..<count]), elapsed: begin.duration(to: .now))
                    }
                case .timeout:
                    verdict = detection.observeSilence(elapsed: begin.duration(to: .now))
                case .gone(let reason):
                    return .gone(reason)
                }
                if verdict == .accept {
                    counters.update { $0.baud = rate.rawValue }
                    return .found(rate, captured)
                }
                if verdict == .reject {
                    report.add(rate, detection)
                    break
                }
            }
        }
        throw report.error(device: path)
    }

    /// Reads and parses until the device goes away (returns why) or the consumer stops (nil).
    private func readUntilGone(_ port: SerialPort, _ control: ReaderThread.Control<SourceEvent>) -> String? {
        var watchdog = SerialWatchdog(now: elapsed())
        while !control.isStopped {
            let result = buffer.withUnsafeMutableBytes { port.read(into: $0, timeout: SerialSession.readWait, until: control.stop) }
            let change: SerialWatchdog.Change?
            switch result {
            case .bytes(let count):
                let sentences = buffer.withUnsafeBytes { raw in
                    parse(UnsafeRawBufferPointer(rebasing: raw[0..<count]), control)
                }
                change = watchdog.observe(bytes: count, sentences: sentences, now: elapsed())
            case .timeout:
                // A udev link goes when its device does, sometimes before the tty hangs up.
                if !DeviceWatcher.isPresent(path) { return "its device node is gone" }
                change = watchdog.observe(bytes: 0, sentences: 0, now: elapsed())
            case .gone(let reason):
                return reason
            }
            switch change {
            case .stalled(let bytes) where !isLost:
                isLost = true
                control.yield(.lost(bytes == 0
                    ? "\(path) has sent nothing for \(SerialWatchdog.stallAfter): is the receiver still powered?"
                    : "\(path) sends bytes but no NMEA (\(bytes) bytes in \(SerialWatchdog.stallAfter)): has the receiver been switched to binary output or another baud rate?"))
            case .garbled(let bytes):
                control.yield(.trouble(
                    "\(path) has sent \(bytes) bytes but no valid NMEA sentence for \(SerialWatchdog.garbageWarningAfter): "
                        + "a loose connection, another baud rate or binary output? trackd keeps reading"))
            case .recovered where isLost:
                isLost = false
                control.yield(.resumed(connectedText(port.baud)))
            default:
                break
            }
        }
        return nil
    }

    /// Parses `bytes`, yields the fixes completed, and returns how many sentences were accepted.
    private func parse(_ bytes: UnsafeRawBufferPointer, _ control: ReaderThread.Control<SourceEvent>) -> Int {
        let before = parser.statistics.sentences
        var fixes: [Fix] = []
        parser.parse(bytes) { fixes.append($0) }
        let statistics = earlier.adding(parser.statistics)
        // The counts are in place before the fixes are handed over.
        counters.update { $0.nmea = statistics }
        for fix in fixes { control.yield(.fix(fix)) }
        return parser.statistics.sentences - before
    }

    /// Forgets the epoch being assembled and any cut-off sentence: a new parser.
    private func dropEpoch() {
        earlier = earlier.adding(parser.statistics)
        parser = NMEAParser(allowMissingChecksum: settings.allowMissingChecksum, satellites: true)
    }

    /// Waits for the device to be back and bring NMEA again, at `rate` first; nil when the
    /// consumer stopped first.
    ///
    /// Opening may fail for a while after the node appears (udev has not yet set its group,
    /// ModemManager probes a new ttyACM: EACCES, EBUSY); a receiver may take seconds to talk
    /// after power-up. All of that is waited out, looking again every
    /// ``DeviceWatcher/pollInterval``.
    private func reconnect(at rate: BaudRate, _ control: ReaderThread.Control<SourceEvent>) -> (SerialPort, [UInt8])? {
        while DeviceWatcher.waitUntilPresent(path, stop: control.stop) {
            if let port = try? SerialPort.open(path, baud: rate) {
                let outcome = try? detect(port, rates: settings.rates(first: rate), stop: control.stop)
                switch outcome {
                case .found(_, let bytes)?: return (port, bytes)
                case .stopped?: return nil
                case .gone?, nil: port.close()
                }
            }
            control.stop.sleep(DeviceWatcher.pollInterval)
        }
        return nil
    }

    private func elapsed() -> Duration {
        start.duration(to: .now)
    }
}

extension NMEAStatistics {
    /// These counts and `other`'s together.
    func adding(_ other: NMEAStatistics) -> NMEAStatistics {
        var sum = self
        sum.sentences += other.sentences
        sum.decoded += other.decoded
        sum.skipped += other.skipped
        sum.fixes += other.fixes
        sum.rejected.merge(other.rejected, uniquingKeysWith: +)
        return sum
    }
}
