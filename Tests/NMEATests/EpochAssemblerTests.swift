import GPSCore
import NMEA
import Testing

private typealias S = Synthetic

@Suite("EpochAssembler: epochs and when fixes are emitted")
struct EpochEmissionTests {
    @Test("one fix per epoch, in order, each with its time")
    func oneFixPerEpoch() throws {
        let fixes = try Feed.fixes((0..<6).flatMap { S.cycle(S.time($0)) })
        #expect(fixes.map(\.time?.timeOfDay) == (0..<6).map { tod(S.time($0)) })
        #expect(fixes.allSatisfy { $0.hasPosition })
    }

    @Test("before the cycle end is learned, an epoch's fix is emitted when the next epoch starts")
    func emittedByTheNextEpoch() throws {
        var feed = Feed()
        try feed.send(S.cycle(S.time(0)))
        #expect(feed.fixes.isEmpty)
        let fixes = try feed.send(S.gga(S.time(1)))
        #expect(fixes.map(\.time?.timeOfDay) == [tod(S.time(0))])
    }

    @Test("once the same sentence has ended two epochs, each fix is emitted as that sentence arrives")
    func emittedByTheLearnedCycleEnd() throws {
        var feed = Feed()
        for n in 0..<8 {
            let cycle = S.cycle(S.time(n))
            try feed.send(cycle)
            if n >= 2 {
                // Nothing of epoch n + 1 has been sent yet.
                #expect(feed.fixes.last?.time?.timeOfDay == tod(S.time(n)), "epoch \(n)")
                #expect(feed.fixes.count == n + 1)
            }
        }
        #expect(feed.emittedAfter == [4, 7, 9, 12, 15, 18, 21, 24])
        #expect(feed.assembler.cycleEndingAddress == (try decode(S.rmc(S.time(0)))).address)
        #expect(feed.finish().isEmpty)
    }

    @Test("a SiRF receiver's cycle with a GSV set inside is emitted at its RMC (bu353s4)")
    func bu353s4() throws {
        let lines = [
            "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D",
            "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
            "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D",
            "$GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,0000*70",
            "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
            "$GPRMC,030720.000,A,3747.0875,S,17518.8938,E,1.15,181.39,311214,,,A*7B",
            "$GPGGA,030721.000,3747.0876,S,17518.8934,E,1,08,1.1,60.1,M,23.7,M,,0000*7D",
            "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
            "$GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23*7B",
            "$GPGSV,3,2,12,30,23,011,29,20,17,069,20,26,09,293,23,13,07,304,10*7C",
            "$GPGSV,3,3,12,11,12,132,04,08,38,008,,02,35,348,,03,14,091,*73",
            "$GPRMC,030721.000,A,3747.0876,S,17518.8934,E,0.89,181.39,311214,,,A*71",
        ]
        var feed = Feed()
        try feed.send(lines)
        #expect(feed.emittedAfter == [4, 7, 12])
        let last = try #require(feed.fixes.last)
        #expect(last.time == FixTime(date: CalendarDate(year: 2014, month: 12, day: 31), timeOfDay: tod("030721")))
        #expect(last.satellitesInView.count == 12)
        #expect(close(last.coordinate?.latitude, -degrees(37, 47.0876)))
        #expect(last.altitudeMSLMeters == 60.1)
    }

    /// A Magellan Triton 400's cycle: GLL GGA RMC GSA and a three-sentence GSV set, last.
    static func tritonCycle(_ time: String) -> [String] {
        [
            S.gll(time, "2638.1726,N", "08011.3892,W"),
            S.gga(time, "2638.1726,N", "08011.3892,W"),
            S.rmc(time, "2638.1726,N", "08011.3892,W", date: "010413"),
            S.gsa([8, 7, 11, 28, 17, 26]),
            "$GPGSV,3,1,11,08,75,303,44,07,66,172,51,11,51,055,36,28,39,325,36*76",
            "$GPGSV,3,2,11,17,31,254,51,26,13,295,51,09,12,322,36,19,12,046,51*76",
            "$GPGSV,3,3,11,20,09,138,36,13,04,183,51,32,03,113,44,,,,*44",
        ]
    }

