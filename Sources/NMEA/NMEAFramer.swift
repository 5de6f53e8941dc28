/// One framed sentence, borrowed from the framer's buffer for the duration of a callback.
///
/// `body` holds the bytes between the start character (`$` or `!`) and the `*`: the
/// address and the fields, `GPGGA,030719.000,3747.0873,S,...`. Copy what you need to keep.
public struct RawSentence {
    /// The bytes between the start character and the `*` (or the line end, when the sentence had no checksum).
    public var body: UnsafeRawBufferPointer
    /// `true` for `!` sentences (AIS and other encapsulated data), `false` for `$`.
    public var isEncapsulated: Bool
    /// Whether the sentence carried a checksum (always verified when present).
    public var hasChecksum: Bool
    /// The checksum the sentence carried, when it had one.
    public var checksum: UInt8

    /// The sentence as it was sent (`$GPGGA,...*7D`), for messages and echoing.
    public var text: String {
        var s = isEncapsulated ? "!" : "$"
        s += String(decoding: body, as: UTF8.self)
        if hasChecksum { s += "*" + hex(checksum) }
        return s
    }

    /// Whether this is a proprietary sentence (`$P...`).
    public var isProprietary: Bool {
        !isEncapsulated && body.first == UInt8(ascii: "P")
    }
}

/// What the framer found.
public enum FramerEvent {
    /// A well-framed sentence with a correct checksum (or none, when allowed).
    case sentence(RawSentence)
    /// Bytes that looked like a sentence but were rejected; counted, then skipped.
    case rejected(NMEAError)
}

/// Cuts an arbitrary stream of bytes into NMEA 0183 sentences and verifies their checksums.
///
/// Feed it chunks of any size as they arrive: a sentence may be split across reads.
/// It copes with what real receivers and logs contain:
/// - line ends CR, LF, CRLF or mixed, or none between sentences (`...*7D$GPRMC`);
/// - noise before the start character (`r$GPRMC`, `$$GNGSA`), NUL and binary junk;
/// - `#` comment lines at the start of a line (gpsd's log headers), skipped;
/// - lines longer than ``maximumSentenceLength`` bytes, rejected without growing the buffer;
/// - `!AIVDM` encapsulated sentences and proprietary `$P...` sentences, framed and
///   checksummed like the others (the decoder skips them).
///
/// **Checksums.** A sentence whose `*hh` does not match is rejected as `badChecksum`.
/// A sentence without a checksum (some old receivers send none: an HP 58534A, for one) is
/// rejected as `missingChecksum` by default, because a line cut off by an unplug or a
/// buffer overrun looks exactly like it; set `allowMissingChecksum` for such receivers.
///
/// Memory is bounded by ``maximumSentenceLength``; no allocation per sentence.
public struct NMEAFramer {
    /// The longest sentence body accepted, in bytes. NMEA 0183 allows 82 characters in all,
    /// but real receivers exceed it (u-blox `PUBX`, Trimble `PTNL`, NMEA 4.11 GSV);
    /// 250 leaves room for them and still bounds the buffer.
    public static let maximumSentenceLength = 250

    /// Bit n set when byte 0x20 + n ends a sentence body: `!` (0x21), `$` (0x24), `*` (0x2A).
    private static let stoppers: UInt16 = 1 << 1 | 1 << 4 | 1 << 10

    /// Accept sentences that carry no `*hh` checksum (see the type's discussion).
    public var allowMissingChecksum: Bool

    private enum State: UInt8 {
        case seekStart, comment, body, checksumHigh, checksumLow, afterChecksum, discardLine
    }

    private var state: State = .seekStart
    private var atLineStart = true
    private var isEncapsulated = false
    private var length = 0
    private var sum: UInt8 = 0
    private var checksumHigh: UInt8 = 0
    private var buffer: [UInt8]

    /// A framer with no buffer, to stand in while the real one is moved out to work.
    static var detached: NMEAFramer { NMEAFramer(allowMissingChecksum: false, capacity: 0) }

    public init(allowMissingChecksum: Bool = false) {
        self.init(allowMissingChecksum: allowMissingChecksum, capacity: NMEAFramer.maximumSentenceLength)
    }

    private init(allowMissingChecksum: Bool, capacity: Int) {
        self.allowMissingChecksum = allowMissingChecksum
        self.buffer = [UInt8](repeating: 0, count: capacity)
    }

    /// Frames `chunk`, calling `handler` for every sentence completed or rejected in it.
    ///
    /// The `RawSentence` passed to `handler` is only valid during the call.
    public mutating func append(_ chunk: UnsafeRawBufferPointer, _ handler: (FramerEvent) -> Void) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = chunk.count
        let allowMissing = allowMissingChecksum
        let capacity = NMEAFramer.maximumSentenceLength
        let before = Registers(
            state: state, atLineStart: atLineStart, length: length, sum: sum, high: checksumHigh,
            encapsulated: isEncapsulated)

