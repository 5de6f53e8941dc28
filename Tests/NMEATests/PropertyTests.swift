import GPSCore
import NMEA
import Testing

/// Properties that hold for any input: seeded random byte streams and real sentences with
/// random damage, each fed whole and in random pieces. A failure names its seed.
@Suite("NMEAParser properties")
struct PropertyTests {
    /// Real receivers' sentences, the raw material for valid streams.
    static let realSentences = [
        "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D",
        "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
        "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D",
        "$GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23*7B",
        "$GNRMC,223745.00,A,3806.62964,N,12237.61382,W,0.040,,110720,,,D,V*0E",
        "$GNVTG,,T,,M,0.040,N,0.075,K,D*3E",
        "$GNGGA,223745.00,3806.62964,N,12237.61382,W,2,12,0.54,83.1,M,-29.5,M,,0000*44",
        "$GNGSA,A,3,29,20,18,16,51,13,44,26,,,,,0.99,0.54,0.83,1*0E",
        "$GLGSV,3,3,10,83,52,346,29,84,05,307,,1*72",
        "$GNGLL,3806.62964,N,12237.61382,W,223745.00,A,D*6C",
        "$GNGST,223745.00,228650,2.5,2.4,126,0.98,1.0,3.1*41",
        "$GNZDA,223745.00,11,07,2020,00,00*7A",
        "$GNGNS,051347.00,6001.336799,N,03014.169008,E,AAN,09,0.9,16.5,18.0,,,V*55",
        "$INRMC,194101,A,4426.1130,N,07140.5596,W,5.2,77.3,160906,15.8,W*60",
        "$GPRMC,125106,V,3854.5087,N,07726.4523,W,0.0,0.0,241011,10.5,W,S*28",
        "$GNGGA,074150.799,,,,,0,00,,,M,0.0,M,,0000,*64",
        "$GPZDA,193223.00,23,12,2007,00,00*69",
        "$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50",
        "$PGRME,9.1,M,15.0,M,12.0,M*21",
        "!AIVDM,2,2,9,B,`88888888888880,2*76",
    ]

    // MARK: Generators