    @Test("a cycle ending with a GSV set is emitted after the set's last sentence, with all its satellites")
    func cycleEndingInGSVSet() throws {
        var feed = Feed()
        for n in 0..<6 {
            try feed.send(Self.tritonCycle(S.time(n)))
            if n >= 2 {
                #expect(feed.fixes.count == n + 1, "epoch \(n) is emitted by its last GSV")
            }
        }
        feed.finish()
        #expect(feed.fixes.count == 6)
        for fix in feed.fixes {
            #expect(fix.satellitesInView.count == 11, "\(fix.time?.description ?? "?")")
            #expect(Set(fix.satellitesInView.map(\.prn)).count == 11)
        }
        #expect(feed.emittedAfter == [8, 15, 21, 28, 35, 42])
    }

    @Test("a receiver whose last sentence rotates never learns a cycle end (humminbird-M37)")
    func rotatingLastSentence() throws {
        let lines = [
            "$INDPT,2.2,0.0*47",
            "$INRMC,194101,A,4426.1130,N,07140.5596,W,5.2,77.3,160906,15.8,W*60",
            "$INDPT,2.1,0.0*44",
            "$INGLL,4426.1130,N,07140.5579,W,194102,A*2C",
            "$INVTG,77.5,T,93.3,M,5.2,N,9.7,K*5B",
            "$INMTW,17.9,C*1B",
            "$INRMC,194103,A,4426.1134,N,07140.5558,W,5.3,77.0,160906,15.8,W*66",
            "$INGGA,194104,4426.1138,N,07140.5536,W,2,10,0.9,267.9,M,,,,*13",
            "$INZDA,194104,16,09,2006,-05,00*73",
            "$INMTW,17.9,C*1B",
            "$INRMC,194105,A,4426.1142,N,07140.5515,W,5.3,76.8,160906,15.8,W*61",
            "$INDPT,2.1,0.0*44",
            "$INGLL,4426.1146,N,07140.5499,W,194106,A*26",
            "$INVTG,76.3,T,92.1,M,5.3,N,9.7,K*5E",
            "$INRMC,194107,A,4426.1149,N,07140.5477,W,5.3,76.6,160906,15.8,W*63",
        ]
        var feed = Feed()
        for line in lines {
            try feed.send(line)
            #expect(feed.assembler.cycleEndingAddress == nil)
        }
        // Each fix comes with the first position sentence of the next epoch.
        #expect(feed.emittedAfter == [4, 7, 8, 11, 13, 15])
        #expect(feed.fixes.map(\.time?.timeOfDay) == ["194101", "194102", "194103", "194104", "194105", "194106"].map(tod))
        #expect(feed.fixes.allSatisfy { $0.time?.date == CalendarDate(year: 2006, month: 9, day: 16) })
    }

    @Test("a same-time sentence after an early emission reopens the epoch and emits a revised fix",
          arguments: [S.gst(S.time(2)), S.gll(S.time(2))])
    func lateSentenceReopens(late: String) throws {
        var feed = Feed()
        try feed.send((0..<3).flatMap { S.cycle(S.time($0)) })
        let early = try #require(feed.fixes.last)
        #expect(early.time?.timeOfDay == tod(S.time(2)))
        #expect(try feed.send(late).isEmpty)
        #expect(feed.assembler.cycleEndingAddress == nil, "the wrong guess is forgotten")
        let revised = try feed.send(S.gga(S.time(3)))
        #expect(revised.count == 1)
        let fix = try #require(revised.first)
        #expect(fix.time == early.time)
        #expect(fix.coordinate == early.coordinate)
        #expect(fix.hdop == early.hdop && fix.altitudeMSLMeters == early.altitudeMSLMeters)
        if late.hasPrefix("$GPGST") {
            #expect(early.accuracy?.source == .dop(uereMeters: 4))
            #expect(fix.accuracy?.source == .gst)
        }
    }

    @Test("sentences with no time join the epoch they arrive in; a repeated untimed position starts a new one")
    func untimedPositions() throws {
        let fixes = try Feed.fixes([
            sentence("GPGLL,4916.45,N,12311.12,W,,A"), S.gsa(mode: "2"),
            sentence("GPGLL,4916.46,N,12311.13,W,,A"), S.gsa(mode: "2"),
        ])
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.time == nil && $0.mode == .twoD })
        #expect(close(fixes.last?.coordinate?.latitude, degrees(49, 16.46)))
    }

    @Test("a GSV after an open epoch's last position sentence joins it, and makes no fix of its own")
    func timelessAfterPosition() throws {
        let fixes = try Feed.fixes(S.cycle(S.time(0)) + [sentence("GPGSV,1,1,01,17,72,207,32")] + S.cycle(S.time(1)))
        #expect(fixes.map(\.satellitesInView.count) == [1, 0])
    }
}

