import GPSSources
import Testing

@Suite("Serial probe")
struct SerialProbeTests {
    /// `$body*hh\r\n` with the right checksum.
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count < 2 ? "0" : "") + hex + "\r\n"
    }

    @Test("the talkers and sentence types of good sentences are listed once each, sorted; bad ones are not")
    func talkersAndTypes() {
        let text = Self.sentence("GNRMC,073000.00,A,4637.44300,N,00802.48220,E,0.5,45.0,140924,,,A")
            + Self.sentence("GPGSV,1,1,01,05,40,120,38")
            + Self.sentence("GLGSV,1,1,01,70,10,200,30")
            + Self.sentence("PUBX,00,073000.00")
            + Self.sentence("GNRMC,073001.00,A,4637.44300,N,00802.48220,E,0.5,45.0,140924,,,A")
            + "$GAGSV,1,1,01,11,40,120,38*00\r\n"  // a wrong checksum: no Galileo talker
            + "junk\u{0}\u{FF}$GNR"
        let probe = SerialProbe(baud: .b9600, bytes: Array(text.utf8))
        #expect(probe.baud == .b9600)
        #expect(probe.talkers == ["GL", "GN", "GP"])
        #expect(probe.sentenceTypes == ["GSV", "PUBX", "RMC"])
    }
}
