import CGPSShim
import Foundation
import GPSCore
@testable import GPSSources
import Testing
import TrackdTestSupport

/// Against a real gpsd on a pty: one gpsd process per test, so the suite is serialized.
@Suite("gpsd source against a real gpsd", .serialized, .timeLimit(.minutes(1)))
struct GPSDSourceTests {
    /// The fixes the source yields until one at or after `time` (µs since 1970), that one excluded.
    func fixes(before time: Int64, from consumer: inout Consumer) async throws -> [Fix] {
        var fixes: [Fix] = []
        while let event = try await consumer.events.next() {
            guard case .fix(let fix) = event else { continue }
            if let t = fix.time?.microsecondsSinceEpoch, t >= time { return fixes }
            fixes.append(fix)
        }
        return fixes
    }

    @Test(
        "fixes through gpsd agree with the NMEA parser's on time, position and fix or no-fix",
        arguments: [
            "ublox-neo-m9n-nmea.log",  // u-blox, multi-GNSS, 2020: gpsd sends 3-4 TPVs per epoch
            "quectel-L70.log",  // MTK, GPS only, 2022
        ])
    func agreesWithParser(_ name: String) async throws {
        let path = Fixtures.corpus.appendingPathComponent(name).path
        let expected = try Fixtures.wholeFileFixes(path).filter { $0.time?.microsecondsSinceEpoch != nil }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let gpsd = try GPSDHarness()
        defer { gpsd.stop() }  // feeding tasks may keep the harness alive after the test
        var consumer = Consumer(GPSDSource(address: gpsd.address))
        defer { consumer.task.cancel() }
        #expect(try await consumer.events.next() == .connected("gpsd 127.0.0.1:\(gpsd.port)"))

        try await gpsd.feed(NMEAEpochs.split(text))
        // A later time after the log, so that the test knows gpsd has reported all of it.
        let sentinel = Task { try await gpsd.feed((0..<200).map { Log.rmc(at: $0) }, gap: .milliseconds(50)) }
        defer { sentinel.cancel() }
        let got = try await fixes(before: Log.startMicroseconds, from: &consumer)

        let parsed = Dictionary(expected.map { ($0.time?.microsecondsSinceEpoch ?? 0, $0) }, uniquingKeysWith: { $1 })
        let fromGPSD = Dictionary(grouping: got, by: { $0.time?.microsecondsSinceEpoch ?? 0 })
        let common = Set(parsed.keys).intersection(fromGPSD.keys)
        #expect(expected.count >= 10)
        let seen = got.prefix(5).map { "\($0.time?.description ?? "untimed") \($0.mode)" }
        #expect(common.count * 5 >= parsed.count * 4, "\(common.count) of \(parsed.count) times; gpsd's first fixes \(seen); gpsd log: \(gpsd.log)")
        var mismatches: [String] = []
        for time in common.sorted() {
            guard let mine = parsed[time], let theirs = fromGPSD[time], let last = theirs.last else { continue }
            if last.hasPosition != mine.hasPosition {
                mismatches.append("\(mine.time?.description ?? "?"): gpsd mode \(last.mode), parser \(mine.mode)")
            }
            for fix in theirs {
                guard let a = fix.coordinate else { continue }
                guard let b = mine.coordinate,
                      abs(a.latitude - b.latitude) <= 1e-6, abs(a.longitude - b.longitude) <= 1e-6
                else {
                    mismatches.append("\(mine.time?.description ?? "?"): gpsd \(a), parser \(String(describing: mine.coordinate))")
                    continue
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // gpsd's several TPVs of one epoch come out as one fix per time.
        let repeated = fromGPSD.filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "\(repeated.count) times came more than once")
        #expect(common.filter { parsed[$0]?.hasPosition == true }.count >= 10)
        #expect(got.contains { $0.accuracy?.source == .gpsd && $0.accuracy?.verticalMeters != nil })
        // The latest SKY's satellites and DOPs ride on the TPV fixes after it.
        #expect(got.contains { !$0.satellitesInView.isEmpty && $0.hdop != nil && $0.satellitesUsed != nil })
    }

    @Test("gpsd killed and started again: the source yields lost once, then resumed, then fixes again")
    func lostAndResumed() async throws {
        let gpsd = try GPSDHarness()
        defer { gpsd.stop() }  // feeding tasks may keep the harness alive after the test
        var consumer = Consumer(GPSDSource(address: gpsd.address))
        defer { consumer.task.cancel() }
        let connected = try await consumer.events.next()
        #expect(connected == .connected("gpsd 127.0.0.1:\(gpsd.port)"))

        let before = Task { try await gpsd.feed((0..<600).map { Log.rmc(at: $0) }, gap: .milliseconds(50)) }
        var first: Fix?
        while first == nil, let event = try await consumer.events.next() {
            if case .fix(let fix) = event, fix.time?.microsecondsSinceEpoch != nil { first = fix }
        }
        before.cancel()
        _ = try? await before.value
        #expect(first?.hasPosition == true)

        gpsd.stop()
        var beforeLost: [SourceEvent] = []
        while let event = try await consumer.events.next() {
            if case .lost = event {
                #expect(event == .lost("gpsd at 127.0.0.1:\(gpsd.port) went away"))
                break
            }
            beforeLost.append(event)
        }
        #expect(beforeLost.allSatisfy { if case .fix = $0 { true } else { false } })

        try gpsd.start()
        #expect(try await consumer.events.next() == .resumed("gpsd 127.0.0.1:\(gpsd.port)"))

        let resumeAt = 1000
        let after = Task { try await gpsd.feed((resumeAt..<resumeAt + 600).map { Log.rmc(at: $0) }, gap: .milliseconds(50)) }
        defer { after.cancel() }
        var afterResumed: [SourceEvent] = []
        var resumedFix: Fix?
        while resumedFix == nil, let event = try await consumer.events.next() {
            afterResumed.append(event)
            if case .fix(let fix) = event, let t = fix.time?.microsecondsSinceEpoch,
               t >= Log.startMicroseconds + Int64(resumeAt) * 1_000_000 {
                resumedFix = fix
            }
        }
        #expect(resumedFix?.hasPosition == true)
        #expect(afterResumed.allSatisfy { if case .fix = $0 { true } else { false } })
    }

    @Test("without reconnect, the sequence ends after lost when gpsd goes away")
    func noReconnect() async throws {
        let gpsd = try GPSDHarness()
        defer { gpsd.stop() }
        var iterator = GPSDSource(address: gpsd.address, reconnect: false).makeAsyncIterator()
        #expect(try await iterator.next() == .connected("gpsd 127.0.0.1:\(gpsd.port)"))
        gpsd.stop()
        var event = try await iterator.next()
        while case .fix = event { event = try await iterator.next() }
        #expect(event == .lost("gpsd at 127.0.0.1:\(gpsd.port) went away"))
        #expect(try await iterator.next() == nil)
    }

    @Test("with no gpsd on the port the source fails at once with an error naming the address and the reason")
    func noGPSD() async throws {
        let port = try GPSDHarness.freePort()
        let address = GPSDAddress(host: "127.0.0.1", port: port)
        let (events, error) = await drain(GPSDSource(address: address))
        #expect(events.isEmpty)
        #expect(error as? SourceError == .gpsdUnavailable(address: address, reason: "Connection refused"))
        #expect((error as? SourceError)?.description
            == "cannot reach gpsd at 127.0.0.1:\(port) (Connection refused); is gpsd running (systemctl status gpsd)? or give --source /dev/ttyACM0")
    }

    @Test("the description and clock of a gpsd source")
    func description() {
        let source = GPSDSource(address: GPSDAddress())
        #expect(source.description == "gpsd localhost:2947")
        #expect(source.clock is ContinuousClock)
    }
}

@Suite("gpsd addresses")
struct GPSDAddressTests {
    @Test(
        "a gpsd source argument parses to host and port",
        arguments: [
            ("gpsd", "localhost", 2947),
            ("gpsd://", "localhost", 2947),
            ("gpsd://pi.local", "pi.local", 2947),
            ("gpsd://10.0.0.7:2948", "10.0.0.7", 2948),
            ("gpsd://:3000", "localhost", 3000),
            ("gpsd://[::1]", "::1", 2947),
            ("gpsd://[::1]:2947", "::1", 2947),
            ("gpsd://[fe80::1%eth0]:65535", "fe80::1%eth0", 65535),
        ])
    func parses(_ text: String, host: String, port: Int) throws {
        #expect(try GPSDAddress.parse(text) == GPSDAddress(host: host, port: port))
    }

