import GPSCore

/// Writes a track as a GPX 1.1 document, one point at a time, in constant memory.
///
/// The writer formats into a byte buffer and hands it to `sink` whenever it holds at least
/// ``flushThresholdBytes``, and once more in ``finish()``; memory use does not grow with
/// the number of points. The document is complete only after ``finish()`` returns.
///
/// ```swift
/// var writer = GPXWriter(metadata: GPXMetadata(name: "Morning ride"), trackName: "Ride") { bytes in
///     try output.writeAll(bytes)
/// }
/// for fix in fixes { try writer.append(fix) }
/// try writer.finish()
/// ```
///
/// Output: an XML declaration, `<gpx version="1.1" creator=…>` declaring the GPX 1.1,
/// Garmin TrackPointExtension v2 (`gpxtpx`) and trackd (`trackd`, see
/// ``TrackdGPXExtension``) namespaces, `<metadata>` when ``GPXMetadata`` has a field,
/// then one `<trk>` of `<trkseg>`s holding one `<trkpt>` per line. A document without
/// points has no `<trk>`.
///
/// Each `<trkpt lat lon>` (decimal degrees, 9 decimals, longitude in -180..<180) has the
/// children GPX's `wptType` allows, in its order, each only when the fix has the value:
/// - `ele`: altitude above mean sea level, metres, 3 decimals.
/// - `time`: UTC `YYYY-MM-DDThh:mm:ssZ`, with the fraction of the second only when not zero
///   (`.25`). Only for a fix time with a date that exists; a leap second `23:59:60` is
///   written as the next day's `00:00:00`.
/// - `magvar`: magnetic variation, degrees in 0..<360 (west variations are 360 − west).
/// - `geoidheight`: geoid height above the WGS-84 ellipsoid, metres, 3 decimals.
/// - `fix`: `dgps` for DGPS, RTK fixed and RTK float quality, `pps` for PPS quality,
///   otherwise `none`, `2d` or `3d` from the fix mode.
/// - `sat`: satellites used (when ≥ 0). `hdop`, `vdop`, `pdop`: 2 decimals.
/// - `ageofdgpsdata`: seconds, 3 decimals. `dgpsid`: only for station ids 0...1023.
/// - `extensions`, when it has content: `<gpxtpx:TrackPointExtension>` with `speed`
///   (m/s, 3 decimals) and `course` (degrees true, 0..<360, 2 decimals), then
///   `<trackd:accuracy>` when the fix has an accuracy estimate.
///
/// Numbers are plain decimals with trailing zeros trimmed, never exponent notation. An
/// element whose value is NaN, infinite, or needs more than 18 digits (the most every XML
/// Schema processor must accept in an `xsd:decimal`; libxml2 rejects more than 24) is left
/// out: no receiver reports an altitude beyond 10^15 m. Text (creator, names, description)
/// is escaped, and characters XML 1.0 forbids are dropped.
///
/// A `GPXWriter` is a value: do not copy one in use, since each copy owns its own buffer.
public struct GPXWriter {
    /// Buffered bytes at which the writer hands its buffer to the sink: large enough that
    /// the sink's `write(2)` cost is spread over some 150 points, small enough for any Pi.
    public static let flushThresholdBytes = 64 * 1024

    /// Points written so far.
    public private(set) var pointsWritten = 0
    /// `<trkseg>`s opened so far. A segment is opened by its first point, so an empty
    /// segment is never written.
    public private(set) var segmentsWritten = 0
    /// Fixes ``append(_:)`` skipped because they had no valid coordinate.
    public private(set) var pointsSkipped = 0
    /// The extent of the points written so far, nil before the first.
    public private(set) var pointBounds: GPXBounds?
    /// Where the room reserved for `<bounds>` lies in the document, in bytes from its start,
    /// when ``GPXMetadata/reservesBounds`` asked for it.
    public private(set) var boundsSlot: (offset: Int, length: Int)?
    /// Bytes handed to the sink so far.
    public private(set) var bytesWritten = 0
    /// Bytes reserved for `<bounds>`: the longest element, `-180.000000000` four times, fits.
    public static let boundsSlotLength = 128
    /// Whether ``finish()`` has completed: the document is closed and handed to the sink.
    public var isFinished: Bool { state == .finished }

