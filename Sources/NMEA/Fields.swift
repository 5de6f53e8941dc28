import GPSCore

/// Reads a sentence's comma-separated fields in order, without allocating.
///
/// Field numbers count from 1 after the address, as NMEA tables do. A field past the end
/// of the sentence reads as empty: older receivers send fewer trailing fields, and an
/// empty field is an absent value, never zero.
struct FieldReader {
    let base: UnsafePointer<UInt8>
    let end: Int
    private var position: Int
    /// The number of the field the next `next()` returns.
    private(set) var fieldNumber = 1
    /// The sentence's address (`GPGGA`), for messages.
    let addressRange: Range<Int>

    /// Starts after the address of `body`.
    init(_ body: UnsafeRawBufferPointer) {
        base = body.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = body.count
        var i = 0
        while i < end && base[i] != 0x2C { i += 1 }
        addressRange = 0..<i
        position = i < end ? i + 1 : end + 1
    }

    var address: String {
        String(decoding: UnsafeRawBufferPointer(start: base + addressRange.lowerBound, count: addressRange.count),
               as: UTF8.self)
    }

    /// Whether any fields remain.
    var hasMore: Bool { position <= end }

    /// The next field.
    @inline(__always)
    mutating func next() -> Field {
        let number = fieldNumber
        fieldNumber += 1
        guard position <= end else { return Field(base: base, start: end, count: 0, number: number) }
        let start = position
        var i = start
        while i < end && base[i] != 0x2C { i += 1 }
        position = i + 1
        return Field(base: base, start: start, count: i - start, number: number)
    }

    /// Skips `n` fields.
    @inline(__always)
    mutating func skip(_ n: Int) {
        for _ in 0..<n { _ = next() }
    }

    // MARK: Errors

    func bad(_ field: Field, expected: String) -> NMEAError {
        .badField(sentence: address, field: field.number, expected: expected, found: field.text)
    }

    func missing(_ field: Field, expected: String) -> NMEAError {
        .missingField(sentence: address, field: field.number, expected: expected)
    }
}

/// One field of a sentence: a view of its bytes.
struct Field {
    let base: UnsafePointer<UInt8>
    let start: Int
    let count: Int
    /// The field's number, from 1 after the address.
    let number: Int

    var isEmpty: Bool { count == 0 }

    @inline(__always) subscript(i: Int) -> UInt8 { base[start + i] }

    var text: String {
        String(decoding: UnsafeRawBufferPointer(start: base + start, count: count), as: UTF8.self)
    }

    /// The single character of a one-byte field (`A`, `N`), or nil when empty.
    @inline(__always)
    var character: UInt8? { count == 1 ? base[start] : (count == 0 ? nil : base[start]) }