    @Test(
        "a malformed gpsd address is refused, saying what is wrong",
        arguments: [
            ("gpsd:localhost", "it does not start with gpsd://"),
            ("tcp://localhost:2947", "it does not start with gpsd://"),
            ("gpsd://host:", "the port must be a number from 1 to 65535, not ''"),
            ("gpsd://host:0", "the port must be a number from 1 to 65535, not '0'"),
            ("gpsd://host:65536", "the port must be a number from 1 to 65535, not '65536'"),
            ("gpsd://host:+80", "the port must be a number from 1 to 65535, not '+80'"),
            ("gpsd://host:http", "the port must be a number from 1 to 65535, not 'http'"),
            ("gpsd://::1", "an IPv6 address must be in brackets"),
            ("gpsd://[::1", "the IPv6 address has no closing ]"),
            ("gpsd://[]:2947", "the brackets hold no address"),
            ("gpsd://[::1]2947", "only :PORT may follow the bracketed address"),
            ("gpsd://host/path", "a gpsd address has no path"),
        ])
    func refuses(_ text: String, reason: String) {
        #expect(throws: SourceError.badGPSDAddress(text, reason: reason)) { try GPSDAddress.parse(text) }
        #expect(SourceError.badGPSDAddress(text, reason: reason).description.hasPrefix("'\(text)' is not a gpsd address: \(reason);"))
    }