@Suite("EpochAssembler: dates")
struct EpochDateTests {
    @Test("the date comes from RMC")
    func dateFromRMC() throws {
        let fix = try #require(try Feed.fixes(S.cycle(S.time(0))).first)
        #expect(fix.time?.date == CalendarDate(year: 2014, month: 12, day: 31))
        #expect(fix.time?.description == "2014-12-31T03:07:19Z")
    }

    @Test("the date comes from ZDA, even one a second ahead of the cycle (mr-350p)")
    func dateFromZDA() throws {
        let fixes = try Feed.fixes([
            "$GPGGA,051133.000,4744.6977,N,12206.7277,W,1,05,1.9,136.4,M,-17.1,M,18.8,0000*7D",
            "$GPGSA,A,3,12,25,21,29,30,,,,,,,,2.6,1.9,1.8*38",
            "$GPZDA,051134.000,04,07,2012,,*56",
            "$GPGGA,051134.000,4744.6980,N,12206.7275,W,1,05,1.9,135.4,M,-17.1,M,18.8,0000*73",
        ])
        #expect(fixes.map(\.time?.description) == ["2012-07-04T05:11:33Z", "2012-07-04T05:11:34Z"])
        #expect(fixes.first?.dgpsAgeSeconds == 18.8)
    }

    @Test("a fix before any date has its time of day and no date")
    func noDateYet() throws {
        let fixes = try Feed.fixes([S.gga(S.time(0)), S.gsa()] + S.cycle(S.time(1)))
        #expect(fixes.count == 2)
        #expect(fixes[0].time == FixTime(date: nil, timeOfDay: tod(S.time(0))))
        #expect(fixes[0].hasPosition)
        #expect(fixes[1].time?.date == CalendarDate(year: 2014, month: 12, day: 31))
    }

    @Test("a receiver that never sends a date gives fixes without one")
    func neverADate() throws {
        let fixes = try Feed.fixes((0..<3).map { S.gga(S.time($0)) })
        #expect(fixes.count == 3)
        #expect(fixes.allSatisfy { $0.time?.date == nil && $0.time?.microsecondsSinceEpoch == nil })
    }

    @Test("after 23:59:59 on day D, a GGA-only 00:00:00 is on day D+1")
    func midnightRollover() throws {
        let fixes = try Feed.fixes([
            S.gga("235959.00"), S.rmc("235959.00", date: "311214"),
            S.gga("000000.00"), S.gga("000001.00"),
        ])
        #expect(fixes.map(\.time?.description) == [
            "2014-12-31T23:59:59Z", "2015-01-01T00:00:00Z", "2015-01-01T00:00:01Z",
        ])
    }

    @Test("a ZDA two seconds ahead across midnight dates each epoch right (ac12)")
    func zdaAheadAcrossMidnight() throws {
        let fixes = try Feed.fixes([
            S.gga("235958.00"), S.rmc("235958.00", date: "311207"), S.zda("000000.00", day: "01", month: "01", year: "2008"),
            S.gga("235959.00"), S.zda("000001.00", day: "01", month: "01", year: "2008"),
            S.gga("000000.00"), S.zda("000002.00", day: "01", month: "01", year: "2008"),
            S.gga("000001.00"),
        ])
        #expect(fixes.map(\.time?.description) == [
            "2007-12-31T23:59:58Z", "2007-12-31T23:59:59Z", "2008-01-01T00:00:00Z", "2008-01-01T00:00:01Z",
        ])
    }

    @Test("a receiver's year 99 passes through as 1999 (april6_2019)")
    func weekRolloverYearPassesThrough() throws {
        let fix = try #require(try Feed.fixes([
            "$GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A*59",
        ]).first)
        #expect(fix.time?.date == CalendarDate(year: 1999, month: 8, day: 22))
    }
}