    /// The field as a decimal number `mantissa / 10^scale`, or nil when empty or not a number.
    ///
    /// Accepts an optional sign, digits, and an optional `.` with digits. At most 18
    /// significant digits, so the mantissa fits Int64 exactly.
    @inline(__always)
    func decimal() -> (mantissa: Int64, scale: Int)? {
        guard count > 0 else { return nil }
        var i = 0
        var negative = false
        let first = self[0]
        if first == 0x2D { negative = true; i = 1 } else if first == 0x2B { i = 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while i < count {
            let b = self[i]
            if b >= 0x30 && b <= 0x39 {
                if digits >= 18 { return nil }
                mantissa = mantissa &* 10 &+ Int64(b &- 0x30)
                digits += 1
                if seenPoint { scale += 1 }
            } else if b == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        return (negative ? -mantissa : mantissa, scale)
    }

    /// The field as a Double, or nil when empty or malformed.
    @inline(__always)
    func double() -> Double? {
        guard let (m, s) = decimal() else { return nil }
        return Double(m) / Double(decimalPowerOfTen(s))
    }

    /// The field as a non-negative integer, or nil when empty or malformed.
    @inline(__always)
    func integer() -> Int? {
        guard count > 0, count <= 18 else { return nil }
        var v = 0
        for i in 0..<count {
            let b = self[i]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    /// An integer that may be written with a fraction of zeros (`08`, `8.0`), as some receivers do.
    @inline(__always)
    func looseInteger() -> Int? {
        if let v = integer() { return v }
        guard let (m, s) = decimal(), m >= 0 else { return nil }
        let p = decimalPowerOfTen(s)
        guard m % p == 0 else { return nil }
        return Int(m / p)
    }
}

// MARK: - Typed field readers shared by the decoders

extension FieldReader {
    /// Reads `hhmmss[.sss]`; empty is nil.
    mutating func time() throws(NMEAError) -> TimeOfDay? {
        let f = next()
        if f.isEmpty { return nil }
        guard f.count >= 6 else { throw bad(f, expected: "time hhmmss.ss") }
        @inline(__always) func pair(_ k: Int) -> Int? {
            let a = f[k], b = f[k + 1]
            guard a >= 0x30 && a <= 0x39 && b >= 0x30 && b <= 0x39 else { return nil }
            return Int(a - 0x30) * 10 + Int(b - 0x30)
        }
        guard let hh = pair(0), let mm = pair(2), let ss = pair(4) else {
            throw bad(f, expected: "time hhmmss.ss")
        }
        guard hh < 24, mm < 60, ss <= 60 else { throw bad(f, expected: "time hhmmss.ss") }
        var micro = 0
        if f.count > 6 {
            guard f[6] == 0x2E else { throw bad(f, expected: "time hhmmss.ss") }
            var scale = 100_000
            for i in 7..<min(f.count, 13) {
                let d = f[i]
                guard d >= 0x30 && d <= 0x39 else { throw bad(f, expected: "time hhmmss.ss") }
                micro += Int(d - 0x30) * scale
                scale /= 10
            }
        }
        return TimeOfDay(hour: hh, minute: mm, second: ss, microsecond: micro)
    }

    /// Reads a latitude `ddmm.mmmm` and its hemisphere `N`/`S`; nil when both are empty.
    mutating func latitude() throws(NMEAError) -> Double? {
        try angle(degreeDigits: 2, limit: 90, positive: 0x4E, negative: 0x53, what: "latitude ddmm.mmmm", hemisphere: "N or S")
    }

    /// Reads a longitude `dddmm.mmmm` and its hemisphere `E`/`W`; nil when both are empty.
    mutating func longitude() throws(NMEAError) -> Double? {
        try angle(degreeDigits: 3, limit: 180, positive: 0x45, negative: 0x57, what: "longitude dddmm.mmmm", hemisphere: "E or W")
    }

    @inline(__always)
    private mutating func angle(
        degreeDigits: Int, limit: Int64, positive: UInt8, negative: UInt8, what: String, hemisphere: String
    ) throws(NMEAError) -> Double? {
        let v = next()
        let h = next()
        if v.isEmpty { return nil }
        guard let (m, s) = v.decimal(), m >= 0 else { throw bad(v, expected: what) }
        // m / 10^s = ddmm.mmmm: split whole degrees from minutes in integers, exactly.
        // Divide rather than multiply `unit`: with 17 or 18 decimals, 100 × 10^s overflows Int64.
        let unit = decimalPowerOfTen(s)
        let degrees = m / unit / 100
        let minutes = m - degrees * 100 * unit
        guard minutes / unit < 60 else { throw bad(v, expected: what + " (minutes under 60)") }
        var value = Double(degrees) + Double(minutes) / (Double(unit) * 60)
        guard degrees < limit || (degrees == limit && minutes == 0) else {
            throw bad(v, expected: what + " within \(limit) degrees")
        }
        guard let c = h.character, h.count == 1 else {
            throw h.isEmpty ? missing(h, expected: hemisphere) : bad(h, expected: hemisphere)
        }
        if c == negative { value = -value } else if c != positive { throw bad(h, expected: hemisphere) }
        return value
    }

    /// Reads a non-negative decimal; nil when empty.
    mutating func unsignedDouble(_ expected: String) throws(NMEAError) -> Double? {
        let f = next()
        if f.isEmpty { return nil }
        guard let v = f.double(), v >= 0 else { throw bad(f, expected: expected) }
        return v
    }

    /// Reads a signed decimal; nil when empty.
    mutating func signedDouble(_ expected: String) throws(NMEAError) -> Double? {
        let f = next()
        if f.isEmpty { return nil }
        guard let v = f.double() else { throw bad(f, expected: expected) }
        return v
    }

    /// Reads a non-negative integer (tolerating a zero fraction); nil when empty.
    mutating func integer(_ expected: String) throws(NMEAError) -> Int? {
        let f = next()
        if f.isEmpty { return nil }
        guard let v = f.looseInteger() else { throw bad(f, expected: expected) }
        return v
    }

    /// Reads a unit field (`M`, `N`, `K`, `T`), accepting it empty.
    mutating func unit(_ letter: UInt8, _ expected: String) throws(NMEAError) {
        let f = next()
        guard f.isEmpty || (f.count == 1 && f[0] == letter) else { throw bad(f, expected: expected) }
    }

    /// Reads a status field: `true` for `A` (valid), `false` for `V` (warning), nil when empty.
    mutating func status() throws(NMEAError) -> Bool? {
        let f = next()
        switch f.character {
        case UInt8(ascii: "A"): return true
        case UInt8(ascii: "V"): return false
        case nil: return nil
        default: throw bad(f, expected: "status A or V")
        }
    }

    /// Reads an NMEA 2.3+ mode indicator from `f`; nil when empty.
    func modeIndicator(_ f: Field) throws(NMEAError) -> FixQuality? {
        guard let c = f.character else { return nil }
        guard let q = FixQuality(modeIndicator: c) else { throw bad(f, expected: "mode indicator A D E F M N P R S") }
        return q
    }

    /// Reads a one-letter field, nil when empty.
    mutating func letter() -> UInt8? {
        let f = next()
        return f.isEmpty ? nil : f[0]
    }
}

extension FixQuality {
    /// The quality for an NMEA 2.3+ mode indicator (RMC field 12, GLL 7, VTG 9, GNS 6 per system).
    init?(modeIndicator c: UInt8) {
        switch c {
        case UInt8(ascii: "A"): self = .gps
        case UInt8(ascii: "D"): self = .dgps
        case UInt8(ascii: "P"): self = .pps
        case UInt8(ascii: "R"): self = .rtkFixed
        case UInt8(ascii: "F"): self = .rtkFloat
        case UInt8(ascii: "E"): self = .estimated
        case UInt8(ascii: "M"): self = .manual
        case UInt8(ascii: "S"): self = .simulated
        case UInt8(ascii: "N"): self = .invalid
        default: return nil
        }
    }

    /// The quality for a GGA field 6 value.
    init?(ggaQuality q: Int) {
        switch q {
        case 0: self = .invalid
        case 1: self = .gps
        case 2: self = .dgps
        case 3: self = .pps
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .estimated
        case 7: self = .manual
        case 8: self = .simulated
        default: return nil
        }
    }
}
