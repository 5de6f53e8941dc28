import Chime
import GPSSources
import LiveView
import Location
import TOMLKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings of `trackd record` that a configuration file holds, each nil when the file
/// leaves it out: `/etc/trackd/trackd.toml` by default (config/trackd.toml is the documented
/// sample).
///
/// The file is flat TOML, one key per option, with the option's name in snake case:
/// ```toml
/// source = "/dev/gps0"
/// accuracy = "best"
/// distance_filter = 5          # metres, or "none"
/// chimes = ["signal", "fix"]   # or "signal,fix", or "none"
/// ```
/// Every value is checked as the command line checks it; an unknown key is an error (a typo
/// would otherwise be silently ignored).
struct RecordConfiguration: Equatable, Sendable {
    var source: String?
    var baud: Int?
    var accuracy: DesiredAccuracy?
    var activity: ActivityType?
    /// Metres as text (`"5"`), or `"none"`.
    var distanceFilter: String?
    var name: String?
    var store: String?
    /// The chime list as `--chime` takes it; `"none"` for no chime.
    var chimes: String?
    var chimeEvery: Double?
    var alsaDevice: String?
    /// 0 to 100, as text.
    var volume: String?
    var allowMissingChecksum: Bool?
    /// Where to serve the live view (`HOST:PORT`), or `"none"`.
    var serve: String?

    /// The file read when neither `--config` nor `TRACKD_CONFIG` names one.
    static let defaultPath = "/etc/trackd/trackd.toml"

    /// The keys a file may hold, in the sample's order.
    static let keys = [
        "source", "baud", "accuracy", "activity", "distance_filter", "name", "store", "chimes", "chime_every",
        "alsa_device", "volume", "allow_missing_checksum", "serve",
    ]

    /// Reads the configuration `--config` (`given`), else `TRACKD_CONFIG`, else the default
    /// path names. A file named by the user must exist; the default one need not (then
    /// every setting is nil).
    static func load(given: String?, environment: [String: String]) throws(ConfigurationError) -> RecordConfiguration {
        if let given { return try read(path: given) }
        if let named = environment["TRACKD_CONFIG"], !named.isEmpty { return try read(path: named) }
        guard access(defaultPath, F_OK) == 0 else { return RecordConfiguration() }
        return try read(path: defaultPath)
    }

    /// Reads and checks the file at `path`.
    static func read(path: String) throws(ConfigurationError) -> RecordConfiguration {
        let text: String
        do {
            text = try ConfigurationText.read(path: path)
        } catch {
            throw ConfigurationError.cannotRead(path: path, reason: error.reason)
        }
        return try parse(text, path: path)
    }

    /// Parses and checks `text`, read from `path` (which the errors name).
    static func parse(_ text: String, path: String) throws(ConfigurationError) -> RecordConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError.syntax(path: path, line: error.source.begin.line, message: error.description)
        } catch {
            throw ConfigurationError.syntax(path: path, line: 1, message: "\(error)")
        }
        let lines = ConfigurationText.keyLines(text)
        let unknown = table.keys.filter { !keys.contains($0) }.sorted { (lines[$0] ?? 0) < (lines[$1] ?? 0) }
        if let first = unknown.first {
            throw ConfigurationError.unknownKeys(path: path, line: lines[first] ?? 1, keys: unknown)
        }
        var configuration = RecordConfiguration()
        for key in table.keys {
            guard let value = table[key] else { continue }
            let field = ConfigurationField(path: path, line: lines[key] ?? 1, key: key, value: value)
            try configuration.set(field)
        }
        return configuration
    }

    private mutating func set(_ field: ConfigurationField) throws(ConfigurationError) {
        switch field.key {
        case "source":
            let text = try field.string("auto, gpsd, gpsd://HOST[:PORT], a device such as /dev/gps0, a log file or simulate:ROUTE")
            do { _ = try SourceSpecification(text) } catch { throw field.invalid(error.message) }
            source = text
        case "baud":
            let rates = BaudRate.allCases.map { String($0.rawValue) }.joined(separator: ", ")
            guard let rate = field.value.int, BaudRate(rawValue: rate) != nil else {
                throw field.invalid("is not one of \(rates) (leave it out to detect the rate)")
            }
            baud = rate
        case "accuracy":
            let names = DesiredAccuracy.allCases.map(\.rawValue).joined(separator: ", ")
            guard let tier = field.value.string.flatMap(DesiredAccuracy.init(rawValue:)) else {
                throw field.invalid("is not one of \(names)")
            }
            accuracy = tier
        case "activity":
            let names = ActivityType.allCases.map(\.rawValue).joined(separator: ", ")
            guard let kind = field.value.string.flatMap(ActivityType.init(rawValue:)) else {
                throw field.invalid("is not one of \(names)")
            }
            activity = kind
        case "distance_filter":
            if field.value.string == "none" {
                distanceFilter = "none"
            } else if let metres = field.number, metres.isFinite, metres >= 0 {
                distanceFilter = String(metres)
            } else {
                throw field.invalid("is not a number of metres (like 5) or \"none\"")
            }
        case "name":
            name = try field.string("a track name")
        case "store":
            let text = try field.string("the track store's path")
            guard text.hasPrefix("/") else { throw field.invalid("is not an absolute path (like /var/lib/trackd/tracks.sqlite)") }
            store = text
        case "chimes":
            chimes = try field.chimes()
        case "chime_every":
            guard let seconds = field.number, seconds.isFinite, seconds >= 0 else {
                throw field.invalid("is not zero or a number of seconds")
            }
            chimeEvery = seconds
        case "alsa_device":
            alsaDevice = try field.string("an ALSA device name (`aplay -L` lists them)")
        case "volume":
            let text = field.value.int.map(String.init) ?? field.value.string ?? ""
            do { _ = try ChimeVolume(parsing: text) } catch { throw field.invalid("is not a whole number from 0 to 100") }
            volume = text
        case "allow_missing_checksum":
            guard let flag = field.value.bool else { throw field.invalid("is not true or false") }
            allowMissingChecksum = flag
        case "serve":
            if field.value.bool == false {
                serve = "none"
            } else {
                let text = try field.string("HOST:PORT (like \"127.0.0.1:8080\"), or false")
                do { _ = try ListenAddress(parsing: text) } catch { throw field.invalid("is not HOST:PORT (like \"127.0.0.1:8080\"): \(error)") }
                serve = text
            }
        default:
            preconditionFailure("parse lets only the keys in RecordConfiguration.keys through, not \(field.key)")
        }
    }
}

