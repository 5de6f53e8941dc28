// The writer's byte buffer, written through a pointer on the hot path.
//
// `Array.append(contentsOf:)` costs more per call than the copy itself, and a point is some
// 40 pieces of markup and numbers. So the buffer is an array kept at its full size, and a
// `ByteCursor` writes into it directly after `write(reserving:_:)` has made room for the
// most bytes the caller can produce.

/// A growable byte buffer whose bytes `0..<count` are the pending output.
struct OutputBuffer {
    /// Storage, always fully initialised; only the first `count` bytes are output.
    private var storage: [UInt8]
    /// Bytes of pending output.
    private(set) var count = 0

    /// A buffer with room for `capacity` bytes before it must grow.
    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: Swift.max(capacity, 1))
    }

    /// Bytes the buffer holds without growing.
    var capacity: Int { storage.count }

    var isEmpty: Bool { count == 0 }

    /// Makes room for `maxBytes` more bytes, then lets `body` write at most that many.
    ///
    /// - Precondition: `body` writes no more than `maxBytes` (the cursor traps otherwise).
    @inline(__always)
    mutating func write(reserving maxBytes: Int, _ body: (inout ByteCursor) -> Void) {
        if count + maxBytes > storage.count {
            grow(toHold: count + maxBytes)
        }
        let start = count
        count = storage.withUnsafeMutableBufferPointer { bytes -> Int in
            // `storage` is never empty (see `init`), so the base address exists.
            var cursor = ByteCursor(base: bytes.baseAddress.unsafelyUnwrapped, offset: start, limit: start + maxBytes)
            body(&cursor)
            return cursor.offset
        }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: Swift.max(needed, storage.count * 2) - storage.count))
    }

    /// Calls `body` with the pending output.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Drops the pending output, keeping the storage.
    mutating func removeAll() {
        count = 0
    }
}

/// Writes bytes at a position of an `OutputBuffer`'s storage, up to a limit it checks.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    private(set) var offset: Int
    /// One past the last byte this cursor may write.
    private let limit: Int

    init(base: UnsafeMutablePointer<UInt8>, offset: Int, limit: Int) {
        self.base = base
        self.offset = offset
        self.limit = limit
    }

    /// Claims `byteCount` bytes and returns where they start.
    @inline(__always)
    private mutating func claim(_ byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(offset + byteCount <= limit, "GPX output overran the bytes reserved for it")
        defer { offset += byteCount }
        return base + offset
    }

    /// Writes markup known at compile time, unescaped.
    @inline(__always)
    mutating func write(_ markup: StaticString) {
        let byteCount = markup.utf8CodeUnitCount
        claim(byteCount).update(from: markup.utf8Start, count: byteCount)
    }

    /// Writes one byte.
    @inline(__always)
    mutating func write(byte: UInt8) {
        claim(1).pointee = byte
    }

    /// Writes `value` (0...9) as its ASCII digit.
    @inline(__always)
    mutating func write(digit value: Int) {
        write(byte: UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
    }

    /// Writes `value` as exactly `width` decimal digits, zero-padded (`07`, `2024`).
    /// The caller has checked that `value` is in 0..<10^width.
    @inline(__always)
    mutating func write(_ value: Int, paddedTo width: Int) {
        let start = claim(width)
        var rest = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
            start[index] = UInt8(truncatingIfNeeded: remainder) &+ UInt8(ascii: "0")
            rest = quotient
        }
    }

    /// Writes `magnitude` in decimal with a point `fractionDigits` places from the right
    /// (`magnitude` 5, 3 places: `0.005`), after a minus sign when `negative`.
    @inline(__always)
    mutating func write(magnitude: UInt64, fractionDigits: Int, negative: Bool) {
        let digitCount = Swift.max(decimalDigitCount(magnitude), fractionDigits + 1)
        let pointCount = fractionDigits > 0 ? 1 : 0
        let signCount = negative ? 1 : 0
        let start = claim(signCount + digitCount + pointCount)
        if negative { start.pointee = UInt8(ascii: "-") }
        var position = signCount + digitCount + pointCount
        var rest = magnitude
        for _ in 0..<fractionDigits {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
            position -= 1
            start[position] = UInt8(truncatingIfNeeded: remainder) &+ UInt8(ascii: "0")
            rest = quotient
        }
        if pointCount == 1 {
            position -= 1
            start[position] = UInt8(ascii: ".")
        }
        while position > signCount {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
            position -= 1
            start[position] = UInt8(truncatingIfNeeded: remainder) &+ UInt8(ascii: "0")
            rest = quotient
        }
    }

    /// Writes `bytes` unchanged.
    mutating func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let start = claim(bytes.count)
        bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress.unsafelyUnwrapped, count: $0.count) }
    }
}

/// Number of decimal digits of `value` (1 for 0).
@inline(__always)
func decimalDigitCount(_ value: UInt64) -> Int {
    var count = 1
    var threshold: UInt64 = 10
    while value >= threshold {
        count += 1
        if count == 20 { break }  // UInt64.max has 20 digits; 10^20 would overflow
        threshold &*= 10
    }
    return count
}