    /// Bytes that a serial line at the wrong speed, a log or a fuzzer might produce, weighted
    /// towards the characters that steer the framer.
    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        let steering = Array("$!*,\r\n#0123456789ABCDEFabcdef.GPNLRMCSAV-".utf8)
        return (0..<rng.int(0...1500)).map { _ in rng.chance(2, in: 3) ? rng.pick(steering) : rng.byte() }
    }

    /// `n` digits.
    static func digits(_ n: Int, _ rng: inout SplitMix64) -> String {
        String((0..<n).map { _ in Character(String(rng.int(0...9))) })
    }

    /// A field that is usually valid, sometimes empty and sometimes at the edge of its range.
    static func field(_ valid: String, edges: [String], _ rng: inout SplitMix64) -> String {
        switch rng.int(0..<10) {
        case 0: ""
        case 1: rng.pick(edges)
        default: valid
        }
    }

    /// A random, well-formed sentence of a type trackd decodes, at time `time`.
    static func randomSentence(_ time: String, date: String, _ rng: inout SplitMix64) -> String {
        let talker = rng.pick(["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI", "IN"])
        let frac = rng.pick(["", ".00", ".5", ".123456"])
        let degreesNorth = rng.int(0...89)
        let lat = field("\(degreesNorth < 10 ? "0" : "")\(degreesNorth)\(rng.int(10...59)).\(digits(rng.int(1...7), &rng))",
                        edges: ["9000.000", "0000.0000", "8959.99999999", "5.12345678901234567"], &rng)
            + "," + (rng.chance(1, in: 2) ? "N" : "S")
        let degreesEast = rng.int(0...179)
        let lon = field("\(degreesEast < 10 ? "00" : degreesEast < 100 ? "0" : "")\(degreesEast)\(rng.int(10...59)).\(digits(rng.int(1...7), &rng))",
                        edges: ["18000.000", "00000.0000", "17959.9999999", ".00000000000000001"], &rng)
            + "," + (rng.chance(1, in: 2) ? "E" : "W")
        let decimal = { (rng: inout SplitMix64) in "\(rng.int(0...999)).\(digits(rng.int(1...3), &rng))" }
        let mode = rng.pick(["A", "D", "E", "F", "M", "N", "P", "R", "S", ""])
        let body: String
        switch rng.int(0..<10) {
        case 0:
            body = "\(talker)GGA,\(time)\(frac),\(lat),\(lon),\(rng.int(0...8)),\(digits(2, &rng)),\(decimal(&rng)),"
                + "\(rng.chance(1, in: 4) ? "-" : "")\(decimal(&rng)),M,\(decimal(&rng)),M,\(field(decimal(&rng), edges: [""], &rng)),"
                + field(digits(4, &rng), edges: [""], &rng)
        case 1:
            body = "\(talker)RMC,\(time)\(frac),\(rng.pick(["A", "V", ""])),\(lat),\(lon),\(decimal(&rng)),"
                + "\(field(decimal(&rng), edges: ["359.99"], &rng)),\(date),\(field(decimal(&rng), edges: [""], &rng)),"
                + "\(rng.pick(["E", "W", ""])),\(mode),\(rng.pick(["S", "C", "U", "V", ""]))"
        case 2:
            body = "\(talker)GNS,\(time)\(frac),\(lat),\(lon),\(String((0..<rng.int(1...6)).map { _ in rng.pick(Array("ADEFMNPRS")) })),"
                + "\(digits(2, &rng)),\(decimal(&rng)),\(decimal(&rng)),\(decimal(&rng)),,,\(rng.pick(["S", "C", "U", "V", ""]))"
        case 3:
            body = "\(talker)GLL,\(lat),\(lon),\(field(time + frac, edges: [""], &rng)),\(rng.pick(["A", "V", ""])),\(mode)"
        case 4:
            let prns = (0..<12).map { _ in rng.chance(1, in: 2) ? String(rng.int(1...437)) : "" }
            body = "\(talker)GSA,A,\(rng.int(1...3)),\(prns.joined(separator: ",")),\(decimal(&rng)),\(decimal(&rng)),"
                + "\(decimal(&rng))\(rng.chance(1, in: 2) ? ",\(rng.int(1...6))" : "")"
        case 5:
            let count = rng.int(1...4)
            let blocks = (0..<rng.int(0...4)).map { _ in
                "\(rng.int(1...437)),\(field(String(rng.int(0...90)), edges: ["95"], &rng)),"
                    + "\(field(String(rng.int(0...359)), edges: ["360"], &rng)),\(field(String(rng.int(0...99)), edges: ["120"], &rng))"
            }
            body = "\(talker)GSV,\(count),\(rng.int(1...count)),\(rng.int(0...40))"
                + blocks.map { "," + $0 }.joined() + (rng.chance(1, in: 2) ? ",\(rng.int(1...11))" : "")
        case 6:
            body = "\(talker)VTG,\(decimal(&rng)),T,\(field(decimal(&rng), edges: [""], &rng)),M,\(decimal(&rng)),N,\(decimal(&rng)),K,\(mode)"
        case 7:
            body = "\(talker)GST,\(time)\(frac),\(decimal(&rng)),\(decimal(&rng)),\(decimal(&rng)),\(decimal(&rng)),"
                + "\(field(decimal(&rng), edges: ["999999999999999999"], &rng)),\(decimal(&rng)),\(field(decimal(&rng), edges: [""], &rng))"
        case 8:
            body = "\(talker)ZDA,\(time)\(frac),\(rng.int(1...28)),\(rng.int(1...12)),\(rng.int(1980...2079)),"
                + "\(rng.pick(["00", "-05", "+13", ""])),\(rng.pick(["00", "30", ""]))"
        default:
            return rng.pick(realSentences)
        }
        return sentence(body)
    }

    /// A run of epochs, a second apart from a random start, each a random selection and
    /// order of sentences, with random line ends (sometimes none between two sentences).
    static func validStream(_ rng: inout SplitMix64) -> (bytes: [UInt8], sentences: Int) {
        var start = rng.int(0..<86_400)
        if rng.chance(1, in: 4) { start = 86_400 - rng.int(1...5) }  // across midnight
        let date = rng.pick(["311214", "010100", "290299", "220899", "311279", ""])
        var text = ""
        var count = 0
        for epoch in 0..<rng.int(0...12) {
            let t = (start + epoch) % 86_400
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            var time = two(t / 3600) + two(t / 60 % 60) + two(t % 60)
            if rng.chance(1, in: 50) { time = "235960" }
            for _ in 0..<rng.int(1...8) {
                text += randomSentence(time, date: date, &rng)
                text += rng.pick(["\r\n", "\r\n", "\r\n", "\n", "\r", "", "\n\r"])
                count += 1
            }
        }
        return (Array(text.utf8), count)
    }

    /// Damages `bytes` as a bad line or a cut log would.
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<rng.int(1...6) {
            let at = b.isEmpty ? 0 : rng.int(0..<b.count)
            switch rng.int(0..<6) {
            case 0 where !b.isEmpty: b[at] ^= 1 << UInt8(rng.int(0...7))  // bit flip
            case 1 where !b.isEmpty: b.remove(at: at)  // deleted byte
            case 2: b.insert(rng.chance(1, in: 2) ? rng.byte() : rng.pick(Array("$*,\r\n#.".utf8)), at: at)  // inserted
            case 3 where !b.isEmpty:  // duplicated run
                let end = min(b.count, at + rng.int(1...30))
                b.insert(contentsOf: b[at..<end], at: rng.int(0...b.count))
            case 4: b.removeLast(min(b.count, rng.int(0...20)))  // truncated
            default: b.insert(contentsOf: [UInt8](repeating: 0, count: rng.int(1...12)), at: at)  // NUL run
            }
        }
        return b
    }

    // MARK: Checks

    /// Asserts what must hold for any bytes; returns the whole-buffer result.
    @discardableResult
    static func checkProperties(_ bytes: [UInt8], _ rng: inout SplitMix64, _ context: String,
                                sourceLocation: SourceLocation = #_sourceLocation) -> Parsed {
        let allowMissing = rng.chance(1, in: 4)
        let whole = Parsed(bytes, allowMissingChecksum: allowMissing)
        let cuts = rng.cuts(bytes.count)
        let pieces = Parsed(bytes, cuts: cuts, allowMissingChecksum: allowMissing)
        #expect(pieces == whole, "\(context): cut at \(cuts.prefix(20))… the result changed", sourceLocation: sourceLocation)

        let framedWhole = frame(bytes, allowMissingChecksum: allowMissing)
        #expect(frame(bytes, cuts: cuts, allowMissingChecksum: allowMissing) == framedWhole,
                "\(context): framing changed with the cuts", sourceLocation: sourceLocation)

        let s = whole.statistics
        #expect(s.sentences == s.decoded + s.skipped, "\(context): \(s)", sourceLocation: sourceLocation)
        #expect(s.rejectedTotal == whole.rejections.count, "\(context)", sourceLocation: sourceLocation)
        #expect(s.fixes == whole.fixes.count, "\(context)", sourceLocation: sourceLocation)
        #expect(framedWhole.count == s.sentences + s.rejectedTotal, "\(context): every framer event is counted once",
                sourceLocation: sourceLocation)
        for fix in whole.fixes {
            FixInvariants.check(fix, context: context)
            for sat in fix.satellitesInView {
                #expect((sat.elevationDegrees ?? 0) <= 90 && (sat.azimuthDegrees ?? 0) < 360 && (sat.snr ?? 0) <= 99,
                        "\(context): satellite out of range \(sat)", sourceLocation: sourceLocation)
            }
            if let a = fix.accuracy { #expect(a.horizontalMeters >= 0, "\(context)", sourceLocation: sourceLocation) }
        }
        return whole
    }

    // MARK: Properties

    @Test("random bytes: no crash, fixes within range, statistics add up, chunking changes nothing",
          arguments: 0..<8)
    func randomBytes(batch: Int) {
        for i in 0..<100 {
            let seed = UInt64(batch * 1000 + i)
            var rng = SplitMix64(seed: seed)
            let bytes = Self.randomBytes(&rng)
            Self.checkProperties(bytes, &rng, "random bytes, seed \(seed)")
        }
    }

    @Test("valid streams: every sentence accepted, none rejected, chunking changes nothing",
          arguments: 0..<4)
    func validStreams(batch: Int) {
        var positioned = 0
        var dated = 0
        for i in 0..<80 {
            let seed = UInt64(100_000 + batch * 1000 + i)
            var rng = SplitMix64(seed: seed)
            let (bytes, count) = Self.validStream(&rng)
            let parsed = Self.checkProperties(bytes, &rng, "valid stream, seed \(seed)")
            #expect(parsed.statistics.sentences == count, "seed \(seed): \(parsed.statistics)")
            #expect(parsed.rejections.isEmpty, "seed \(seed): \(parsed.rejections.prefix(3))")
            positioned += parsed.fixes.filter(\.hasPosition).count
            dated += parsed.fixes.filter { $0.time?.date != nil }.count
        }
        // The generator makes streams worth checking: fixes with positions and dates.
        #expect(positioned > 40 && dated > 40, "\(positioned) positioned, \(dated) dated")
    }

    @Test("damaged streams: no crash, fixes within range, statistics add up, chunking changes nothing",
          arguments: 0..<8)
    func damagedStreams(batch: Int) {
        for i in 0..<100 {
            let seed = UInt64(200_000 + batch * 1000 + i)
            var rng = SplitMix64(seed: seed)
            let bytes = Self.mutate(Self.validStream(&rng).bytes, &rng)
            Self.checkProperties(bytes, &rng, "damaged stream, seed \(seed)")
        }
    }

    @Test("damage to one line never costs another line its sentence")
    func damageIsLocal() {
        for seed in UInt64(300_000)..<300_200 {
            var rng = SplitMix64(seed: seed)
            let lines = (0..<6).map { _ in rng.pick(Self.realSentences) }
            let victim = rng.int(0..<lines.count)
            var bytes: [UInt8] = []
            for (i, line) in lines.enumerated() {
                var b = Array(line.utf8)
                if i == victim { b = Self.mutate(b, &rng).filter { $0 != 0x0D && $0 != 0x0A } }
                bytes += b + [0x0D, 0x0A]
            }
            let accepted = frame(bytes).compactMap(\.sentenceText)
            let survivors = lines.enumerated().filter { $0.offset != victim }.map(\.element)
            // Every undamaged sentence is still accepted, in order.
            var rest = accepted[...]
            for s in survivors {
                guard let at = rest.firstIndex(of: s) else {
                    Issue.record("seed \(seed): lost \(s)")
                    break
                }
                rest = rest[(at + 1)...]
            }
        }
    }
}
