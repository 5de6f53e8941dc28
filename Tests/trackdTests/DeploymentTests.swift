import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a Raspberry Pi install is made of: the udev rules, the systemd units (checked by
/// systemd-analyze), sd_notify over a real datagram socket, the configuration file, and
/// `make install-files`/`make uninstall` into a temporary root.
@Suite("deployment: udev, systemd, sd_notify, configuration, install")
struct DeploymentTests {
    static let rules = Support.repository.appendingPathComponent("udev/60-trackd.rules")
    static let units = ["trackd@.service", "trackd.service", "trackd-live.service"]
    static let sampleConfiguration = Support.repository.appendingPathComponent("config/trackd.toml")
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    // MARK: udev

    /// The rules' lines without comments, continuation lines joined.
    static func ruleLines() throws -> [String] {
        try String(contentsOf: rules, encoding: .utf8)
            .replacingOccurrences(of: "\\\n", with: "")
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test("every udev rule line is a list of KEY op \"value\" with a key udev knows, and every GOTO has its LABEL")
    func udevSyntax() throws {
        let keys: Set = [
            "ACTION", "SUBSYSTEM", "KERNEL", "ATTRS", "ENV", "GOTO", "LABEL", "SYMLINK", "GROUP", "MODE", "TAG",
        ]
        let pair = /^\s*([A-Z]+)(\{[A-Za-z_]+\})?\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(,|$)/
        var labels: Set<String> = [], gotos: Set<String> = []
        for line in try Self.ruleLines() {
            var rest = Substring(line)
            while !rest.isEmpty {
                let match = try #require(try pair.prefixMatch(in: rest), "not KEY op \"value\": \(rest) in \(line)")
                let key = String(match.output.1)
                #expect(keys.contains(key), "unexpected key \(key) in \(line)")
                if key == "LABEL" { labels.insert(String(match.output.4)) }
                if key == "GOTO" { gotos.insert(String(match.output.4)) }
                rest = rest[match.range.upperBound...]
            }
        }
        #expect(gotos == labels, "GOTO targets \(gotos) and LABELs \(labels) differ")
    }

    @Test(
        "the udev rules send each listed vendor:product to the GPS label",
        arguments: [
            ("1546", "01a5"), ("1546", "01a6"), ("1546", "01a7"), ("1546", "01a8"), ("1546", "01a9"),
            ("067b", "2303"), ("067b", "23a3"), ("10c4", "ea60"), ("0403", "6001"), ("0403", "6015"),
            ("1a86", "7523"), ("1163", "0200"),
        ])
    func udevMatches(vendor: String, product: String) throws {
        let matching = try Self.ruleLines().filter {
            $0.contains("ATTRS{idVendor}==\"\(vendor)\"") && $0.contains("ATTRS{idProduct}==\"\(product)\"")
        }
        #expect(matching.count == 1, "\(vendor):\(product) is in \(matching.count) rules")
        #expect(matching.first?.hasSuffix("GOTO=\"trackd_gps\"") == true, "\(matching)")
    }

    @Test("a matched receiver gets /dev/gpsN, group dialout, and wants trackd@<tty>.service from systemd")
    func udevActions() throws {
        let lines = try Self.ruleLines()
        let label = try #require(lines.firstIndex(of: "LABEL=\"trackd_gps\""))
        let actions = lines[(label + 1)...].prefix { !$0.hasPrefix("LABEL=") }.joined(separator: ", ")
        for part in ["SYMLINK+=\"gps%n\"", "GROUP=\"dialout\"", "MODE=\"0660\"", "TAG+=\"systemd\"",
                     "ENV{SYSTEMD_WANTS}+=\"trackd@%k.service\""] {
            #expect(actions.contains(part), "the GPS label's rules lack \(part): \(actions)")
        }
        #expect(lines.contains("ACTION==\"remove\", GOTO=\"trackd_end\""))
        #expect(lines.contains("SUBSYSTEM!=\"tty\", GOTO=\"trackd_end\""))
    }

    // MARK: install

    /// Runs make in the repository.
    static func make(_ arguments: [String]) throws -> Support.Result {
        try Support.run("make", ["-s", "-C", Support.repository.path] + arguments)
    }

    /// The files (and links) under `root`, relative, sorted.
    static func files(under root: URL) -> [String] {
        let prefix = root.resolvingSymlinksInPath().path + "/"
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        var result: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { continue }
            result.append(url.resolvingSymlinksInPath().path.replacingOccurrences(of: prefix, with: ""))
        }
        return result.sorted()
    }

    @Test("make install-files lays out binary, units, rules and config; uninstall leaves the tracks and an edited config")
    func installAndUninstall() throws {
        let root = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let install = ["install-files", "DESTDIR=\(root.path)", "BINARY=\(Support.trackd.path)"]
        let installed = try Self.make(install)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(Self.files(under: root) == [
            "etc/systemd/system/trackd-live.service", "etc/systemd/system/trackd.service", "etc/systemd/system/trackd@.service",
            "etc/trackd/trackd.toml",
            "etc/udev/rules.d/60-trackd.rules", "usr/local/bin/trackd",
        ])
        let unit = try String(contentsOf: root.appendingPathComponent("etc/systemd/system/trackd@.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/trackd record --source /dev/%I"))

        // A second install keeps an edited configuration; uninstall keeps it and the tracks.
        let config = root.appendingPathComponent("etc/trackd/trackd.toml")
        try "accuracy = \"kilometer\"\n".write(to: config, atomically: true, encoding: .utf8)
        let state = root.appendingPathComponent("var/lib/private/trackd")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("tracks".utf8).write(to: state.appendingPathComponent("tracks.sqlite"))
        #expect(try Self.make(install).status == 0)
        #expect(try String(contentsOf: config, encoding: .utf8) == "accuracy = \"kilometer\"\n")

        let removed = try Self.make(["uninstall", "DESTDIR=\(root.path)"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(Self.files(under: root) == ["etc/trackd/trackd.toml", "var/lib/private/trackd/tracks.sqlite"])

        // An unedited configuration goes with the rest.
        try FileManager.default.removeItem(at: config)
        #expect(try Self.make(install).status == 0)
        #expect(try Self.make(["uninstall", "DESTDIR=\(root.path)"]).status == 0)
        #expect(Self.files(under: root) == ["var/lib/private/trackd/tracks.sqlite"])
    }

    // MARK: systemd

    /// The units installed into a temporary root where systemd-analyze finds the binary and
    /// (through a link to the host's) systemd's own units.
    static func withInstalledUnits(_ body: (URL) throws -> Void) throws {
        let root = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let installed = try make(["install-files", "DESTDIR=\(root.path)", "BINARY=\(Support.trackd.path)"])
        #expect(installed.status == 0, "\(installed.stderr)")
        let lib = root.appendingPathComponent("usr/lib/systemd")
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: lib.appendingPathComponent("system"), withDestinationURL: URL(fileURLWithPath: "/usr/lib/systemd/system"))
        try body(root)
    }

    @Test(
        "systemd-analyze verify accepts the units, with no unknown or ignored setting",
        .enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze),
                 "systemd-analyze is missing: install Debian's systemd package (scripts/bootstrap --deps)"))
    func systemdVerify() throws {
        try Self.withInstalledUnits { root in
            let result = try Support.run(Self.systemdAnalyze, ["verify", "--root=\(root.path)", "--man=no",
                                                               "trackd.service", "trackd@ttyUSB0.service", "trackd-live.service"])
            #expect(result.status == 0, "\(result.stderr)")
            // Only what is said about our units: the host's units, seen through the link, make
            // systemd-analyze complain about their absolute symlinks.
            let complaints = result.stderr.split(separator: "\n").filter {
                $0.contains("trackd.service") || $0.contains("trackd@") || $0.contains("trackd-live")
            }
            #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
        }
    }

    @Test(
        "systemd-analyze security rates each unit 2.0 or lower",
        .enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze),
                 "systemd-analyze is missing: install Debian's systemd package (scripts/bootstrap --deps)"),
        arguments: units)
    func systemdSecurity(unit: String) throws {
        let path = Support.repository.appendingPathComponent("systemd/\(unit)").path
        let result = try Support.run(Self.systemdAnalyze, ["security", "--offline=yes", "--no-pager", path])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdoutText + result.stderr
        let level = /Overall exposure level for [^:]+: ([0-9]+\.[0-9])/
        let match = try #require(try level.firstMatch(in: output), "no exposure level in:\n\(output)")
        let score = try #require(Double(match.output.1))
        #expect(score <= 2.0, "\(unit) is rated \(score):\n\(output)")
    }

    // MARK: sd_notify

    /// A datagram socket bound to `name` (a path, or `@name` for the abstract namespace).
    final class NotifySocket {
        let descriptor: Int32

        init(name: String) throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            guard descriptor >= 0 else { throw Support.Failure("socket: \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (bytes.first == 0 ? 0 : 1))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw Support.Failure("bind \(name): \(String(cString: strerror(errno)))") }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        /// The next datagram, or nil after 100 ms without one.
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
        }
    }

    @Test("under systemd, record sends READY=1, then WATCHDOG=1 with a status, and STOPPING=1 on SIGTERM",
          arguments: [false, true])
    func notify(abstract: Bool) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = abstract ? "@trackd-test-\(UUID().uuidString)" : dir.appendingPathComponent("notify").path
        let socket = try NotifySocket(name: name)

        let process = Process()
        process.executableURL = Support.trackd
        process.arguments = ["record", "--source", "simulate:hike", "--speed", "20", "--duration", "2m", "--no-chime",
                             "--store", dir.appendingPathComponent("tracks.sqlite").path]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = name
        environment["WATCHDOG_USEC"] = "200000"
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var messages: [String] = []
        let deadline = Date().addingTimeInterval(30)
        while messages.filter({ $0.hasPrefix("WATCHDOG=1") }).count < 4 && Date() < deadline && process.isRunning {
            if let message = socket.receive() { messages.append(message) }
        }
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning || messages.last.map({ !$0.hasPrefix("STOPPING=1") }) ?? true {
            if let message = socket.receive() { messages.append(message) } else if !process.isRunning { break }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=recording track 1 from ") == true, "\(messages)")
        #expect(messages.filter { $0 == "READY=1" || $0.hasPrefix("READY=1\n") }.count == 1, "\(messages)")
        let pings = messages.filter { $0.hasPrefix("WATCHDOG=1\nSTATUS=recording track 1") }
        #expect(pings.count >= 4, "\(messages)")
        #expect(messages.last?.hasPrefix("STOPPING=1") == true, "\(messages)")
    }

    // MARK: configuration

    /// `trackd record` with a configuration file holding `toml`, recording the sample hike.
    static func record(config toml: String, _ arguments: [String], in dir: URL) throws -> Support.Result {
        let file = dir.appendingPathComponent("trackd.toml")
        try toml.write(to: file, atomically: true, encoding: .utf8)
        return try Support.trackd(["record", "--config", file.path, "--no-chime"] + arguments)
    }

    @Test(
        "an invalid configuration names the file, the line and the key",
        arguments: [
            ("source = \"simulate:hike\"\n# tier\n\naccuracy = \"fast\"\n",
             ":4: accuracy = \"fast\" is not one of best-for-navigation, best, nearest-ten-meters"),
            ("sorce = \"auto\"\nvolum = 3\n", ":1: unknown keys sorce, volum; the keys are source, baud"),
            ("distance_filter = -1\n", ":1: distance_filter = -1 is not a number of metres"),
            ("name = \"x\"\nbaud = 1200\n", ":2: baud = 1200 is not one of 4800, 9600"),
            ("chimes = [\"signal\", \"bell\"]\n", ":1: chimes = "),
            ("volume = 120\n", ":1: volume = 120 is not a whole number from 0 to 100"),
            ("store = \"tracks.sqlite\"\n", ":1: store = \"tracks.sqlite\" is not an absolute path"),
            ("accuracy = \n", ":1: not valid TOML"),
            ("serve = \"0.0.0.0\"\n", ":1: serve = \"0.0.0.0\" is not HOST:PORT"),
        ])
    func invalidConfiguration(toml: String, message: String) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.record(config: toml, ["--store", dir.appendingPathComponent("t.sqlite").path], in: dir)
        #expect(result.status != 0)
        #expect(result.stderr.contains(dir.appendingPathComponent("trackd.toml").path + message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("t.sqlite").path))
    }

    @Test("a --config file that does not exist is an error")
    func missingConfiguration() throws {
        let result = try Support.trackd(["record", "--config", "/nonexistent/trackd.toml", "--source", Support.sample.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read the configuration file /nonexistent/trackd.toml: No such file or directory"),
                "\(result.stderr)")
    }

    @Test("the command line wins over the configuration file, which wins over the defaults; TRACKD_CONFIG names it")
    func commandLineOverridesConfiguration() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("tracks.sqlite")
        let toml = """
            source = "\(Support.sample.path)"
            accuracy = "kilometer"
            activity = "automotive-navigation"
            name = "from the file"
            store = "\(store.path)"
            chimes = "none"
            """
        let result = try Self.record(config: toml, ["--accuracy", "best", "--name", "given"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Support.query(store, "SELECT name, accuracy, activity FROM track") == ["given|best|automotive-navigation"])

        // The same file through TRACKD_CONFIG, nothing given: the file's settings.
        var environment = ProcessInfo.processInfo.environment
        environment["TRACKD_CONFIG"] = dir.appendingPathComponent("trackd.toml").path
        let second = try Support.run(Support.trackd.path, ["record"], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Support.query(store, "SELECT name, accuracy, activity FROM track WHERE id = 2")
                == ["from the file|kilometer|automotive-navigation"])
    }

    @Test("the sample configuration documents every key, and uncommented it is a valid file")
    func sampleConfiguration() throws {
        let sample = try String(contentsOf: Self.sampleConfiguration, encoding: .utf8)
        let settings = sample.split(separator: "\n").filter { $0.hasPrefix("# ") && $0.contains(" = ") }
            .map { String($0.dropFirst(2)) }
        let keys = settings.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(keys == ["source", "baud", "accuracy", "activity", "distance_filter", "name", "store", "chimes",
                         "chime_every", "alsa_device", "volume", "allow_missing_checksum", "serve"])
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // baud applies to a device only; --source and --store point at the sample and dir;
        // the live view listens on a free port.
        let uncommented = settings.filter { !$0.hasPrefix("baud ") }
            .map { $0.hasPrefix("serve ") ? "serve = \"127.0.0.1:0\"" : $0 }.joined(separator: "\n")
        let result = try Self.record(
            config: uncommented, ["--source", Support.sample.path, "--store", dir.appendingPathComponent("t.sqlite").path],
            in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recorded track 1 'commute'"), "\(result.stderr)")
        #expect(result.stderr.contains("live view on http://127.0.0.1:"), "\(result.stderr)")
    }
}