    /// The most bytes the buffer held when handed to the sink.
    package private(set) var maxBufferedBytes = 0
    /// The buffer's allocated capacity, in bytes.
    package var bufferCapacity: Int { buffer.capacity }

    private var buffer = OutputBuffer(capacity: GPXWriter.flushThresholdBytes + GPXWriter.maxPointBytes)
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let trackName: String?
    private var state = State.beforeTrack

    private enum State: Equatable {
        /// Header written, no point yet.
        case beforeTrack
        /// Inside `<trk>`; `segmentOpen` when a `<trkseg>` awaits its closing tag.
        case inTrack(segmentOpen: Bool)
        case finished
        /// The sink threw: nothing more may be written.
        case failed
    }

    /// Creates a writer and buffers the document's header.
    ///
    /// Nothing reaches `sink` before the buffer fills or ``finish()`` is called.
    ///
    /// - Parameters:
    ///   - creator: The `creator` attribute: the program that made the file. Escaped.
    ///   - metadata: The document's `<metadata>`.
    ///   - trackName: The `<trk>`'s `<name>`, when given. Escaped.
    ///   - sink: Receives the document's bytes, in order, in chunks of about
    ///     ``flushThresholdBytes``. The buffer is valid only during the call. An error it
    ///     throws reaches the caller of the writer's method, and the writer then refuses
    ///     further writes with ``GPXError/outputFailedEarlier``.
    public init(
        creator: String = "trackd", metadata: GPXMetadata, trackName: String? = nil,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.sink = sink
        self.trackName = trackName
        writeHeader(creator: creator, metadata: metadata)
    }

    /// Ends the current segment: the next point opens a new `<trkseg>`.
    ///
    /// Call it after a loss of signal or a reconnect. Calling it before the first point, or
    /// twice in a row, writes nothing: no empty segment is made.
    ///
    /// - Throws: ``GPXError/writerFinished`` after ``finish()``;
    ///   ``GPXError/outputFailedEarlier`` after a sink error; any error the sink throws.
    public mutating func beginSegment() throws {
        try checkWritable()
        if state == .inTrack(segmentOpen: true) {
            writeMarkup("    </trkseg>\n")
            state = .inTrack(segmentOpen: false)
        }
        try flushIfFull()
    }

    /// Writes `fix` as one `<trkpt>`, opening the `<trk>` and a `<trkseg>` when needed.
    ///
    /// A fix without a coordinate, or with one failing ``Coordinate/isValid``, is the
    /// caller's mistake (no-fix epochs are not track points): it is skipped and counted in
    /// ``pointsSkipped``, and nothing is written.
    ///
    /// - Throws: ``GPXError/writerFinished`` after ``finish()``;
    ///   ``GPXError/outputFailedEarlier`` after a sink error; any error the sink throws.
    public mutating func append(_ fix: Fix) throws {
        try checkWritable()
        guard let coordinate = fix.coordinate, coordinate.isValid else {
            pointsSkipped += 1
            return
        }
        switch state {
        case .beforeTrack:
            openTrack()
            fallthrough
        case .inTrack(segmentOpen: false):
            writeMarkup("    <trkseg>\n")
            segmentsWritten += 1
            state = .inTrack(segmentOpen: true)
        case .inTrack(segmentOpen: true), .finished, .failed:
            break
        }
        buffer.write(reserving: GPXWriter.maxPointBytes) { $0.write(point: fix, at: coordinate) }
        pointsWritten += 1
        if pointBounds == nil {
            pointBounds = GPXBounds(enclosing: coordinate)
        } else {
            pointBounds?.extend(toInclude: coordinate)
        }
        try flushIfFull()
    }

    /// Closes every open element and hands the rest of the document to the sink.
    ///
    /// Calling it again after it has succeeded does nothing.
    ///
    /// - Throws: ``GPXError/outputFailedEarlier`` after a sink error; any error the sink
    ///   throws (the document is then incomplete).
    public mutating func finish() throws {
        switch state {
        case .finished:
            return
        case .failed:
            throw GPXError.outputFailedEarlier
        case .beforeTrack:
            break
        case .inTrack(let segmentOpen):
            if segmentOpen { writeMarkup("    </trkseg>\n") }
            writeMarkup("  </trk>\n")
        }
        writeMarkup("</gpx>\n")
        try flush()
        state = .finished
    }

