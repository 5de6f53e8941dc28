import Testing
@testable import trackd

@Suite("record --serve's optional address")
struct ServeArgumentTests {
    @Test("--serve with no value after it means 127.0.0.1:8080; a value after it is kept", arguments: [
        (["record", "--serve"], ["record", "--serve=127.0.0.1:8080"]),
        (["record", "--serve", "--speed", "20"], ["record", "--serve=127.0.0.1:8080", "--speed", "20"]),
        (["record", "--serve", "0.0.0.0:9000", "--no-chime"], ["record", "--serve", "0.0.0.0:9000", "--no-chime"]),
        (["record", "--serve=8081"], ["record", "--serve=8081"]),
        (["record", "--", "--serve"], ["record", "--", "--serve"]),
        (["serve", "--serve"], ["serve", "--serve"]),
        (["convert", "a.nmea", "--serve"], ["convert", "a.nmea", "--serve"]),
    ])
    func expansion(arguments: [String], expected: [String]) {
        #expect(ServeArgument.expanded(arguments) == expected)
    }
}
