import GPSCore
import NMEA
import Testing

@Suite("TXT")
struct TXTTests {
    @Test("TXT gives its place in the message, identifier and text", arguments: [
        ("$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50", "u-blox ag - www.u-blox.com"),
        ("$GPTXT,01,01,02,ROM CORE       5.00    Jan 09 2006 12:00:00*76", "ROM CORE       5.00    Jan 09 2006 12:00:00"),
        ("$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E", "u-blox AG - www.u-blox.com"),
    ])
    func banner(line: String, text: String) throws {
        let t = try #require(try decode(line).sentence.txt)
        #expect(t.sentenceCount == 1 && t.sentenceNumber == 1 && t.identifier == 2)
        #expect(t.text == text)
    }

    @Test("TXT text may itself hold commas (unicore-um621)")
    func commasInText() throws {
        let t = try #require(try decode("$GNTXT,01,01,01,0,500482,0000,80A0,80A0,-37.847,0*67").sentence.txt)
        #expect(t.identifier == 1)
        #expect(t.text == "0,500482,0000,80A0,80A0,-37.847,0")
    }

    @Test("TXT with every field empty decodes to nils and an empty text")
    func emptyFields() throws {
        let t = try #require(try decode(sentence("GPTXT,,,,")).sentence.txt)
        #expect(t.sentenceCount == nil && t.sentenceNumber == nil && t.identifier == nil)
        #expect(t.text == "")
    }

    static let badFields: [BadFieldCase] = [
        BadFieldCase(line: sentence("GPTXT,01,one,02,hello"),
                     sentence: "GPTXT", field: 2, found: "one", expecting: "sentence number"),
        BadFieldCase(line: sentence("GPTXT,01,01,xx,hello"),
                     sentence: "GPTXT", field: 3, found: "xx", expecting: "text identifier"),
    ]

    @Test("a bad TXT field is rejected naming the sentence, field, what belongs there and what was found",
          arguments: badFields)
    func badField(c: BadFieldCase) throws {
        try expectComplaint(c)
    }
}
