import LiveView
import Testing

@Suite("Listen address")
struct ListenAddressTests {
    @Test(
        "HOST:PORT, [IPv6]:PORT and a port alone are read as host and port",
        arguments: [
            ("8080", "127.0.0.1", 8080, "127.0.0.1:8080"),
            ("0.0.0.0:8080", "0.0.0.0", 8080, "0.0.0.0:8080"),
            ("[::1]:9000", "::1", 9000, "[::1]:9000"),
            ("localhost:8080", "localhost", 8080, "localhost:8080"),
            ("0", "127.0.0.1", 0, "127.0.0.1:0"),
            ("192.168.1.20:65535", "192.168.1.20", 65535, "192.168.1.20:65535"),
            (" 9000 ", "127.0.0.1", 9000, "127.0.0.1:9000"),
        ])
    func parses(text: String, host: String, port: Int, description: String) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address == ListenAddress(host: host, port: port))
        #expect(address.description == description)
    }

    @Test(
        "text that is not HOST:PORT or a port is refused as a bad address",
        arguments: ["", ":8080", "1.2.3:80", "256.1.1.1:80", "host:99999", "host:", "::1:80", "[::1]", "a b:80", "[::1:80", "-1"])
    func refuses(text: String) {
        let error = #expect(throws: LiveViewError.self) { try ListenAddress(parsing: text) }
        guard case .badAddress(let given, _)? = error else {
            Issue.record("expected badAddress for '\(text)', got \(String(describing: error))")
            return
        }
        #expect(given == text)
    }

    @Test(
        "the refusal names the text, says what was wrong and what to give",
        arguments: [
            ("host:99999", "the port must be a number from 0 to 65535, not '99999'"),
            ("::1:80", "an IPv6 address is written in brackets, such as [::1]:8080"),
            ("256.1.1.1:80", "'256.1.1.1' is not an IPv4 address"),
            (":8080", "the address before ':' is missing"),
        ])
    func refusalText(text: String, reason: String) throws {
        let error = try #require(throws: LiveViewError.self) { try ListenAddress(parsing: text) }
        let description = error.description
        #expect(description.hasPrefix("'\(text)' is not an address to serve on"))
        #expect(description.contains(reason))
        #expect(description.contains("give HOST:PORT, such as 127.0.0.1:8080"))
    }

    @Test(
        "127.0.0.1, ::1 and localhost serve this machine only; 0.0.0.0 and others do not",
        arguments: [
            ("127.0.0.1:8080", true), ("[::1]:8080", true), ("localhost:8080", true), ("8080", true),
            ("0.0.0.0:8080", false), ("[::]:8080", false), ("192.168.1.20:8080", false),
        ])
    func loopback(text: String, isLoopback: Bool) throws {
        #expect(try ListenAddress(parsing: text).isLoopback == isLoopback)
    }

    @Test("the default is this machine only, on port 8080")
    func defaultAddress() {
        #expect(ListenAddress.default == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(ListenAddress.default.isLoopback)
    }
}
