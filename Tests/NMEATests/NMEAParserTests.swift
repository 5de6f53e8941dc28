import GPSCore
import NMEA
import Testing

/// Everything a parser reports for some bytes.
struct Parsed: Equatable {
    var fixes: [Fix] = []
    var rejections: [NMEAError] = []
    var statistics = NMEAStatistics()

    /// Parses `bytes` fed in pieces cut at the offsets `cuts` (ascending), then finishes.
    init(_ bytes: [UInt8], cuts: [Int] = [], allowMissingChecksum: Bool = false) {
        var parser = NMEAParser(allowMissingChecksum: allowMissingChecksum)
        bytes.withUnsafeBytes { all in
            var start = 0
            for end in cuts + [all.count] {
                parser.parse(UnsafeRawBufferPointer(rebasing: all[start..<end]), onReject: { rejections.append($0) }) {
                    fixes.append($0)
                }
                start = end
            }
        }
        parser.finish(onReject: { rejections.append($0) }) { fixes.append($0) }
        statistics = parser.statistics
    }

    init(_ text: String, allowMissingChecksum: Bool = false) {
        self.init(Array(text.utf8), allowMissingChecksum: allowMissingChecksum)
    }
}

@Suite("NMEAParser")
struct NMEAParserTests {
    @Test("statistics count sentences, decoded, skipped, rejections by reason and fixes")
    func statistics() {
        var text = ""
        for line in Synthetic.cycle(Synthetic.time(0)) + Synthetic.cycle(Synthetic.time(1)) { text += line + "\r\n" }
        text += "$PGRME,9.1,M,15.0,M,12.0,M*21\r\n"  // skipped
        text += "!AIVDM,2,2,9,B,`88888888888880,2*76\r\n"  // skipped
        text += "$GPRMB,A,,,,,,,,,,,,V*71\r\n"  // skipped
        text += "$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50\r\n"  // decoded, no fix data
        text += "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*34\r\n"  // bad checksum
        text += "$GPBOD,,T,,M,,*\r\n"  // missing checksum
        text += "$GPZDA,222449,25,10,2010,+00,00\r\n"  // missing checksum
        text += "$GPTXT," + String(repeating: "Z", count: 300) + "\r\n"  // overlong
        text += "$GPRMC,000346.03,A,4808\u{0}\u{0}\r\n"  // garbled
        text += "$LOG108,1,100,100,0,0,5,0,4,462*61\r\n"  // bad address
        text += sentence("GPGGA,123519,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n"  // bad field
        text += "$GPRMC,000231.099,A,4829.0005,N,00022.0015,E,0.15,212.28,2208-1,,,A*73\r\n"  // bad field
        let parsed = Parsed(text)
        var expected = NMEAStatistics()
        expected.sentences = 10
        expected.decoded = 7
        expected.skipped = 3
        expected.rejected = [.badChecksum: 1, .missingChecksum: 2, .overlong: 1, .garbled: 1, .badAddress: 1, .badField: 2]
        expected.fixes = 2
        #expect(parsed.statistics == expected)
        #expect(parsed.statistics.rejectedTotal == 8)
        #expect(parsed.rejections.map(\.reason) == [
            .badChecksum, .missingChecksum, .missingChecksum, .overlong, .garbled, .badAddress, .badField, .badField,
        ])
        #expect(parsed.fixes.count == 2)
    }

    @Test("each rejection reaches onReject with a message naming the sentence and field")
    func rejectionMessages() {
        let parsed = Parsed(sentence("GPGGA,123519,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n")
        #expect(parsed.rejections.map(\.description) == [
            "GPGGA field 2: expected latitude ddmm.mmmm, found '48x7.038'",
        ])
    }

    @Test("a fix is emitted when the line end of its cycle's last sentence arrives")
    func emittedAtLineEnd() {
        var parser = NMEAParser()
        var fixes: [Fix] = []
        func feed(_ text: String) {
            Array(text.utf8).withUnsafeBytes { parser.parse($0) { fixes.append($0) } }
        }
        for n in 0..<2 {
            for line in Synthetic.cycle(Synthetic.time(n)) { feed(line + "\r\n") }
        }
        let cycle = Synthetic.cycle(Synthetic.time(2))
        feed(cycle[0] + "\r\n" + cycle[1] + "\r\n")
        #expect(fixes.count == 2)
        feed(cycle[2])
        #expect(fixes.count == 2, "no line end yet: the sentence may still go on")
        feed("\r\n")
        #expect(fixes.count == 3)
        #expect(fixes.last?.time?.timeOfDay == tod(Synthetic.time(2)))
        #expect(parser.statistics.fixes == 3)
    }

    @Test("a receiver without checksums gives fixes only with allowMissingChecksum (hp58534a)")
    func withoutChecksums() {
        let text = """
            $GPGGA,222449,3349.0337,S,01843.9282,E,1,07,02.31,000115.4,M,0033.3,M,,\r
            $GPZDA,222449,25,10,2010,+00,00\r
            $GPGGA,222450,3349.0338,S,01843.9283,E,1,07,02.31,000115.5,M,0033.3,M,,\r

            """
        #expect(Parsed(text).fixes.isEmpty)
        let parsed = Parsed(text, allowMissingChecksum: true)
        #expect(parsed.fixes.map(\.time?.description) == ["2010-10-25T22:24:49Z", "2010-10-25T22:24:50Z"])
        #expect(close(parsed.fixes.first?.coordinate?.latitude, -degrees(33, 49.0337)))
        #expect(parsed.statistics.rejectedTotal == 0)
    }

    @Test("an empty stream gives nothing")
    func emptyStream() {
        #expect(Parsed([UInt8]()) == Parsed([UInt8](), cuts: [0, 0]))
        #expect(Parsed([UInt8]()).fixes.isEmpty && Parsed([UInt8]()).statistics == NMEAStatistics())
    }
}
