import GPSCore
import NMEA
import Testing

@testable import Simulation

/// A simulation run through trackd's own parser: the fixes it assembles, by epoch time.
struct ParsedRun {
    var epochs: [SimulatedEpoch] = []
    var fixes: [Int64: Fix] = [:]
    var rejections: [NMEAError] = []
    var fixCount = 0

    init(_ settings: SimulationSettings) {
        epochs = Array(Simulator(settings))
        var parser = NMEAParser()
        var bytes: [UInt8] = []
        for epoch in epochs { bytes += Array(epoch.text.utf8) }
        var fixes: [Int64: Fix] = [:]
        var rejections: [NMEAError] = []
        var count = 0
        let take = { (fix: Fix) in
            count += 1
            if let t = fix.time?.microsecondsSinceEpoch { fixes[t] = fix }
        }
        bytes.withUnsafeBytes { parser.parse($0, onReject: { rejections.append($0) }, onFix: take) }
        parser.finish(onReject: { rejections.append($0) }, onFix: take)
        self.fixes = fixes
        self.rejections = rejections
        self.fixCount = count
    }

    func fix(for epoch: SimulatedEpoch) -> Fix? {
        epoch.truth.time.microsecondsSinceEpoch.flatMap { fixes[$0] }
    }
}

/// Horizontal distance in metres on a local plane, good for the few metres of receiver error.
func horizontalError(_ a: Coordinate, _ b: Coordinate) -> Double {
    let north = (a.latitude - b.latitude) * Double.pi / 180 * Coordinate.earthMeanRadiusMeters
    let east = (a.longitude - b.longitude) * Double.pi / 180 * Coordinate.earthMeanRadiusMeters
        * PortableMath.cos(PortableMath.radians(b.latitude))
    return (north * north + east * east).squareRoot()
}

@Suite("Simulator")
struct SimulatorTests {
    @Test("the same settings give byte-identical output", arguments: Route.allCases)
    func deterministic(route: Route) {
        let settings = SimulationSettings(route: route, durationSeconds: 300, seed: 42)
        let a = Array(Simulator(settings))
        let b = Array(Simulator(settings))
        #expect(a.count == 300)
        #expect(a.map(\.text).joined() == b.map(\.text).joined())
        #expect(a.map(\.truth) == b.map(\.truth))
    }

    @Test("a different seed gives different sentences and, when moving, a different path", arguments: Route.allCases)
    func seedMatters(route: Route) {
        let a = Array(Simulator(SimulationSettings(route: route, durationSeconds: 120, seed: 1)))
        let b = Array(Simulator(SimulationSettings(route: route, durationSeconds: 120, seed: 2)))
        #expect(a.map(\.text).joined() != b.map(\.text).joined())
        if route != .standingStill {
            #expect(a.last?.truth.coordinate != b.last?.truth.coordinate)
        }
    }

    @Test("the output of one seed is pinned: any change to it is deliberate")
    func pinnedOutput() {
        // Ten minutes of hiking: path, error processes, satellites and formatting all take part.
        let epoch = Simulator(SimulationSettings(route: .hike, durationSeconds: 600, seed: 7)).map(\.text).joined()
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in epoch.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        #expect(epoch.hasPrefix("$GNRMC,073000.00,A,4637.4"))
        #expect(hash == SimulatorTests.pinnedHash, "FNV-1a of ten minutes of hike, seed 7, is \(hash)")
    }
    static let pinnedHash: UInt64 = 1_399_732_826_376_286_967

