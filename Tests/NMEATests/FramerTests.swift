import GPSCore
import NMEA
import Testing

/// Sentences from bu353s4 (SiRF-IV), used wherever the framer needs good input.
private let gga = "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D"
private let gsa = "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33"
private let rmc = "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D"

/// A stream with everything the framer must cope with, from the corpus logs' defects.
private let torture: [UInt8] = {
    var s: [UInt8] = []
    func add(_ text: String) { s += Array(text.utf8) }
    add("# Name: a torture stream\n# $GPGGA,inside,a,comment*00\n")
    add(gga + "\r\n")
    add("r$GPRMC,175804,V,5125.8697,N,00524.2288,E,0.0000,0.000,200610,,*30\r\n")  // tomtom-mkII
    add("$$GNGSA,A,3,44,34,25,11,19,23,38,,,,,,2.5,1.7,1.8,4*3E\n")  // st-teseo-liv4f
    add("$GPGSA,A,1,,,,,,,,,,,,,,,*1E$GPRMC,235949.00,V,0000.0000,N,00000.0000,E,,,161206,,,N*44\r")  // gp-320fw
    add("$GPGSA,A,1,,,,,,,,,,,,,,,*1E0,*4E\r\n")  // gp-320fw: bytes after the checksum
    add("$GPRMC,000346.03,A,4808")  // gp-320fw: NUL junk inside a sentence
    s += [UInt8](repeating: 0, count: 12)
    add("                  \r\n")
    s += [0xB5, 0x62, 0x01, 0x07, 0x00, 0xFF, 0x0D]  // binary between sentences
    add(gsa + "\n")
    add("$GPBOD,,T,,M,,*\r\n")  // garmin-geko201: empty checksum
    add("$GPGSV,3,1,11,01,78,221,47,03,09,042,00,04,05,242,00,06,04,149,00*7\r\n")  // garmin48: one digit
    add("$LOG108,1,100,100,0,0,5,0,4,462*61\r\n")  // rgm3800
    add("$GPTXT," + String(repeating: "X", count: 300) + "*00" + rmc + "\n")  // overlong, then a sentence
    add("!AIVDM,2,2,9,B,`88888888888880,2*76\n")
    add("$PGRME,9.1,M,15.0,M,12.0,M*21\n")
    add("$GPZDA,222449,25,10,2010,+00,00\r\n")  // hp58534a: no checksum
    add(sentence("GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5").dropLast(2) + "3b\n")  // wrong, lower case
    add(sentence("gpgga,1") + "\n")  // lower-case address
    add(rmc.dropLast(2) + "7d")  // lower-case checksum, and no line end before the stream ends
    return s
}()

@Suite("NMEAFramer")
struct FramerTests {
    // MARK: Reassembly

    @Test("a stream cut in two at any byte frames as it does whole")
    func everyTwoChunkSplit() {
        let whole = frame(torture)
        #expect(whole.compactMap(\.sentenceText).count == 10)
        for cut in 0...torture.count {
            let split = frame(torture, cuts: [cut])
            if split != whole {
                Issue.record("cut at \(cut): \(split) != \(whole)")
                return
            }
        }
    }

    @Test("a stream fed one byte at a time frames as it does whole")
    func oneByteChunks() {
        #expect(frame(torture, cuts: Array(1..<torture.count)) == frame(torture))
    }

