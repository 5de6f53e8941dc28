import GPSCore
import GPSSources
import Clocks
import Testing

@Suite("Log file source", .timeLimit(.minutes(1)))
struct LogFileSourceTests {
    @Test("at max speed the hike log yields connected, then the same fixes as parsing the whole file")
    func hikeAtMax() async throws {
        let expected = try Fixtures.wholeFileFixes(Fixtures.hike)
        let source = LogFileSource(path: Fixtures.hike, speed: .max, pacingClock: UnimplementedClock())
        let (events, error) = await drain(source)
        #expect(error == nil)
        #expect(events.first == .connected("log \(Fixtures.hike)"))
        #expect(events.dropFirst().allSatisfy { if case .fix = $0 { true } else { false } })
        #expect(expected.count > 1000)
        #expect(events.fixes == expected)
    }

    @Test("after the hike log the log clock stands at the last fix's time minus the first's")
    func hikeClockEnds() async throws {
        let expected = try Fixtures.wholeFileFixes(Fixtures.hike)
        let times = expected.compactMap { $0.time?.microsecondsSinceEpoch }
        let first = try #require(times.first)
        let last = try #require(times.last)
        let source = LogFileSource(path: Fixtures.hike, speed: .max, pacingClock: UnimplementedClock())
        _ = await drain(source)
        let clock = try #require(source.logClock)
        #expect(clock.now.offset == .microseconds(last - first))
        #expect(clock.now.offset > .seconds(1800))
    }

    @Test(
        "a corpus log yields the same fixes as parsing the whole file",
        arguments: [
            "bu353-glonass.log",  // multi-GNSS, small
            "gpsdf.log",  // odd: bad checksums, many talkers, longer than one 64 KiB read
            "gp-320fw-2019-04-07-coldboot.log",  // cold boot: no-fix epochs, rejected lines
            "ublox-neo-m9n-nmea.log",  // multi-GNSS, longer than one read
        ])
    func corpusLog(_ name: String) async throws {
        let path = Fixtures.corpus.appendingPathComponent(name).path
        let expected = try Fixtures.wholeFileFixes(path)
        #expect(!expected.isEmpty)
        let source = LogFileSource(path: path, speed: .max, pacingClock: UnimplementedClock())
        let (events, error) = await drain(source)
        #expect(error == nil)
        #expect(events.first == .connected("log \(path)"))
        #expect(events.fixes == expected)
        #expect(events.count == expected.count + 1)
    }

    @Test("the description and the connected event name the log")
    func description() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1]))
        let source = LogFileSource(path: file.path, speed: .max)
        #expect(source.description == "log \(file.path)")
        var iterator = source.makeAsyncIterator()
        #expect(try await iterator.next() == .connected("log \(file.path)"))
    }

    @Test("fixes without a date are delivered at once and do not move the log clock")
    func undatedFixes() async throws {
        // GGA carries only the time of day: no date, so no time since 1970.
        let body = "GPGGA,080000.00,4710.0000,N,00800.0000,E,1,08,0.9,500.0,M,48.0,M,,"
        let body2 = "GPGGA,080001.00,4710.0005,N,00800.0000,E,1,08,0.9,500.0,M,48.0,M,,"
        let text = "$\(body)*\(Log.checksum(body))\r\n$\(body2)*\(Log.checksum(body2))\r\n"
        let file = try TemporaryFile(text)
        let clock = TestClock()
        let source = LogFileSource(path: file.path, speed: .times(1), pacingClock: clock)
        let (events, error) = await drain(source)
        #expect(error == nil)
        #expect(events.fixes.count == 2)
        #expect(events.fixes.allSatisfy { $0.time?.date == nil && $0.time != nil })
        #expect(source.logClock?.now.offset == .zero)
    }

    @Test("an iteration stopped half way can be dropped, and a new source reads the log again")
    func abandonedIteration() async throws {
        let file = try TemporaryFile(Log.rmc(at: [0, 1, 2, 3]))
        do {
            var iterator = LogFileSource(path: file.path, speed: .max).makeAsyncIterator()
            _ = try await iterator.next()
            _ = try await iterator.next()
        }
        let (events, error) = await drain(LogFileSource(path: file.path, speed: .max))
        #expect(error == nil)
        #expect(events.fixes.count == 4)
    }
}