        // The scanning state lives in locals of the closure, not captured variables, so the
        // hot loop keeps it in registers; it goes back into `self` once per chunk.
        let after = buffer.withUnsafeMutableBufferPointer { storage -> Registers in
            guard let buf = storage.baseAddress else { return before }
            var state = before.state
            var atLineStart = before.atLineStart
            var length = before.length
            var sum = before.sum
            var high = before.high
            var encapsulated = before.encapsulated
            var i = 0
            while i < count {
                switch state {
                case .seekStart:
                    // Skip to the next start character, noting line starts for comments.
                    while i < count {
                        let b = base[i]
                        if b == 0x24 || b == 0x21 {  // $ !
                            encapsulated = b == 0x21
                            length = 0
                            sum = 0
                            state = .body
                            // Whatever follows on this line is not at its start: a `#` after
                            // a cut-off `*` (`$GPBOD,,T,,M,,*#`) is noise, not a comment.
                            atLineStart = false
                            i += 1
                            break
                        }
                        if b == 0x0A || b == 0x0D {
                            atLineStart = true
                        } else if b == 0x23 && atLineStart {  // #
                            state = .comment
                            i += 1
                            break
                        } else {
                            atLineStart = false
                        }
                        i += 1
                    }

                case .comment, .discardLine:
                    while i < count {
                        let b = base[i]
                        if b == 0x0A || b == 0x0D {
                            atLineStart = true
                            state = .seekStart
                            i += 1
                            break
                        }
                        if state == .discardLine && (b == 0x24 || b == 0x21) {
                            state = .seekStart  // reprocess the start character
                            break
                        }
                        i += 1
                    }

                case .body:
                    // The hot loop: copy and checksum printable bytes up to '*'.
                    var b: UInt8 = 0
                    var stopped = false
                    let end = min(count, i + (capacity - length))
                    while i < end {
                        b = base[i]
                        // Stop at a control or non-ASCII byte, or at '!' '$' '*' (bits 1, 4 and
                        // 10 of `stoppers`, counting from 0x20): one compare for most bytes.
                        let offset = b &- 0x20
                        if offset > 0x5E || (offset < 0x10 && (NMEAFramer.stoppers >> offset) & 1 != 0) {
                            stopped = true
                            break
                        }
                        buf[length] = b
                        length &+= 1
                        sum ^= b
                        i &+= 1
                    }
                    if !stopped && i < count {
                        // The buffer is full: the sentence may still end right here.
                        b = base[i]
                        let offset = b &- 0x20
                        stopped = offset > 0x5E || (offset < 0x10 && (NMEAFramer.stoppers >> offset) & 1 != 0)
                    }
                    if !stopped && i < count {
                        // Filled the buffer with the sentence still going.
                        handler(.rejected(.overlong(
                            prefix: printable(UnsafeRawBufferPointer(start: buf, count: min(length, 20))),
                            length: capacity)))
                        state = .discardLine
                        atLineStart = false
                        break
                    }
                    if !stopped { break }
                    let body = UnsafeRawBufferPointer(start: buf, count: length)
                    if b == 0x2A {  // '*'
                        state = .checksumHigh
                        i += 1
                    } else if b == 0x0A || b == 0x0D {
                        // Line end without a checksum.
                        if length > 0 {
                            if allowMissing {
                                NMEAFramer.finish(body, encapsulated, hasChecksum: false, 0, handler)
                            } else {
                                handler(.rejected(.missingChecksum(sentence: NMEAFramer.text(body, encapsulated))))
                            }
                        }
                        state = .seekStart
                        atLineStart = true
                        i += 1
                    } else if b == 0x24 || b == 0x21 {
                        // A new sentence interrupts this one: it was cut off.
                        if length > 0 {
                            handler(.rejected(.garbled(prefix: printable(body, limit: 40))))
                        }
                        state = .seekStart  // reprocess the start character
                    } else {
                        // Control or non-ASCII byte inside a sentence.
                        if length > 0 {
                            handler(.rejected(.garbled(prefix: printable(body, limit: 40))))
                        }
                        state = .seekStart
                        atLineStart = false
                        i += 1
                    }

                case .checksumHigh:
                    let b = base[i]
                    if let v = hexValue(b) {
                        high = v
                        state = .checksumLow
                        i += 1
                    } else {
                        let body = UnsafeRawBufferPointer(start: buf, count: length)
                        handler(.rejected(.missingChecksum(sentence: NMEAFramer.text(body, encapsulated) + "*")))
                        state = .seekStart  // reprocess b: it may be a line end or a '$'
                    }

                case .afterChecksum:
                    let b = base[i]
                    let body = UnsafeRawBufferPointer(start: buf, count: length)
                    if b == 0x0A || b == 0x0D || b == 0x24 || b == 0x21 {
                        NMEAFramer.finish(body, encapsulated, hasChecksum: true, high, handler)
                        state = .seekStart  // reprocess b
                    } else if b == 0x20 || b == 0x09 {
                        i += 1  // trailing blanks before the line end
                    } else {
                        // Bytes after the checksum on the same line: two writes interleaved
                        // (gp-320fw-2019-04-07-coldboot: `*1E0,*4E`). Not trusted.
                        handler(.rejected(.garbled(prefix: NMEAFramer.text(body, encapsulated) + "*" + hex(high))))
                        state = .discardLine
                        atLineStart = false
                        i += 1
                    }

                case .checksumLow:
                    let b = base[i]
                    let body = UnsafeRawBufferPointer(start: buf, count: length)
                    if let v = hexValue(b) {
                        let found = high << 4 | v
                        if found == sum {
                            // Complete, but only if the line ends here or a new sentence starts.
                            high = found
                            state = .afterChecksum
                        } else {
                            handler(.rejected(.badChecksum(
                                sentence: NMEAFramer.text(body, encapsulated), expected: sum, found: found)))
                            state = .seekStart
                            atLineStart = false
                        }
                        i += 1
                    } else {
                        handler(.rejected(.missingChecksum(
                            sentence: NMEAFramer.text(body, encapsulated) + "*" + String(hexDigit(high)))))
                        state = .seekStart
                    }
                }
            }
            return Registers(
                state: state, atLineStart: atLineStart, length: length, sum: sum, high: high,
                encapsulated: encapsulated)
        }
        self.state = after.state
        self.atLineStart = after.atLineStart
        self.length = after.length
        self.sum = after.sum
        self.checksumHigh = after.high
        self.isEncapsulated = after.encapsulated
    }

    /// The scanning state carried from one chunk to the next.
    private struct Registers {
        var state: State
        var atLineStart: Bool
        var length: Int
        var sum: UInt8
        var high: UInt8
        var encapsulated: Bool
    }

    /// Ends the stream: a sentence still open is cut off and reported.
    public mutating func finish(_ handler: (FramerEvent) -> Void) {
        switch state {
        case .afterChecksum:
            buffer.withUnsafeBytes { raw in
                NMEAFramer.finish(UnsafeRawBufferPointer(rebasing: raw[0..<length]), isEncapsulated,
                                  hasChecksum: true, checksumHigh, handler)
            }
        case .body, .checksumHigh, .checksumLow:
            if length > 0 || state != .body {
                let text = buffer.withUnsafeBytes { NMEAFramer.text(UnsafeRawBufferPointer(rebasing: $0[0..<length]), isEncapsulated) }
                if allowMissingChecksum && state == .body {
                    buffer.withUnsafeBytes { raw in
                        NMEAFramer.finish(UnsafeRawBufferPointer(rebasing: raw[0..<length]), isEncapsulated,
                                          hasChecksum: false, 0, handler)
                    }
                } else {
                    handler(.rejected(.missingChecksum(sentence: text)))
                }
            }
        case .seekStart, .comment, .discardLine:
            break
        }
        state = .seekStart
        atLineStart = true
        length = 0
    }

    /// Checks the address, then hands a complete sentence on.
    @inline(__always)
    private static func finish(
        _ body: UnsafeRawBufferPointer, _ encapsulated: Bool, hasChecksum: Bool, _ checksum: UInt8,
        _ handler: (FramerEvent) -> Void
    ) {
        if isValidAddress(body) {
            handler(.sentence(RawSentence(
                body: body, isEncapsulated: encapsulated, hasChecksum: hasChecksum, checksum: checksum)))
        } else {
            handler(.rejected(.badAddress(sentence: text(body, encapsulated))))
        }
    }

    /// An address is 3 to 24 upper-case letters (`GPGGA`, and the longer ones some receivers
    /// send, `SNRSTAT`, `PSTMANTENNASTATUS`); digits are allowed only in proprietary `P...` addresses (`PSRF151`).
    /// `$LOG108` from an RGM-3800 datalogger is not a sentence.
    @inline(__always)
    static func isValidAddress(_ body: UnsafeRawBufferPointer) -> Bool {
        let proprietary = body.first == UInt8(ascii: "P")
        var n = 0
        for b in body {
            if b == 0x2C { break }
            let upper = b >= 0x41 && b <= 0x5A
            let digit = b >= 0x30 && b <= 0x39
            if !(upper || (digit && proprietary)) { return false }
            n += 1
        }
        return n >= 3 && n <= 24
    }

    @inline(never)
    static func text(_ body: UnsafeRawBufferPointer, _ encapsulated: Bool) -> String {
        (encapsulated ? "!" : "$") + printable(body, limit: 90)
    }
}

@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: b - 0x30
    case 0x41...0x46: b - 0x41 + 10
    case 0x61...0x66: b - 0x61 + 10
    default: nil
    }
}

@inline(__always)
func hexDigit(_ v: UInt8) -> Character {
    Character(Unicode.Scalar(v < 10 ? 0x30 + v : 0x41 + v - 10))
}
