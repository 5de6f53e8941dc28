import GPSCore

/// The tracks of a GPX 1.1 (or 1.0) file: what `trackd render` draws of a GPX file.
///
/// A small XML reader of its own (no libxml2 in the static build): it checks that the tags
/// nest and that the root is `<gpx>`, and reads from every `<trk>` each `<trkseg>`'s
/// `<trkpt lat lon>` with `<ele>`, `<time>` and a `<speed>` in any namespace (Garmin's
/// `gpxtpx:speed` in `<extensions>`, GPX 1.0's `<speed>`), in m/s, and the 95 % radius of
/// trackd's `<trackd:accuracy horizontal>`, so that an exported track draws with the same
/// totals as the stored one. Everything else is
/// skipped. A point whose `lat` or `lon` is missing or out of range is skipped and counted.
public struct GPXTrackReader: Sendable {
    /// The first `<trk>`'s `<name>`, else the `<metadata>`'s.
    public var name: String?
    /// The points of each `<trkseg>` that has any, in the file's order.
    public var segments: [[TrackPoint]] = []
    /// Points left out for a missing or invalid `lat`/`lon`.
    public var skippedPoints = 0

    /// Reads `bytes`, the content of the file at `path` (named in errors).
    public init(bytes: [UInt8], path: String) throws(GPXReadError) {
        var scanner = Scanner(bytes: bytes, path: path)
        try scanner.run(into: &self)
    }

    /// The elements whose text is read.
    private enum TextField { case trackName, metadataName, elevation, time, speed }

    private struct Scanner {
        let bytes: [UInt8]
        let path: String
        var index = 0
        var line = 1
        var stack: [String] = []
        var text: [UInt8] = []
        var field: TextField?
        var point: TrackPoint?
        var pointIsValid = false
        var metadataName: String?

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
        }

        mutating func run(into result: inout GPXTrackReader) throws(GPXReadError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else {
                throw .notXML(path: path, found: describeStart())
            }
            var sawRoot = false
            while index < bytes.count {
                if bytes[index] != UInt8(ascii: "<") {
                    let byte = bytes[index]
                    if byte == 0x0A { line += 1 }
                    if field != nil { text.append(byte) }
                    if stack.isEmpty && !isSpace(byte) {
                        throw sawRoot ? .malformed(path: path, line: line, reason: "text after the root element")
                            : .notXML(path: path, found: describeStart())
                    }
                    index += 1
                    continue
                }
                if starts(with: "<?") {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts(with: "<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts(with: "<![CDATA[") {
                    let start = index + 9
                    try skip(past: "]]>", what: "a CDATA section")
                    if field != nil { text += bytes[start..<(index - 3)] }
                } else if starts(with: "<!") {
                    try skip(past: ">", what: "a declaration")
                } else if starts(with: "</") {
                    index += 2
                    let name = readName()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                        throw .malformed(path: path, line: line, reason: "the end tag </\(name)> is not closed with '>'")
                    }
                    index += 1
                    guard let open = stack.popLast() else {
                        throw .malformed(path: path, line: line, reason: "</\(name)> closes no element")
                    }
                    guard open == name else {
                        throw .malformed(path: path, line: line, reason: "</\(name)> closes <\(open)>")
                    }
                    end(localName(name), into: &result)
                } else {
                    index += 1
                    let name = readName()
                    guard !name.isEmpty else {
                        if !sawRoot { throw .notXML(path: path, found: describeStart()) }
                        throw .malformed(path: path, line: line, reason: "'<' does not start a tag")
                    }
                    let (attributes, selfClosing) = try readAttributes(of: name)
                    if stack.isEmpty {
                        if sawRoot { throw .malformed(path: path, line: line, reason: "a second root element <\(name)>") }
                        guard localName(name) == "gpx" else { throw .notGPX(path: path, root: name) }
                        sawRoot = true
                    }
                    stack.append(name)
                    start(localName(name), attributes: attributes, into: &result)
                    if selfClosing {
                        stack.removeLast()
                        end(localName(name), into: &result)
                    }
                }
            }
            guard sawRoot else { throw .notXML(path: path, found: describeStart()) }
            if let open = stack.last {
                throw .malformed(path: path, line: line, reason: "the file ends inside <\(open)>")
            }
            if result.name == nil { result.name = metadataName }
        }

        private var parent: String? { stack.count >= 2 ? localName(stack[stack.count - 2]) : nil }

        private mutating func start(_ name: String, attributes: [String: String], into result: inout GPXTrackReader) {
            switch name {
            case "trkseg":
                result.segments.append([])
            case "trkpt":
                let latitude = attributes["lat"].flatMap(Double.init)
                let longitude = attributes["lon"].flatMap(Double.init)
                let coordinate = Coordinate(latitude: latitude ?? .nan, longitude: longitude ?? .nan)
                pointIsValid = coordinate.isValid
                point = TrackPoint(coordinate: coordinate)
            case "ele" where point != nil: beginText(.elevation)
            case "time" where point != nil: beginText(.time)
            case "speed" where point != nil: beginText(.speed)
            case "accuracy" where point != nil:
                point?.horizontalAccuracyMeters = attributes["horizontal"].flatMap(Double.init)
            case "name" where parent == "trk" && result.name == nil: beginText(.trackName)
            case "name" where parent == "metadata" && metadataName == nil: beginText(.metadataName)
            default: break
            }
        }

        private mutating func beginText(_ which: TextField) {
            field = which
            text = []
        }

        private mutating func end(_ name: String, into result: inout GPXTrackReader) {
            if let which = field {
                let value = decodeEntities(String(decoding: text, as: UTF8.self)).trimmedSpaces
                switch which {
                case .elevation: point?.altitudeMeters = Double(value)
                case .time: point?.secondsSinceEpoch = parseTime(value)
                case .speed: point?.speedMetersPerSecond = Double(value)
                case .trackName: if !value.isEmpty { result.name = value }
                case .metadataName: if !value.isEmpty { metadataName = value }
                }
                field = nil
            }
            if name == "trkpt", let finished = point {
                if pointIsValid {
                    if result.segments.isEmpty { result.segments.append([]) }
                    result.segments[result.segments.count - 1].append(finished)
                } else {
                    result.skippedPoints += 1
                }
                point = nil
            }
        }

        // MARK: Lexing

        private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        private mutating func skipSpace() {
            while index < bytes.count, isSpace(bytes[index]) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }

        private func starts(with literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return literal.withUTF8Buffer { buffer in
                (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] }
            }
        }

        private mutating func skip(past literal: StaticString, what: String) throws(GPXReadError) {
            let startLine = line
            while index < bytes.count {
                if starts(with: literal) {
                    index += literal.utf8CodeUnitCount
                    return
                }
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            throw .malformed(path: path, line: startLine, reason: "\(what) is never closed")
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
                true
            default: false
            }
        }

        private mutating func readName() -> String {
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func readAttributes(of element: String) throws(GPXReadError) -> ([String: String], Bool) {
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    return (attributes, false)
                }
                if starts(with: "/>") {
                    index += 2
                    return (attributes, true)
                }
                let name = readName()
                skipSpace()
                guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    throw .malformed(path: path, line: line, reason: "a broken attribute in <\(element)>")
                }
                index += 1
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                    throw .malformed(path: path, line: line, reason: "the value of \(name) in <\(element)> is not quoted")
                }
                let quote = bytes[index]
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != quote {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                guard index < bytes.count else { break }
                attributes[localName(name)] = decodeEntities(String(decoding: bytes[start..<index], as: UTF8.self))
                index += 1
            }
            throw .malformed(path: path, line: line, reason: "the file ends inside the tag <\(element)>")
        }

        /// What the file starts with, for an error: "it is empty", "it starts with "$GPGGA,…"".
        private func describeStart() -> String {
            let rest = bytes[min(index, bytes.count)...]
            if rest.allSatisfy(isSpace) { return "it is empty" }
            let head = rest.prefix(16)
            if head.contains(where: { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) }) { return "it holds binary data" }
            var shown = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
            if shown.count > 12 { shown = String(shown.prefix(12)) + "…" }
            return "it starts with \"\(shown)\""
        }
    }
}