    @Test("the torture stream yields exactly the well-formed sentences, in order")
    func tortureStreamSentences() {
        #expect(frame(torture).compactMap(\.sentenceText) == [
            gga,
            "$GPRMC,175804,V,5125.8697,N,00524.2288,E,0.0000,0.000,200610,,*30",
            "$GNGSA,A,3,44,34,25,11,19,23,38,,,,,,2.5,1.7,1.8,4*3E",
            "$GPGSA,A,1,,,,,,,,,,,,,,,*1E",
            "$GPRMC,235949.00,V,0000.0000,N,00000.0000,E,,,161206,,,N*44",
            gsa,
            rmc,
            "!AIVDM,2,2,9,B,`88888888888880,2*76",
            "$PGRME,9.1,M,15.0,M,12.0,M*21",
            rmc,  // no line end after it: `finish` completes it
        ])
    }

    @Test("the torture stream's defects are rejected for the right reasons")
    func tortureStreamRejections() {
        let reasons = frame(torture).compactMap(\.rejection).map(\.reason)
        #expect(reasons == [.garbled, .garbled, .missingChecksum, .missingChecksum, .badAddress, .overlong,
                            .missingChecksum, .badChecksum, .badAddress])
    }

    // MARK: Line ends

    @Test("CR, LF, CRLF, LFCR and mixed line ends all end a sentence",
          arguments: ["\r", "\n", "\r\n", "\n\r", "\r\r\n\n"])
    func lineEnds(end: String) {
        let framed = frame(gga + end + gsa + end + rmc + end)
        #expect(framed == [.sentence(gga), .sentence(gsa), .sentence(rmc)])
    }

    @Test("a stream mixing line ends sentence by sentence frames every sentence")
    func mixedLineEnds() {
        #expect(frame(gga + "\r\n" + gsa + "\n" + rmc + "\r") == [.sentence(gga), .sentence(gsa), .sentence(rmc)])
    }

    // MARK: Noise

    @Test("noise before the start character is skipped",
          arguments: [
            ("r$GPRMC,175804,V,5125.8697,N,00524.2288,E,0.0000,0.000,200610,,*30",
             "$GPRMC,175804,V,5125.8697,N,00524.2288,E,0.0000,0.000,200610,,*30"),
            ("$$GNGSA,A,3,44,34,25,11,19,23,38,,,,,,2.5,1.7,1.8,4*3E",
             "$GNGSA,A,3,44,34,25,11,19,23,38,,,,,,2.5,1.7,1.8,4*3E"),
            ("\u{1B}[2J  junk " + gga, gga),
          ])
    func leadingNoise(line: String, sentence: String) {
        #expect(frame(line + "\r\n") == [.sentence(sentence)])
    }

    @Test("two sentences on one line are both accepted")
    func twoSentencesOnOneLine() {
        let line = "$GPGSA,A,1,,,,,,,,,,,,,,,*1E$GPRMC,235949.00,V,0000.0000,N,00000.0000,E,,,161206,,,N*44\r\n"
        #expect(frame(line) == [
            .sentence("$GPGSA,A,1,,,,,,,,,,,,,,,*1E"),
            .sentence("$GPRMC,235949.00,V,0000.0000,N,00000.0000,E,,,161206,,,N*44"),
        ])
    }

    @Test("bytes after a checksum on the same line make the sentence garbled, and the next line still frames",
          arguments: ["0,*4E", "0", "E", "x", "*1E", " 7"])
    func bytesAfterChecksum(trailing: String) {
        let framed = frame("$GPGSA,A,1,,,,,,,,,,,,,,,*1E" + trailing + "\r\n" + gga + "\r\n")
        #expect(framed == [.rejected(.garbled(prefix: "$GPGSA,A,1,,,,,,,,,,,,,,,*1E")), .sentence(gga)])
    }

    @Test("blanks between a checksum and the line end are allowed")
    func trailingBlanks() {
        #expect(frame(gga + " \t \r\n") == [.sentence(gga)])
    }

    @Test("NUL bytes inside a sentence make it garbled; the next sentence frames")
    func nulInsideSentence() {
        var bytes = Array("$GPRMC,000346.03,A,4808".utf8)
        bytes += [UInt8](repeating: 0, count: 12) + Array("        \r\n".utf8) + Array((gga + "\r\n").utf8)
        let framed = frame(bytes)
        #expect(framed.count == 2)
        guard case .rejected(.garbled(let prefix)) = framed.first else {
            Issue.record("expected garbled, got \(framed)")
            return
        }
        #expect(prefix.contains("GPRMC,000346.03,A,4808"))
        #expect(framed.last == .sentence(gga))
    }

    @Test("binary junk between sentences is ignored", arguments: [
        [0x00, 0x00, 0x00], [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00], [0xFF, 0xFE, 0x80, 0x7F], Array("\u{1B}[0m".utf8),
    ] as [[UInt8]])
    func junkBetweenSentences(junk: [UInt8]) {
        let bytes = Array((gga + "\r\n").utf8) + junk + Array((gsa + "\r\n").utf8) + junk
        #expect(frame(bytes) == [.sentence(gga), .sentence(gsa)])
    }

    @Test("a high byte inside a sentence makes it garbled")
    func highByteInsideSentence() {
        var bytes = Array(gga.utf8)
        bytes[20] = 0xC3
        #expect(frame(bytes + [0x0D, 0x0A]).map { $0.rejection?.reason } == [.garbled])
    }

    // MARK: Length

    @Test("a line longer than the maximum is rejected as overlong, and the next sentence frames")
    func overlongLine() {
        let long = "$GPTXT," + String(repeating: "A", count: 400) + "*00"
        let framed = frame(long + "\r\n" + gga + "\r\n")
        #expect(framed.count == 2)
        guard case .rejected(.overlong(let prefix, let length)) = framed.first else {
            Issue.record("expected overlong, got \(framed)")
            return
        }
        #expect(prefix.hasPrefix("GPTXT,AAA"))
        #expect(length == NMEAFramer.maximumSentenceLength)
        #expect(framed.last == .sentence(gga))
    }

    @Test("a sentence on the same line after an overlong one still frames")
    func sentenceAfterOverlongOnSameLine() {
        let framed = frame("$GPTXT," + String(repeating: "B", count: 300) + gga + "\r\n")
        #expect(framed.map(\.rejection?.reason) == [.overlong, nil])
        #expect(framed.last == .sentence(gga))
    }

    @Test("a body of exactly the maximum length is accepted, one byte more is not")
    func lengthBoundary() {
        let fill = NMEAFramer.maximumSentenceLength - "GPTXT,".utf8.count
        let longest = sentence("GPTXT," + String(repeating: "C", count: fill))
        #expect(frame(longest + "\r\n") == [.sentence(longest)])
        let tooLong = sentence("GPTXT," + String(repeating: "C", count: fill + 1))
        #expect(frame(tooLong + "\r\n").map(\.rejection?.reason) == [.overlong])
    }

    @Test("a megabyte without a line end is one overlong rejection; framing goes on after it")
    func unboundedLineStaysBounded() {
        var bytes = [UInt8(ascii: "$")] + [UInt8](repeating: UInt8(ascii: "G"), count: 1 << 20)
        bytes += Array(("\n" + gga + "\n").utf8)
        let framed = frame(bytes, cuts: stride(from: 4096, to: bytes.count, by: 4096).map { $0 })
        #expect(framed.map(\.rejection?.reason) == [.overlong, nil])
        #expect(framed.last == .sentence(gga))
    }

    // MARK: Sentences trackd frames but does not decode

    @Test("AIS and proprietary sentences are framed, then decoded as skipped", arguments: [
        "!AIVDM,2,1,9,B,55R3Vn82=ILTQ3KKS>1<D60Dq@E918U<F222221J1`?164vc03S1CCAD,0*2A",
        "$PGRME,9.1,M,15.0,M,12.0,M*21",
        "$PSRF151,3,1833,28692,0x7EFFFFFF*15",
        "$GPRMB,A,,,,,,,,,,,,V*71",
    ])
    func skippedSentences(line: String) throws {
        let framed = frame(line + "\r\n")
        #expect(framed == [.sentence(line)])
        #expect(try decode(line).sentence.isSkipped)
    }

    // MARK: Comments

    @Test("a # line at the start of a line is a comment, even if it holds a sentence")
    func commentLines() {
        let text = "# Name: BU-353-S4\r\n#" + gga + "\n# Date: 2014-12-31\r" + gsa + "\n"
        #expect(frame(text) == [.sentence(gsa)])
    }

    @Test("a # in the middle of a line is noise, not a comment", arguments: [
        "x#" + "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
        " # $GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33",
    ])
    func hashMidLine(line: String) {
        #expect(frame(line + "\n") == [.sentence(gsa)])
    }

    @Test("a # right after a cut-off checksum is noise: a sentence later on the line still frames",
          arguments: ["*", "*7"])
    func hashAfterTruncatedChecksum(cut: String) {
        let framed = frame("$GPBOD,,T,,M,," + cut + "#" + gsa + "\r\n")
        #expect(framed == [.rejected(.missingChecksum(sentence: "$GPBOD,,T,,M,," + cut)), .sentence(gsa)])
    }

    // MARK: Checksums

    @Test("a wrong checksum is rejected with the computed and the sent value")
    func badChecksum() {
        let framed = frame("$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*34\r\n")
        #expect(framed == [.rejected(.badChecksum(
            sentence: "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5", expected: 0x33, found: 0x34))])
    }

    @Test("a lower-case hex checksum is accepted")
    func lowerCaseChecksum() {
        let line = "$GPGSV,3,3,12,11,12,132,04,08,38,008,,02,35,348,,03,14,091,*73"
        let lower = sentence("GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23")
        #expect(lower.hasSuffix("*7B"))
        #expect(frame(lower.dropLast(2) + "7b\r\n" + line + "\r\n") == [.sentence(lower), .sentence(line)])
    }

    @Test("a sentence without a checksum is rejected by default")
    func missingChecksumRejected() {
        #expect(frame("$GPZDA,222449,25,10,2010,+00,00\r\n")
            == [.rejected(.missingChecksum(sentence: "$GPZDA,222449,25,10,2010,+00,00"))])
    }

    @Test("a sentence without a checksum is accepted with allowMissingChecksum (hp58534a)")
    func missingChecksumAllowed() throws {
        let lines = [
            "$GPGGA,222449,3349.0337,S,01843.9282,E,1,07,02.31,000115.4,M,0033.3,M,,",
            "$GPZDA,222449,25,10,2010,+00,00",
        ]
        let framed = frame(lines.joined(separator: "\r\n") + "\r\n", allowMissingChecksum: true)
        #expect(framed == lines.map { .sentence($0) })
        // Checksums that are present are still verified.
        #expect(frame(gga.dropLast() + "0\r\n", allowMissingChecksum: true).map(\.rejection?.reason) == [.badChecksum])
    }

    @Test("an empty checksum and a one-digit checksum are rejected as missing", arguments: [
        ("$GPBOD,,T,,M,,*", "$GPBOD,,T,,M,,*"),
        ("$GPGSV,3,1,11,01,78,221,47,03,09,042,00,04,05,242,00,06,04,149,00*7",
         "$GPGSV,3,1,11,01,78,221,47,03,09,042,00,04,05,242,00,06,04,149,00*7"),
    ])
    func truncatedChecksum(line: String, reported: String) {
        #expect(frame(line + "\r\n" + gga + "\r\n") == [.rejected(.missingChecksum(sentence: reported)), .sentence(gga)])
        // Even where missing checksums are allowed: a started `*hh` that stops is a cut-off line.
        #expect(frame(line + "\r\n", allowMissingChecksum: true).map(\.rejection?.reason) == [.missingChecksum])
    }

    // MARK: Addresses

    @Test("$LOG108 from an RGM-3800 is rejected as a bad address")
    func log108() {
        #expect(frame("$LOG108,1,100,100,0,0,5,0,4,462*61\r\n")
            == [.rejected(.badAddress(sentence: "$LOG108,1,100,100,0,0,5,0,4,462"))])
    }

    @Test("addresses: upper-case letters, digits only when proprietary, 3 to 24 long", arguments: [
        ("GPGGA", true), ("PSRF151", true), ("PSTMANTENNASTATUS", true), ("SNRSTAT", true), ("ABC", true),
        ("AB", false), ("gpgga", false), ("GP1GA", false), ("GP GGA", false), ("", false),
        (String(repeating: "P", count: 25), false),
    ])
    func addresses(address: String, valid: Bool) {
        let framed = frame(sentence(address + ",1") + "\r\n")
        if valid {
            #expect(framed == [.sentence(sentence(address + ",1"))])
        } else {
            #expect(framed.map(\.rejection?.reason) == [.badAddress])
        }
    }

    // MARK: End of stream

    @Test("finish accepts a complete last sentence that has no line end, and reports a cut-off one")
    func finishEndsTheStream() {
        #expect(frame(gga) == [.sentence(gga)])
        #expect(frame(String(gga.prefix(30))) == [.rejected(.missingChecksum(sentence: String(gga.prefix(30))))])
        #expect(frame(String(gga.prefix(30)), allowMissingChecksum: true) == [.sentence(String(gga.prefix(30)))])
        #expect(frame("$") == [])
    }

    @Test("an empty chunk changes nothing")
    func emptyChunk() {
        let bytes = Array((gga + "\r\n").utf8)
        #expect(frame(bytes, cuts: [0, 0, 10, 10, bytes.count]) == [.sentence(gga)])
    }
}