    @Test("every sentence has a valid checksum, CRLF and the u-blox order", arguments: Route.allCases)
    func sentenceShape(route: Route) {
        for epoch in Simulator(SimulationSettings(route: route, durationSeconds: 600, seed: 3)) {
            let types = epoch.sentences.map { String($0.dropFirst(1).prefix(5)) }
            #expect(Array(types.prefix(5)) == ["GNRMC", "GNVTG", "GNGGA", "GNGSA", "GNGSA"])
            #expect(types.last == "GNGST")
            let gsv = types.dropFirst(5).dropLast()
            #expect(!gsv.isEmpty && gsv.allSatisfy { $0 == "GPGSV" || $0 == "GLGSV" })
            #expect(gsv.contains("GPGSV") && gsv.contains("GLGSV"))
            for sentence in epoch.sentences {
                #expect(sentence.hasPrefix("$") && sentence.hasSuffix("\r\n"))
                let body = sentence.dropFirst().prefix { $0 != "*" }
                let checksum = body.utf8.reduce(UInt8(0), ^)
                let sent = sentence.split(separator: "*").last.map { String($0.prefix(2)) }
                #expect(sent.flatMap { UInt8($0, radix: 16) } == checksum, "\(sentence)")
                #expect(sentence.utf8.count <= 82, "longer than NMEA allows: \(sentence)")
            }
        }
    }

    @Test("trackd's parser accepts every sentence and its fixes follow the truth within the noise",
          arguments: Route.allCases)
    func parsesAndFollowsTruth(route: Route) throws {
        let noise = 3.0
        let run = ParsedRun(SimulationSettings(route: route, durationSeconds: 900, noiseMeters: noise, seed: 5))
        #expect(run.rejections.isEmpty, "\(run.rejections.prefix(3))")
        #expect(run.fixCount == run.epochs.count)
        var squares = 0.0
        var positions = 0
        for epoch in run.epochs {
            let fix = try #require(run.fix(for: epoch))
            #expect(fix.hasPosition == epoch.truth.hasFix)
            guard let coordinate = fix.coordinate else { continue }
            let error = horizontalError(coordinate, epoch.truth.coordinate)
            #expect(error < 6 * noise, "\(epoch.truth.time): \(error) m off")
            let altitudeError = try #require(fix.altitudeMSLMeters) - epoch.truth.altitudeMSLMeters
            #expect(abs(altitudeError) < 6 * 1.6 * noise)
            #expect(fix.mode == .threeD && fix.quality == .gps)
            let speedError = try #require(fix.speedMetersPerSecond) - epoch.truth.speedMetersPerSecond
            #expect(abs(speedError) < 0.3)
            #expect(fix.accuracy?.source == .gst)
            squares += error * error
            positions += 1
        }
        let rms = (squares / Double(max(positions, 1))).squareRoot()
        #expect(positions > run.epochs.count / 2)
        #expect((0.5 * noise...1.6 * noise).contains(rms), "RMS error \(rms) m for \(noise) m of noise")
    }

    @Test("with no noise the fixes are the true path, to the precision of the sentences")
    func noNoise() throws {
        let run = ParsedRun(SimulationSettings(route: .cityBicycleRide, durationSeconds: 300, noiseMeters: 0, seed: 9))
        #expect(run.rejections.isEmpty)
        for epoch in run.epochs where epoch.truth.hasFix {
            let fix = try #require(run.fix(for: epoch))
            let coordinate = try #require(fix.coordinate)
            #expect(horizontalError(coordinate, epoch.truth.coordinate) < 0.05)
            #expect(abs(try #require(fix.altitudeMSLMeters) - epoch.truth.altitudeMSLMeters) <= 0.051)
        }
    }

