import NMEA

/// What a serial receiver sent when `trackd sources` listened: its rate, and the talkers and
/// sentence types of the sentences with good checksums.
public struct SerialProbe: Sendable, Hashable {
    public var baud: BaudRate
    /// Talker ids seen (`GN`, `GP`, `GL`, …), sorted.
    public var talkers: [String]
    /// Sentence types seen (`GGA`, `RMC`, …; proprietary ones as `P` + maker), sorted.
    public var sentenceTypes: [String]

    /// Reads the talkers and sentence types out of `bytes` read at `baud`.
    public init(baud: BaudRate, bytes: [UInt8], allowMissingChecksum: Bool = false) {
        self.baud = baud
        var talkers = Set<String>()
        var types = Set<String>()
        var framer = NMEAFramer(allowMissingChecksum: allowMissingChecksum)
        bytes.withUnsafeBytes { raw in
            framer.append(raw) { event in
                guard case .sentence(let sentence) = event else { return }
                let address = Array(sentence.body.prefix { $0 != UInt8(ascii: ",") })
                if sentence.isProprietary {
                    types.insert(String(decoding: address.prefix(4), as: UTF8.self))
                } else if address.count == 5 {
                    talkers.insert(String(decoding: address.prefix(2), as: UTF8.self))
                    types.insert(String(decoding: address.suffix(3), as: UTF8.self))
                }
            }
        }
        self.talkers = talkers.sorted()
        self.sentenceTypes = types.sorted()
    }
}

extension SerialSource {
    /// Opens `path`, detects the receiver's baud rate, listens for `listening` more, and
    /// closes it: what `trackd sources` shows for a device.
    ///
    /// - Throws: the ``SourceError``s of the source's start; `CancellationError` when the task
    ///   is cancelled.
    public static func probe(
        path: String, listening: Duration = .seconds(2), allowMissingChecksum: Bool = false,
        detectionTimeout: Duration = .seconds(4), rememberedBaud: BaudRate? = nil
    ) async throws -> SerialProbe {
        let settings = SerialSettings(
            path: path, fixedBaud: nil, remembered: rememberedBaud,
            allowMissingChecksum: allowMissingChecksum, detectionTimeout: detectionTimeout)
        let counters = SerialCounters()
        let results = ReaderThread.stream(of: SerialProbe.self, name: "probe \(path)") { control in
            let session = SerialSession(settings, counters: counters)
            if let (rate, bytes) = try session.probeOnly(listening: listening, stop: control.stop) {
                control.yield(SerialProbe(baud: rate, bytes: bytes, allowMissingChecksum: allowMissingChecksum))
            }
        }
        for try await probe in results { return probe }
        throw CancellationError()
    }
}
