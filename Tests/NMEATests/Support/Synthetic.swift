/// Sentences built field by field, shaped like bu353s4's (SiRF-IV), for epochs a test
/// needs many of or needs to vary one field in. Each has a correct checksum.
enum Synthetic {
    static let latitude = "3747.0873,S"
    static let longitude = "17518.8938,E"

    static func gga(_ time: String, _ lat: String = latitude, _ lon: String = longitude, quality: String = "1",
                    satellites: String = "08", hdop: String = "1.1", altitude: String = "59.9",
                    talker: String = "GP") -> String {
        sentence("\(talker)GGA,\(time),\(lat),\(lon),\(quality),\(satellites),\(hdop),\(altitude),M,23.7,M,,0000")
    }

    static func rmc(_ time: String, _ lat: String = latitude, _ lon: String = longitude, status: String = "A",
                    date: String = "311214", knots: String = "0.69", mode: String = "A", talker: String = "GP") -> String {
        sentence("\(talker)RMC,\(time),\(status),\(lat),\(lon),\(knots),181.39,\(date),,,\(mode)")
    }

    static func gns(_ time: String, _ lat: String = latitude, _ lon: String = longitude, modes: String = "AA",
                    altitude: String = "59.9") -> String {
        sentence("GNGNS,\(time),\(lat),\(lon),\(modes),08,1.1,\(altitude),23.7,,,V")
    }

    static func gll(_ time: String, _ lat: String = latitude, _ lon: String = longitude, status: String = "A") -> String {
        sentence("GPGLL,\(lat),\(lon),\(time),\(status),A")
    }

    static func gsa(mode: String = "3", _ prns: [Int] = [17, 28, 6, 1, 30, 20, 26, 13], talker: String = "GP",
                    system: String? = nil) -> String {
        let slots = (prns.map { $0 < 10 ? "0\($0)" : "\($0)" } + Array(repeating: "", count: 12)).prefix(12)
        return sentence("\(talker)GSA,A,\(mode),\(slots.joined(separator: ",")),1.8,1.1,1.5"
            + (system.map { ",\($0)" } ?? ""))
    }

    static func gst(_ time: String, latitudeSigma: String = "2.0", longitudeSigma: String = "3.0",
                    altitudeSigma: String = "5.0") -> String {
        sentence("GPGST,\(time),1.2,3.5,2.1,45.0,\(latitudeSigma),\(longitudeSigma),\(altitudeSigma)")
    }

    static func zda(_ time: String, day: String, month: String, year: String, talker: String = "GP") -> String {
        sentence("\(talker)ZDA,\(time),\(day),\(month),\(year),00,00")
    }

    /// One SiRF-like cycle: GGA, GSA, RMC.
    static func cycle(_ time: String) -> [String] {
        [gga(time), gsa(), rmc(time)]
    }

    /// `hhmmss.000` for `second` seconds after 03:07:19.
    static func time(_ second: Int) -> String {
        let t = 3 * 3600 + 7 * 60 + 19 + second
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return two(t / 3600) + two(t / 60 % 60) + two(t % 60) + ".000"
    }
}