    @Test("an address is written back as HOST:PORT, IPv6 in brackets")
    func describes() {
        #expect(GPSDAddress().description == "localhost:2947")
        #expect(GPSDAddress(host: "::1", port: 2947).description == "[::1]:2947")
        #expect(GPSDAddress(host: "10.0.0.7", port: 2948).description == "10.0.0.7:2948")
    }

    @Test("only gpsd and gpsd:// arguments are taken for gpsd addresses")
    func recognises() {
        #expect(GPSDAddress.isGPSDAddress("gpsd"))
        #expect(GPSDAddress.isGPSDAddress("gpsd://x"))
        #expect(!GPSDAddress.isGPSDAddress("/dev/ttyACM0"))
        #expect(!GPSDAddress.isGPSDAddress("gpsd.nmea"))
    }
}

@Suite("gpsd report mapping")
struct GPSDFixMappingTests {
    /// 2024-09-14T08:00:00Z in seconds since 1970.
    static let seconds = Log.startMicroseconds / 1_000_000

    /// A TPV report as libgps leaves it: every number unknown (NaN) but those given.
    static func tpv(mode: Int32 = 3, status: Int32 = 1, nanoseconds: Int64 = 0) -> trackd_gps_report {
        var report = trackd_gps_report()
        report.set = TRACKD_GPS_STATUS_SET | TRACKD_GPS_TIME_SET
        report.time_seconds = seconds
        report.time_nanoseconds = nanoseconds
        report.mode = mode
        report.status = status
        for path: WritableKeyPath<trackd_gps_report, Double> in [
            \.latitude, \.longitude, \.alt_hae, \.alt_msl, \.speed, \.track, \.climb,
            \.eph, \.epx, \.epy, \.epv, \.hdop, \.vdop, \.pdop,
        ] {
            report[keyPath: path] = .nan
        }
        return report
    }