    // MARK: - Buffering

    /// Most bytes one `<trkpt>` line takes: 359 bytes of markup, 13 numbers of at most
    /// 22 bytes, a 27-byte timestamp and at most 162 bytes of accuracy make 834; the
    /// buffer's cursor traps rather than overrun it.
    package static let maxPointBytes = 1024

    private func checkWritable() throws {
        switch state {
        case .beforeTrack, .inTrack: return
        case .finished: throw GPXError.writerFinished
        case .failed: throw GPXError.outputFailedEarlier
        }
    }

    @inline(__always)
    private mutating func flushIfFull() throws {
        if buffer.count >= GPXWriter.flushThresholdBytes { try flush() }
    }

    private mutating func flush() throws {
        maxBufferedBytes = Swift.max(maxBufferedBytes, buffer.count)
        guard !buffer.isEmpty else { return }
        do {
            try buffer.withUnsafeBytes { try sink($0) }
        } catch {
            state = .failed
            throw error
        }
        bytesWritten += buffer.count
        buffer.removeAll()
    }

    private mutating func writeMarkup(_ markup: StaticString) {
        buffer.write(reserving: markup.utf8CodeUnitCount) { $0.write(markup) }
    }

    // MARK: - Document structure

    private mutating func writeHeader(creator: String, metadata: GPXMetadata) {
        writeMarkup("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"")
        buffer.write(escaped: creator, inAttribute: true)
        writeMarkup(
            """
            " xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
            xmlns:trackd="https://trackd.dev/xmlschemas/TrackdExtension/v1" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v2 \
            https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

            """
        )
        let timestamp = metadata.time.flatMap(UTCTimestamp.init)
        let bounds = metadata.bounds.flatMap { $0.isValid ? $0 : nil }
        let reserve = metadata.reservesBounds && bounds == nil
        guard metadata.name != nil || metadata.description != nil || timestamp != nil || bounds != nil || reserve
        else {
            return
        }
        writeMarkup("  <metadata>\n")
        if let name = metadata.name {
            writeMarkup("    <name>")
            buffer.write(escaped: name, inAttribute: false)
            writeMarkup("</name>\n")
        }
        if let description = metadata.description {
            writeMarkup("    <desc>")
            buffer.write(escaped: description, inAttribute: false)
            writeMarkup("</desc>\n")
        }
        if let timestamp {
            buffer.write(reserving: 32 + UTCTimestamp.maxBytes) {
                $0.write("    <time>")
                $0.write(timestamp: timestamp)
                $0.write("</time>\n")
            }
        }
        if let bounds {
            buffer.write(reserving: 64 + 4 * DecimalLimits.maxScaledDecimalBytes) { $0.write(bounds: bounds) }
        } else if reserve {
            boundsSlot = (offset: bytesWritten + buffer.count, length: GPXWriter.boundsSlotLength)
            buffer.write(reserving: GPXWriter.boundsSlotLength) {
                for _ in 1..<GPXWriter.boundsSlotLength { $0.write(byte: 0x20) }
                $0.write(byte: 0x0A)
            }
        }
        writeMarkup("  </metadata>\n")
    }

    private mutating func openTrack() {
        writeMarkup("  <trk>\n")
        if let trackName {
            writeMarkup("    <name>")
            buffer.write(escaped: trackName, inAttribute: false)
            writeMarkup("</name>\n")
        }
    }

    /// The `<bounds>` element for `bounds`, padded with blanks to exactly
    /// ``boundsSlotLength`` bytes, to write over ``boundsSlot``.
    public static func boundsElement(_ bounds: GPXBounds) -> [UInt8] {
        var buffer = OutputBuffer(capacity: boundsSlotLength + 64)
        buffer.write(reserving: 64 + 4 * DecimalLimits.maxScaledDecimalBytes) { $0.write(bounds: bounds) }
        var bytes = buffer.withUnsafeBytes { Array($0) }
        if bytes.last == 0x0A { bytes.removeLast() }
        while bytes.count < boundsSlotLength - 1 { bytes.append(0x20) }
        bytes.append(0x0A)
        return bytes
    }
}