/// One key of a configuration file with its value, and where it is, for the errors.
private struct ConfigurationField {
    let path: String
    let line: Int
    let key: String
    let value: any TOMLValueConvertible

    func invalid(_ why: String) -> ConfigurationError {
        .invalidValue(path: path, line: line, key: key, value: ConfigurationText.render(value), why: why)
    }

    /// The value as a string, or an error saying it should be `what`.
    func string(_ what: String) throws(ConfigurationError) -> String {
        guard let text = value.string, !text.isEmpty else { throw invalid("is not \(what) in quotes") }
        return text
    }

    /// An integer or a float.
    var number: Double? { value.double ?? value.int.map(Double.init) }

    /// `chimes`: a list of names, a comma-separated string of them, or "none" (or `[]`).
    func chimes() throws(ConfigurationError) -> String {
        let names = ChimeCategory.allCases.map(\.rawValue).joined(separator: ", ")
        let text: String
        if let list = value.array {
            var parts: [String] = []
            for item in list {
                guard let part = item.string else { throw invalid("holds something other than the names \(names)") }
                parts.append(part)
            }
            text = parts.isEmpty ? "none" : parts.joined(separator: ",")
        } else if let string = value.string {
            text = string
        } else {
            throw invalid("is not a list of \(names), or \"none\"")
        }
        if text.lowercased() == "none" { return "none" }
        do { _ = try ChimeSet(parsing: text) } catch { throw invalid("is not a list of \(names), or \"none\"") }
        return text
    }
}

/// An error in a configuration file, naming the file, the line and the key.
enum ConfigurationError: Error, CustomStringConvertible, Equatable {
    case cannotRead(path: String, reason: String)
    case syntax(path: String, line: Int, message: String)
    case unknownKeys(path: String, line: Int, keys: [String])
    case invalidValue(path: String, line: Int, key: String, value: String, why: String)

    var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            "cannot read the configuration file \(path): \(reason); fix the path given with --config or TRACKD_CONFIG"
        case .syntax(let path, let line, let message):
            "\(path):\(line): not valid TOML: \(message)"
        case .unknownKeys(let path, let line, let keys):
            "\(path):\(line): unknown key\(keys.count == 1 ? "" : "s") \(keys.joined(separator: ", ")); the keys are "
                + RecordConfiguration.keys.joined(separator: ", ")
        case .invalidValue(let path, let line, let key, let value, let why):
            "\(path):\(line): \(key) = \(value) \(why)"
        }
    }
}

/// The text side of a configuration file: reading it, finding keys' lines, showing values.
enum ConfigurationText {
    struct ReadError: Error {
        let reason: String
    }

    /// The whole file as UTF-8 text.
    static func read(path: String) throws(ReadError) -> String {
        guard let file = fopen(path, "r") else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count {
                if ferror(file) != 0 { throw ReadError(reason: String(cString: strerror(errno))) }
                break
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ReadError(reason: "it is not UTF-8 text") }
        return text
    }

    /// The line (from 1) of each top-level key: TOMLKit keeps no positions, and a flat file's
    /// keys are the first word of a line (`key =`, `"key" =`, or `key.sub =`).
    static func keyLines(_ text: String) -> [String: Int] {
        var lines: [String: Int] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.first == "[" {
                // A table header: its name is a top-level key too.
                rest = rest.drop { $0 == "[" || $0 == " " }
            }
            guard let first = rest.first, first != "#" else { continue }
            let key: Substring
            if first == "\"" || first == "'" {
                let body = rest.dropFirst()
                key = body.prefix { $0 != first }
            } else {
                key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            }
            if !key.isEmpty, lines[String(key)] == nil { lines[String(key)] = index + 1 }
        }
        return lines
    }

    /// A value as it would be written in TOML: strings quoted, the rest as TOMLKit prints it.
    static func render(_ value: any TOMLValueConvertible) -> String {
        if let string = value.string { return "\"\(string)\"" }
        return value.debugDescription
    }
}
