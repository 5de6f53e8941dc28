extension SourceError {
    /// The descriptions of the serial receiver's errors: what, where, and what to do.
    var serialDescription: String {
        switch self {
        case .noDevice(let path):
            "\(path) does not exist: is the receiver plugged in? (its device shows up in /dev/serial/by-id when it is)"
        case .deviceBusy(let path):
            "\(path) is busy (EBUSY): another program (gpsd? ModemManager?) has it open; stop it, or use --source gpsd"
        case .permissionDenied(let path):
            "permission denied opening \(path) (EACCES): add yourself to the device's group (usually dialout: sudo usermod -aG dialout $USER, then log in again)"
        case .notATerminal(let path):
            "\(path) is not a serial device (ENOTTY); give the receiver's tty (/dev/ttyACM0, /dev/ttyUSB0), or replay a log file with --source FILE"
        case .cannotConfigure(let path, let reason):
            "cannot set up \(path) as a raw serial line: \(reason); check that it is the receiver's serial port"
        case .unsupportedBaud(let baud):
            "\(baud) is not a baud rate trackd sets; give one of "
                + BaudRate.allCases.map { String($0.rawValue) }.joined(separator: ", ")
                + ", or none to have it detected"
        case .noNMEAAtAnyBaud(let device, let rates, let bytesSeen, let sample, let checksumless):
            Self.noNMEADescription(device: device, rates: rates, bytesSeen: bytesSeen, sample: sample, checksumless: checksumless)
        default:
            description
        }
    }

    private static func noNMEADescription(
        device: String, rates: [Int], bytesSeen: Int, sample: [UInt8], checksumless: Int
    ) -> String {
        let allRates = BaudRate.allCases.map(\.rawValue)
        let atRates: String
        if Set(rates) == Set(allRates) {
            atRates = "at every rate from \(allRates.min() ?? 0) to \(allRates.max() ?? 0) baud"
        } else if rates.count == 1, let rate = rates.first {
            atRates = "at \(rate) baud"
        } else {
            atRates = "at " + rates.map(String.init).joined(separator: ", ") + " baud"
        }
        let fixedRate = rates.count == 1 ? " (or give no baud rate, to have it detected)" : ""
        if bytesSeen == 0 {
            return "\(device) sent nothing \(atRates): is the receiver powered and connected, and is this its port?\(fixedRate)"
        }
        var text = "\(device) sent \(bytesSeen) bytes \(atRates) and no NMEA sentence"
        if !sample.isEmpty {
            text += "; first bytes: " + sample.prefix(8).map(hexByte).joined(separator: " ")
                + (sample.count > 8 ? " …" : "")
            if let guess = binaryProtocolGuess(sample) { text += " (\(guess)?)" }
        }
        if checksumless > 0 {
            text += "; \(checksumless) lines were sentences without checksums: if the receiver sends none, try --allow-missing-checksum"
        } else {
            text += "; is it a GPS receiver? set it to NMEA output\(fixedRate)"
        }
        return text
    }

    /// The binary protocol whose sync bytes begin `sample`, when they are a known one.
    private static func binaryProtocolGuess(_ sample: [UInt8]) -> String? {
        let pairs = zip(sample, sample.dropFirst())
        if pairs.contains(where: { $0 == (0xB5, 0x62) }) { return "u-blox UBX binary" }
        if pairs.contains(where: { $0 == (0xA0, 0xA2) }) { return "SiRF binary" }
        return nil
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
