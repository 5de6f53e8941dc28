import GPSCore
import Location

/// The one-line status `trackd record` keeps on a terminal.
///
/// `3D 9 sats ±4.2 m strong | 1234 points 2.53 km 1.3 m/s | 35m00s`
struct LiveStatus: Sendable {
    var mode: FixMode?
    var satellites: Int?
    var accuracyMeters: Double?
    var signal: SignalStrength = .invalid
    var points = 0
    var distanceMeters = 0.0
    var speedMetersPerSecond = 0.0
    var elapsedSeconds: Int64 = 0

    /// Takes what a received fix says about the receiver.
    mutating func update(with fix: Fix) {
        mode = fix.mode
        satellites = fix.satellitesUsed
        accuracyMeters = fix.accuracy?.horizontalMeters
    }

    var line: String {
        var parts: [String] = []
        switch mode {
        case .threeD?: parts.append("3D")
        case .twoD?: parts.append("2D")
        case .noFix?: parts.append("no fix")
        case nil: parts.append("waiting")
        }
        if let satellites { parts.append("\(satellites) sats") }
        if let accuracyMeters, mode?.hasPosition == true { parts.append("±\(decimal(accuracyMeters, digits: 1)) m") }
        parts.append(signal.rawValue)
        let track = "\(points) points \(kilometres(distanceMeters)) km \(decimal(speedMetersPerSecond, digits: 1)) m/s"
        return parts.joined(separator: " ") + " | " + track + " | " + duration(seconds: elapsedSeconds)
    }
}
