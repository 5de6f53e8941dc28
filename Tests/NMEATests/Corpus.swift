import Foundation
import GPSCore
import NMEA

/// gpsd's regression logs in `../shared/nmea-corpus`, beside the repository (or `$TRACKD_CORPUS`).
enum Corpus {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["TRACKD_CORPUS"] {
            return URL(fileURLWithPath: dir)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/nmea-corpus")
    }()

    /// Every `.log` that has a `.chk` beside it, sorted by name.
    static let logs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".log") && names.contains($0 + ".chk") }.sorted()
    }()

    /// The bytes of a log as its receiver sent them (`tcp-torture` has its `|` delay cookies removed).
    static func bytes(_ log: String) throws -> [UInt8] {
        var data = [UInt8](try Data(contentsOf: directory.appendingPathComponent(log)))
        if try header(log).contains(where: { $0.hasPrefix("# Delay-Cookie:") }) {
            data.removeAll { $0 == UInt8(ascii: "|") }
        }
        return data
    }

    static func header(_ log: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(log)), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("#") }
    }

    /// The `.chk` lines: echoed sentences and JSON reports, in order.
    static func oracle(_ log: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(log + ".chk")), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).map(String.init)
    }
}

/// gpsd's TPV report, the fields the tests compare.
struct TPV {
    var mode: Int
    var date: CalendarDate?
    var timeOfDay: TimeOfDay?
    var latitude: Double?
    var longitude: Double?

    init?(json line: String) {
        guard line.hasPrefix("{\"class\":\"TPV\""),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        mode = object["mode"] as? Int ?? 0
        latitude = object["lat"] as? Double
        longitude = object["lon"] as? Double
        if let t = object["time"] as? String {
            // 2014-12-31T03:07:19.000Z
            let u = Array(t.utf8)
            func num(_ r: Range<Int>) -> Int { Int(String(decoding: u[r], as: UTF8.self)) ?? -1 }
            date = CalendarDate(year: num(0..<4), month: num(5..<7), day: num(8..<10))
            let millis = u.count >= 23 ? num(20..<23) : 0
            timeOfDay = TimeOfDay(hour: num(11..<13), minute: num(14..<16), second: num(17..<19), microsecond: millis * 1000)
        }
    }
}

/// Everything trackd's parser makes of one log.
struct ParsedLog {
    var fixes: [Fix] = []
    var accepted: [String] = []
    var rejections: [NMEAError] = []
    /// Valid positions of every position sentence, by time of day.
    var positionsByTime: [TimeOfDay: [Coordinate]] = [:]
    var statistics = NMEAStatistics()

    init(_ bytes: [UInt8], chunkSize: Int = 4096) {
        var framer = NMEAFramer()
        var parser = NMEAParser()
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + chunkSize, all.count)])
                framer.append(chunk) { event in
                    guard case .sentence(let raw) = event else { return }
                    accepted.append(raw.text)
                    guard let decoded = try? NMEASentence.decode(raw) else { return }
                    var coordinate: (TimeOfDay?, Double?, Double?, Bool) = (nil, nil, nil, false)
                    switch decoded.sentence {
                    case .gga(let g): coordinate = (g.time, g.latitude, g.longitude, (g.quality ?? .gps).isValid)
                    case .rmc(let r): coordinate = (r.time, r.latitude, r.longitude, r.isValid == true)
                    case .gll(let g): coordinate = (g.time, g.latitude, g.longitude, g.isValid == true)
                    case .gns(let g): coordinate = (g.time, g.latitude, g.longitude, (g.quality ?? .gps).isValid)
                    default: break
                    }
                    if let t = coordinate.0, let lat = coordinate.1, let lon = coordinate.2, coordinate.3 {
                        positionsByTime[t, default: []].append(Coordinate(latitude: lat, longitude: lon))
                    }
                }
                parser.parse(chunk, onReject: { rejections.append($0) }) { fixes.append($0) }
                offset += chunkSize
            }
        }
        parser.finish(onReject: { rejections.append($0) }) { fixes.append($0) }
        statistics = parser.statistics
    }
}