@Suite("EpochAssembler: what goes into a fix")
struct EpochContentTests {
    @Test("a GLL one second ahead (garmin48) gets its own epoch with its own position")
    func gllAhead() throws {
        let lines = [
            "$GPRMC,225308,A,4527.458,S,16709.165,E,000.0,094.5,060601,024.1,E*6D",
            "$GPRMB,A,,,,,,,,,,,,V*71",
            "$GPGGA,225308,4527.458,S,16709.165,E,1,05,2.1,14.7,M,1.1,M,,*53",
            "$GPGSA,A,3,01,,,,13,20,22,,,,28,,3.1,2.1,2.0*3A",
            "$PGRME,9.1,M,15.0,M,12.0,M*21",
            "$GPGLL,4527.458,S,16709.165,E,225309,A*3E",
            "$PGRMZ,48,f,3*27",
            "$GPRMC,225310,A,4527.458,S,16709.165,E,000.0,094.5,060601,024.1,E*64",
            "$GPGGA,225310,4527.458,S,16709.165,E,1,05,2.1,14.6,M,1.1,M,,*5B",
            "$GPGLL,4527.458,S,16709.165,E,225311,A*37",
        ]
        let fixes = try Feed.fixes(lines)
        #expect(fixes.map(\.time?.timeOfDay) == ["225308", "225309", "225310", "225311"].map(tod))
        #expect(fixes.allSatisfy { close($0.coordinate?.latitude, -degrees(45, 27.458)) })
        // The GLL epochs have a position but no altitude and no GSA: 2D.
        #expect(fixes.map(\.mode) == [.threeD, .twoD, .threeD, .twoD])
        #expect(fixes[0].magneticVariationDegrees == 24.1)
    }

    enum Source: String, CaseIterable, Sendable { case gga, gns, rmc, gll }

    /// The same epoch's four position sentences, each with its own latitude.
    static func positionSentence(_ source: Source, _ time: String) -> String {
        switch source {
        case .gga: S.gga(time, "1000.000,N")
        case .gns: S.gns(time, "2000.000,N")
        case .rmc: S.rmc(time, "3000.000,N")
        case .gll: S.gll(time, "4000.000,N")
        }
    }

    @Test("position priority: GGA over GNS over RMC over GLL, whatever the order", arguments: [
        [Source.gga, .gns, .rmc, .gll], [.gll, .rmc, .gns, .gga], [.rmc, .gll, .gns], [.gll, .gns],
        [.gll, .rmc], [.rmc, .gga], [.gll], [.rmc], [.gns, .gga, .gll],
    ])
    func positionPriority(sources: [Source]) throws {
        let time = S.time(0)
        var feed = Feed()
        try feed.send(sources.map { Self.positionSentence($0, time) })
        let fix = try #require(feed.finish().first)
        let best = try #require([Source.gga, .gns, .rmc, .gll].first(where: sources.contains))
        let latitude: [Source: Double] = [.gga: 10, .gns: 20, .rmc: 30, .gll: 40]
        #expect(fix.coordinate?.latitude == latitude[best])
        #expect(feed.fixes.count == 1)
    }