    @Test("the true speed matches the route's documented mean speed",
          arguments: [Route.cityRun, .cityBicycleRide, .freewayDrive, .hike], [UInt64(1), 2, 3])
    func speedProfile(route: Route, seed: UInt64) throws {
        let duration = 1200.0
        let last = try #require(Simulator(SimulationSettings(route: route, durationSeconds: duration, seed: seed))
            .reduce(nil as TruePosition?) { $1.truth })
        let mean = last.distanceMeters / (duration - 1)
        #expect(route.profile.meanSpeedMetersPerSecond.contains(mean), "mean speed \(mean) m/s")
    }

    @Test("city routes stop at crossings; the freeway never stops after merging")
    func stops() {
        for route in [Route.cityRun, .cityBicycleRide] {
            let truth = Simulator(SimulationSettings(route: route, durationSeconds: 1200, seed: 4)).map(\.truth)
            #expect(truth.dropFirst().contains { $0.speedMetersPerSecond == 0 }, "\(route) never stopped")
            #expect(truth.contains { $0.speedMetersPerSecond > route.profile.cruiseSpeedMetersPerSecond * 0.8 })
        }
        let freeway = Simulator(SimulationSettings(route: .freewayDrive, durationSeconds: 1200, seed: 4)).map(\.truth)
        #expect(freeway.allSatisfy { $0.speedMetersPerSecond >= 12 })
    }

    @Test("the hike climbs")
    func hikeClimbs() throws {
        let truth = Simulator(SimulationSettings(route: .hike, durationSeconds: 1800, seed: 1)).map(\.truth)
        let first = try #require(truth.first), last = try #require(truth.last)
        #expect(last.altitudeMSLMeters - first.altitudeMSLMeters > 50)
    }

    @Test("fix losses appear as no-fix epochs in the sentences and the parsed fixes", arguments: Route.allCases)
    func fixLosses(route: Route) throws {
        let run = ParsedRun(SimulationSettings(route: route, durationSeconds: 3600, seed: 1))
        let lost = run.epochs.filter { !$0.truth.hasFix }
        #expect(!lost.isEmpty, "no fix loss in an hour")
        #expect(lost.count < run.epochs.count / 10)
        for epoch in lost {
            #expect(epoch.sentences[0].contains(",V,"), "\(epoch.sentences[0])")
            #expect(epoch.sentences[2].contains(",0,00,"), "\(epoch.sentences[2])")
            #expect(epoch.sentences[3].hasPrefix("$GNGSA,A,1,"))
            let fix = try #require(run.fix(for: epoch))
            #expect(fix.mode == .noFix && fix.coordinate == nil && fix.quality == .invalid)
        }
        // A fix loss ends: a fix follows the last lost epoch.
        let lastLost = try #require(run.epochs.lastIndex { !$0.truth.hasFix })
        if lastLost + 1 < run.epochs.count { #expect(run.epochs[lastLost + 1].truth.hasFix) }
    }

    @Test("standing still never moves")
    func standingStill() {
        let profile = Route.standingStill.profile
        for epoch in Simulator(SimulationSettings(route: .standingStill, durationSeconds: 1800, seed: 11)) {
            #expect(epoch.truth.coordinate == profile.start)
            #expect(epoch.truth.altitudeMSLMeters == profile.startAltitudeMSLMeters)
            #expect(epoch.truth.speedMetersPerSecond == 0 && epoch.truth.distanceMeters == 0)
        }
    }

    @Test("epochs are 1/rate apart from the route's start time, across midnight", arguments: UpdateRate.allCases)
    func epochTimes(rate: UpdateRate) throws {
        let start = FixTime(date: CalendarDate(year: 2024, month: 12, day: 31), timeOfDay: TimeOfDay(hour: 23, minute: 59, second: 58))
        let epochs = Array(Simulator(SimulationSettings(route: .freewayDrive, rate: rate, durationSeconds: 4, start: start)))
        #expect(epochs.count == 4 * rate.rawValue)
        let times = epochs.compactMap(\.truth.time.microsecondsSinceEpoch)
        let first = try #require(start.microsecondsSinceEpoch)
        #expect(times == (0..<epochs.count).map { first + Int64($0) * rate.periodMicroseconds })
        #expect(epochs.last?.truth.time.date == CalendarDate(year: 2025, month: 1, day: 1))
        let run = ParsedRun(SimulationSettings(route: .freewayDrive, rate: rate, durationSeconds: 4, start: start))
        #expect(run.rejections.isEmpty)
        #expect(run.fixes.count == epochs.count)
    }

    @Test("the truth CSV row has the header's columns")
    func csvRow() throws {
        let epoch = try #require(Array(Simulator(SimulationSettings(route: .hike, durationSeconds: 1))).first)
        let columns = TruePosition.csvHeader.split(separator: ",").count
        #expect(epoch.truth.csvRow.split(separator: ",", omittingEmptySubsequences: false).count == columns)
        #expect(epoch.truth.csvRow.hasPrefix("2024-09-14T07:30:00.00Z,46.62405000,8.04137000,1340.00,"))
    }
}