    @Test("a 3D TPV maps to a fix with time, position, MSL altitude, geoid separation, speed and course")
    func threeD() throws {
        var report = Self.tpv(nanoseconds: 250_000_000)
        report.latitude = 47.123456789
        report.longitude = -8.5
        report.alt_hae = 548.25
        report.alt_msl = 500.0
        report.speed = 1.5
        report.track = 271.0
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: nil))
        #expect(fix.time == FixTime(date: CalendarDate(year: 2024, month: 9, day: 14),
                                    timeOfDay: TimeOfDay(hour: 8, minute: 0, second: 0, microsecond: 250_000)))
        #expect(fix.mode == .threeD)
        #expect(fix.quality == .gps)
        #expect(fix.coordinate == Coordinate(latitude: 47.123456789, longitude: -8.5))
        #expect(fix.altitudeMSLMeters == 500.0)
        #expect(fix.geoidSeparationMeters == 48.25)
        #expect(fix.speedMetersPerSecond == 1.5)
        #expect(fix.courseDegrees == 271.0)
        #expect(fix.accuracy == nil)
        #expect(fix.satellitesInView.isEmpty && fix.hdop == nil && fix.satellitesUsed == nil)
    }

    @Test("unknown (NaN) speed, course, altitudes and errors map to nil")
    func nansAreNil() throws {
        var report = Self.tpv(mode: 2)
        report.latitude = 10
        report.longitude = 20
        report.alt_hae = 120
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: nil))
        #expect(fix.mode == .twoD)
        #expect(fix.speedMetersPerSecond == nil)
        #expect(fix.courseDegrees == nil)
        #expect(fix.altitudeMSLMeters == nil)
        #expect(fix.geoidSeparationMeters == nil)
        #expect(fix.accuracy == nil)
    }

    @Test("mode 1 is a no-fix with its time and no position, whatever the coordinates say")
    func modeOne() throws {
        var report = Self.tpv(mode: 1, status: 0)
        report.latitude = 10
        report.longitude = 20
        report.eph = 5
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: nil))
        #expect(fix.mode == .noFix)
        #expect(fix.coordinate == nil)
        #expect(fix.quality == .invalid)
        #expect(fix.accuracy == nil)
        #expect(fix.time?.microsecondsSinceEpoch == Log.startMicroseconds)
    }

    @Test("mode 3 without coordinates is a no-fix, so a fix has a coordinate exactly when it has a mode")
    func modeWithoutCoordinates() throws {
        let fix = try #require(GPSDFixMapping.fix(from: Self.tpv(mode: 3), sky: nil))
        #expect(fix.mode == .noFix)
        #expect(fix.coordinate == nil)
    }

    @Test("a TPV without time, and a report that is no TPV, make no fix")
    func noTimeNoFix() {
        var untimed = Self.tpv()
        untimed.set = TRACKD_GPS_STATUS_SET
        untimed.time_seconds = 0
        #expect(GPSDFixMapping.fix(from: untimed, sky: nil) == nil)
        var sky = Self.tpv()
        sky.set = TRACKD_GPS_SATELLITE_SET
        #expect(GPSDFixMapping.fix(from: sky, sky: nil) == nil)
    }

    @Test("eph and epv are taken as gpsd's 95 % horizontal and vertical accuracy")
    func ephAccuracy() throws {
        var report = Self.tpv()
        report.latitude = 1
        report.longitude = 2
        report.eph = 12.5
        report.epx = 3
        report.epy = 4
        report.epv = 20
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: nil))
        #expect(fix.accuracy == PositionAccuracy(horizontalMeters: 12.5, verticalMeters: 20, source: .gpsd))
    }

    @Test("without eph, the horizontal accuracy is sqrt(epx² + epy²); without epv there is no vertical")
    func epxEpyAccuracy() throws {
        var report = Self.tpv()
        report.latitude = 1
        report.longitude = 2
        report.epx = 3
        report.epy = 4
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: nil))
        #expect(fix.accuracy == PositionAccuracy(horizontalMeters: 5, verticalMeters: nil, source: .gpsd))
    }

    @Test(
        "gpsd's status maps to the fix quality",
        arguments: [
            (Int32(0), FixQuality.gps), (1, .gps), (2, .dgps), (3, .rtkFixed), (4, .rtkFloat),
            (5, .estimated), (6, .gps), (7, .manual), (8, .simulated), (9, .pps),
        ])
    func quality(_ status: Int32, _ quality: FixQuality) {
        #expect(GPSDFixMapping.quality(status: status, hasPosition: true) == quality)
        #expect(GPSDFixMapping.quality(status: status, hasPosition: false) == .invalid)
    }

    @Test("nanoseconds round to the nearest microsecond, into the next day at midnight")
    func timeRounding() throws {
        let t = try #require(GPSDFixMapping.fixTime(seconds: Self.seconds, nanoseconds: 123_456_789))
        #expect(t.microsecondsSinceEpoch == Log.startMicroseconds + 123_457)
        let midnight = Int64(CalendarDate(year: 2024, month: 9, day: 15).daysSinceEpoch) * 86_400
        let late = try #require(GPSDFixMapping.fixTime(seconds: midnight - 1, nanoseconds: 999_999_700))
        #expect(late.date == CalendarDate(year: 2024, month: 9, day: 15))
        #expect(late.timeOfDay.microseconds == 0)
        #expect(GPSDFixMapping.fixTime(seconds: Self.seconds, nanoseconds: 1_000_000_000) == nil)
    }

    @Test("a SKY's satellites, used count and DOPs are attached to the TPV fixes after it")
    func skyAttached() throws {
        var skyReport = Self.tpv()
        skyReport.set = TRACKD_GPS_SATELLITE_SET
        skyReport.hdop = 0.9
        skyReport.vdop = 1.3
        skyReport.pdop = 1.6
        skyReport.satellites_visible = 3
        skyReport.satellites_used = 2
        skyReport.satellite_count = 3
        withUnsafeMutableBytes(of: &skyReport.satellites) { raw in
            let sats = raw.bindMemory(to: trackd_gps_satellite.self)
            sats[0] = trackd_gps_satellite(prn: 15, gnssid: 0, svid: 15, elevation: 29, azimuth: 271, ss: 37, used: true)
            sats[1] = trackd_gps_satellite(prn: 68, gnssid: 6, svid: 4, elevation: 45.6, azimuth: .nan, ss: 0, used: true)
            sats[2] = trackd_gps_satellite(prn: 0, gnssid: 2, svid: 11, elevation: .nan, azimuth: 12, ss: .nan, used: false)
        }
        #expect(GPSDFixMapping.isSKY(skyReport) && !GPSDFixMapping.isTPV(skyReport))
        let sky = GPSDFixMapping.sky(from: skyReport)
        #expect(sky.satellitesInView == [
            SatelliteInView(constellation: .gps, prn: 15, elevationDegrees: 29, azimuthDegrees: 271, snr: 37, used: true),
            SatelliteInView(constellation: .glonass, prn: 68, elevationDegrees: 46, azimuthDegrees: nil, snr: nil, used: true),
            SatelliteInView(constellation: .galileo, prn: 11, elevationDegrees: nil, azimuthDegrees: 12, snr: nil, used: false),
        ])
        var report = Self.tpv()
        report.latitude = 1
        report.longitude = 2
        let fix = try #require(GPSDFixMapping.fix(from: report, sky: sky))
        #expect(fix.satellitesInView == sky.satellitesInView)
        #expect(fix.satellitesUsed == 2)
        #expect(fix.hdop == 0.9 && fix.vdop == 1.3 && fix.pdop == 1.6)
    }

    @Test(
        "u-blox gnssIds name the constellations",
        arguments: [
            (Int32(0), Constellation.gps), (1, .sbas), (2, .galileo), (3, .beidou), (4, .unknown),
            (5, .qzss), (6, .glonass), (7, .navic), (8, .unknown),
        ])
    func constellations(_ id: Int32, _ constellation: Constellation) {
        #expect(GPSDFixMapping.constellation(gnssID: id) == constellation)
    }
}

@Suite("Reconnect backoff")
struct GPSDReconnectBackoffTests {
    @Test("waits start at 0.5 s and double up to 10 s, then stay there")
    func doubling() {
        var backoff = ReconnectBackoff()
        let waits = (0..<8).map { _ in backoff.nextDelay() }
        #expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
    }

    @Test("after a success the next wait is the first again")
    func reset() {
        var backoff = ReconnectBackoff()
        _ = backoff.nextDelay()
        _ = backoff.nextDelay()
        _ = backoff.nextDelay()
        backoff.reset()
        #expect(backoff.nextDelay() == .milliseconds(500))
        #expect(backoff.nextDelay() == .seconds(1))
    }

    @Test("other bounds are kept: 1 s doubling to 3 s")
    func customBounds() {
        var backoff = ReconnectBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(3))
        #expect((0..<4).map { _ in backoff.nextDelay() } == [.seconds(1), .seconds(2), .seconds(3), .seconds(3)])
    }
}