    @Test("an invalid position sentence gives way to a valid one of lower rank")
    func invalidGivesWay() throws {
        let fix = try #require(try Feed.fixes([
            S.gga(S.time(0), "1000.000,N", quality: "0"), S.rmc(S.time(0), "3000.000,N"),
        ]).first)
        #expect(fix.coordinate?.latitude == 30)
        #expect(fix.altitudeMSLMeters == nil, "a GGA without a fix gives no altitude")
    }

    @Test("no valid position sentence: the fix has a time but no position, mode and quality none", arguments: [
        [S.rmc(S.time(0), status: "V", mode: "N")],
        [S.gga(S.time(0), quality: "0", satellites: "00")],
        [S.gga(S.time(0), quality: "0"), S.rmc(S.time(0), status: "V"), S.gsa(mode: "1", [])],
        [S.gns(S.time(0), modes: "NN")],
        [S.gll(S.time(0), status: "V")],
        ["$GNRMC,074150.799,V,,,,,,,250215,,,N*52", "$GNGGA,074150.799,,,,,0,00,,,M,0.0,M,,0000,*64"],
        [S.rmc(S.time(0), status: "A", mode: "N")],
    ])
    func noPosition(lines: [String]) throws {
        let fix = try #require(try Feed.fixes(lines).first)
        #expect(fix.coordinate == nil)
        #expect(fix.mode == .noFix)
        #expect(fix.quality == .invalid)
        #expect(fix.time != nil)
        #expect(fix.accuracy == nil && fix.speedMetersPerSecond == nil && fix.altitudeMSLMeters == nil)
    }

    @Test("mode: the GSA's 2D or 3D, else 3D with an altitude, else 2D", arguments: [
        ([S.gga(S.time(0)), S.gsa(mode: "2")], FixMode.twoD),
        ([S.gga(S.time(0)), S.gsa(mode: "3")], .threeD),
        ([S.rmc(S.time(0)), S.gsa(mode: "3")], .threeD),
        ([S.gga(S.time(0))], .threeD),
        ([S.gga(S.time(0), altitude: "")], .twoD),
        ([S.gns(S.time(0))], .threeD),
        ([S.rmc(S.time(0))], .twoD),
        ([S.gll(S.time(0))], .twoD),
        // A GSA saying "no fix" cannot take away a position: the altitude rule decides.
        ([S.gga(S.time(0)), S.gsa(mode: "1")], .threeD),
        // Several GSAs (one per system): the best mode counts.
        ([S.gga(S.time(0)), S.gsa(mode: "2", talker: "GN"), S.gsa(mode: "3", talker: "GN")], .threeD),
    ])
    func mode(lines: [String], mode: FixMode) throws {
        let fix = try #require(try Feed.fixes(lines).first)
        #expect(fix.mode == mode)
    }

    @Test("accuracy from GST sigmas when present, marked gst")
    func accuracyFromGST() throws {
        let fix = try #require(try Feed.fixes(S.cycle(S.time(0)) + [S.gst(S.time(0))]).first)
        let accuracy = try #require(fix.accuracy)
        #expect(accuracy.source == .gst)
        #expect(accuracy == .fromGST(latitudeSigma: 2, longitudeSigma: 3, altitudeSigma: 5))
        #expect(close(accuracy.horizontalMeters, (6.5).squareRoot() * 2.447_746_830_680_816))
        #expect(close(accuracy.verticalMeters, 5 * 1.959_963_984_540_054))
    }

    @Test("accuracy from HDOP times the user-range error for the fix quality, marked dop", arguments: [
        ("1", 4.0), ("2", 1.0), ("4", 0.02), ("5", 0.3), ("6", 4.0),
    ])
    func accuracyFromDOP(quality: String, uere: Double) throws {
        let fix = try #require(try Feed.fixes([S.gga(S.time(0), quality: quality), S.gsa()]).first)
        let accuracy = try #require(fix.accuracy)
        #expect(accuracy.source == .dop(uereMeters: uere))
        #expect(close(accuracy.horizontalMeters, 1.1 * uere / 2.0.squareRoot() * 2.447_746_830_680_816))
        #expect(close(accuracy.verticalMeters, 1.5 * uere * 1.959_963_984_540_054))
    }

    @Test("a GST without latitude and longitude sigmas falls back to HDOP")
    func gstWithoutSigmas() throws {
        let fix = try #require(try Feed.fixes(S.cycle(S.time(0)) + [S.gst(S.time(0), latitudeSigma: "", longitudeSigma: "")]).first)
        #expect(fix.accuracy?.source == .dop(uereMeters: 4))
    }

    @Test("no GST and no HDOP: no accuracy, never a made-up one")
    func noAccuracy() throws {
        let fix = try #require(try Feed.fixes([S.rmc(S.time(0))]).first)
        #expect(fix.hasPosition)
        #expect(fix.accuracy == nil && fix.hdop == nil)
    }

    @Test("speed and course from RMC, or from VTG in an epoch without one", arguments: [
        ([S.gga(S.time(0)), S.rmc(S.time(0)), sentence("GPVTG,77.5,T,93.3,M,5.2,N,9.7,K,A")], 0.69, 181.39),
        ([S.gga(S.time(0)), sentence("GPVTG,77.5,T,93.3,M,5.2,N,9.7,K,A")], 5.2, 77.5),
        ([S.gga(S.time(0)), S.rmc(S.time(0), status: "V"), sentence("GPVTG,77.5,T,93.3,M,5.2,N,9.7,K,A")], 5.2, 77.5),
    ])
    func motion(lines: [String], knots: Double, course: Double) throws {
        let fix = try #require(try Feed.fixes(lines).first)
        #expect(close(fix.speedMetersPerSecond, knots * 1852 / 3600))
        #expect(fix.courseDegrees == course)
    }

    @Test("a VTG whose mode says no fix gives no speed")
    func vtgWithoutFix() throws {
        let fix = try #require(try Feed.fixes([S.gga(S.time(0)), sentence("GPVTG,77.5,T,93.3,M,5.2,N,9.7,K,N")]).first)
        #expect(fix.speedMetersPerSecond == nil && fix.courseDegrees == nil)
    }

    @Test("DOPs from GSA, HDOP from GGA first; satellites used and geoid from GGA")
    func dopAndGeoid() throws {
        let fix = try #require(try Feed.fixes([S.gga(S.time(0), hdop: "0.9"), S.gsa(), S.rmc(S.time(0))]).first)
        #expect(fix.hdop == 0.9 && fix.pdop == 1.8 && fix.vdop == 1.5)
        #expect(fix.satellitesUsed == 8)
        #expect(fix.geoidSeparationMeters == 23.7)
        #expect(fix.altitudeHAEMeters.map { close($0, 59.9 + 23.7) } == true)
    }

    @Test("satellites in view: constellation from each talker, used from the GSA's numbers (bu353-glonass)")
    func satellitesWithoutSystemID() throws {
        let fix = try #require(try Feed.fixes([
            "$GPGGA,081416.000,5541.1967,N,03737.2926,E,1,6,2.56,66.2,M,14.5,M,,*60",
            "$GNGSA,A,3,03,19,27,13,,,,,,,,,2.75,2.56,1.00*10",
            "$GNGSA,A,3,88,87,,,,,,,,,,,2.75,2.56,1.00*13",
            "$GNRMC,081416.000,A,5541.1967,N,03737.2926,E,0.39,333.53,260514,,,A*72",
            "$GPZDA,081416.000,26,05,2014,,*5A",
            "$GPGSV,3,1,12,08,88,068,,07,59,081,24,28,41,187,,05,40,260,*7E",
            "$GPGSV,3,2,12,26,36,297,,03,27,059,14,19,24,073,16,27,19,040,23*7C",
            "$GPGSV,3,3,12,10,19,202,,13,15,129,23,21,06,346,,15,04,307,*7E",
            "$GLGSV,3,1,10,79,81,336,,69,50,211,,70,47,307,,78,33,058,*6D",
            "$GLGSV,3,2,10,80,30,251,,88,24,068,23,87,19,015,17,68,07,177,*6C",
            "$GLGSV,3,3,10,71,06,339,,81,03,117,27*65",
        ]).first)
        let sats = fix.satellitesInView
        #expect(sats.count == 22)
        #expect(sats.filter { $0.constellation == .gps }.count == 12)
        #expect(sats.filter { $0.constellation == .glonass }.count == 10)
        let used = Set(sats.filter(\.used).map { "\($0.constellation) \($0.prn)" })
        #expect(used == ["GPS 3", "GPS 19", "GPS 27", "GPS 13", "GLONASS 88", "GLONASS 87"])
        #expect(fix.satellitesUsed == 6)
    }

    @Test("satellites in view: NMEA 4.11 system ids tell apart equal numbers of different constellations")
    func satellitesWithSystemID() throws {
        let fix = try #require(try Feed.fixes([
            S.gga(S.time(0), talker: "GN"),
            S.gsa([5, 12], talker: "GN", system: "1"),
            S.gsa([12, 30], talker: "GN", system: "3"),
            S.gsa([5], talker: "GN", system: "4"),
            sentence("GPGSV,1,1,03,05,40,100,40,12,30,200,35,30,20,300,30,1"),
            sentence("GAGSV,1,1,03,05,40,100,40,12,30,200,35,30,20,300,30,7"),
            sentence("GBGSV,1,1,03,05,40,100,40,12,30,200,35,30,20,300,30,1"),
        ]).first)
        let used = fix.satellitesInView.map { "\($0.constellation) \($0.prn) \($0.used)" }
        #expect(used == [
            "GPS 5 true", "GPS 12 true", "GPS 30 false",
            "Galileo 5 false", "Galileo 12 true", "Galileo 30 true",
            "BeiDou 5 true", "BeiDou 12 false", "BeiDou 30 false",
        ])
        #expect(fix.satellitesInView.map(\.signalID) == [1, 1, 1, 7, 7, 7, 1, 1, 1])
    }

    @Test("an epoch without GSV has no satellites in view, and without GSA none is used")
    func noSatellites() throws {
        #expect(try Feed.fixes(S.cycle(S.time(0))).first?.satellitesInView == [])
        let fix = try #require(try Feed.fixes([S.gga(S.time(0)), sentence("GPGSV,1,1,01,17,72,207,32")]).first)
        #expect(fix.satellitesInView.map(\.used) == [false])
    }
}
