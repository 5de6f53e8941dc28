import ArgumentParser
import FoundationEssentials
import GPSSources

struct Sources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the GPS sources trackd can see: gpsd and its devices, and receiver ttys.",
        discussion: """
            The first thing to run when nothing works. trackd asks gpsd on localhost:2947 (or \
            --gpsd HOST[:PORT]) for its devices, and listens on each /dev/gps*, /dev/ttyACM* and \
            /dev/ttyUSB* for NMEA, trying the common baud rates, and says what it heard: the rate, \
            the talkers and the sentence types, or why it heard nothing. `--source auto` picks the \
            first source this lists as usable.
            """
    )

    @Option(help: ArgumentHelp("Where to ask for gpsd.", valueName: "host[:port]"))
    var gpsd: String = "localhost:2947"

    @Option(help: ArgumentHelp("How long to listen at each baud rate, in seconds.", valueName: "seconds"))
    var listen: Double = 2

    @Option(help: ArgumentHelp("Where to look for receiver device nodes.", valueName: "directory"))
    var devices: String = "/dev"

    func validate() throws {
        guard listen > 0 && listen <= 60 else {
            throw ValidationError("--listen takes seconds between 0 and 60, such as 2.")
        }
        do { _ = try GPSDAddress.parse("gpsd://" + gpsd) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let address = try GPSDAddress.parse("gpsd://" + gpsd)
        var usable: [String] = []
        if let banner = SourceDiscovery.gpsdBanner(host: address.host, port: address.port) {
            let release = GPSDReport.field("release", in: banner) ?? "?"
            print("gpsd \(address): running, release \(release)")
            let devices = SourceDiscovery.gpsdDevices(host: address.host, port: address.port).map(GPSDReport.devices) ?? []
            if devices.isEmpty { print("  no device: plug a receiver in, or add one with gpsdctl add /dev/ttyACM0") }
            for device in devices { print("  " + device) }
            usable.append("--source gpsd" + (address == GPSDAddress() ? "" : "://\(address)"))
        } else {
            print("gpsd \(address): not answering (not installed, not running, or another port)")
        }
        let candidates = SourceDiscovery.receiverCandidates(in: devices)
        if candidates.isEmpty {
            print("no \(devices)/gps*, \(devices)/ttyACM* or \(devices)/ttyUSB*: no USB receiver is plugged in (dmesg shows what the kernel saw)")
        }
        for path in candidates {
            do {
                let probe = try await SerialSource.probe(
                    path: path, listening: .milliseconds(Int64(listen * 1000)),
                    detectionTimeout: .milliseconds(Int64(listen * 1000)))
                var line = "\(path): NMEA at \(probe.baud.rawValue) baud"
                if !probe.talkers.isEmpty { line += ", talkers " + probe.talkers.joined(separator: " ") }
                if !probe.sentenceTypes.isEmpty { line += ", sentences " + probe.sentenceTypes.joined(separator: " ") }
                print(line)
                usable.append("--source \(path)")
            } catch let error as SourceError {
                // The error names the device.
                print("\(error)")
            }
        }
        guard let first = usable.first else {
            print("nothing to record from")
            throw ExitCode(1)
        }
        // `auto` looks only at gpsd on localhost:2947 and at /dev.
        let auto = address == GPSDAddress() && devices == "/dev"
        print("to record: trackd record \(first)" + (auto ? " (what --source auto picks)" : ""))
    }
}

/// Reading gpsd's JSON reports for people.
enum GPSDReport {
    struct Devices: Decodable {
        struct Device: Decodable {
            var path: String?
            var driver: String?
            var subtype: String?
            var activated: String?
            var bps: Int?
        }
        var devices: [Device]
    }

    /// One line per device in a `DEVICES` report.
    static func devices(_ json: String) -> [String] {
        guard let report = try? JSONDecoder().decode(Devices.self, from: Data(json.utf8)) else { return [] }
        return report.devices.map { d in
            var line = d.path ?? "?"
            if let driver = d.driver { line += ": \(driver)" + (d.subtype.map { " \($0)" } ?? "") }
            if let bps = d.bps { line += ", \(bps) baud" }
            line += d.activated == nil ? ", not active" : ", active"
            return line
        }
    }

    /// A top-level string field of a JSON report.
    static func field(_ name: String, in json: String) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: Data(json.utf8)),
            case .string(let value)? = object[name]
        else { return nil }
        return value
    }

    enum JSONScalar: Decodable {
        case string(String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self = (try? container.decode(String.self)).map(JSONScalar.string) ?? .other
        }
    }
}