/// The part of a qualified XML name after its prefix: `gpxtpx:speed` → `speed`.
private func localName(_ name: String) -> String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
}

/// `text` with XML's predefined and numeric character references replaced.
private func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
        out += rest[..<amp]
        guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
        let entity = rest[rest.index(after: amp)..<semicolon]
        switch entity {
        case "amp": out += "&"
        case "lt": out += "<"
        case "gt": out += ">"
        case "quot": out += "\""
        case "apos": out += "'"
        default:
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
            else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) }
            if let scalar { out.unicodeScalars.append(scalar) } else { out += rest[amp...semicolon] }
        }
        rest = rest[rest.index(after: semicolon)...]
    }
    return out + rest
}

/// Seconds since 1970 of an XML Schema dateTime (`2024-09-14T08:00:01.5Z`, `…+02:00`); a
/// time without a zone is taken as UTC, as GPX 1.1 says it must be. Nil when unreadable.
func parseTime(_ text: String) -> Double? {
    let utf8 = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
        guard range.upperBound <= utf8.count else { return nil }
        var value = 0
        for byte in utf8[range] {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
    guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
        utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
        let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
        index += 1
        var scale = 0.1
        while index < utf8.count, utf8[index] >= 0x30 && utf8[index] <= 0x39 {
            fraction += Double(utf8[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
    }
    var offset = 0
    if index < utf8.count {
        if utf8[index] == UInt8(ascii: "Z"), index + 1 == utf8.count {
            offset = 0
        } else if utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-"), index + 6 == utf8.count,
            let h = number((index + 1)..<(index + 3)), utf8[index + 3] == UInt8(ascii: ":"), let m = number((index + 4)..<(index + 6))
        {
            offset = (h * 60 + m) * 60 * (utf8[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
    }
    let days = CalendarDate(year: year, month: month, day: day).daysSinceEpoch
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmedSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
