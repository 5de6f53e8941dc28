/// A one-line progress bar on standard error, for long conversions on a terminal.
///
/// Shown only when enabled, the input size is known and larger than ``minimumBytes``;
/// redrawn at most 200 times in all, so it costs nothing measurable.
struct ProgressBar {
    static let minimumBytes = 8 * 1024 * 1024
    static let width = 30

    private let total: Int
    private let enabled: Bool
    private var done = 0
    private var nextRedraw = 0
    private var drawn = false

    init(totalBytes: Int?, enabled: Bool) {
        total = totalBytes ?? 0
        self.enabled = enabled && total >= ProgressBar.minimumBytes
    }

    mutating func advance(by bytes: Int) {
        guard enabled else { return }
        done += bytes
        guard done >= nextRedraw || done >= total else { return }
        nextRedraw = done + total / 200
        let fraction = min(1.0, Double(done) / Double(total))
        let filled = Int(fraction * Double(ProgressBar.width))
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: ProgressBar.width - filled)
        let percent = Int(fraction * 100)
        writeStandardError("\r[\(bar)] \(percent)% \(megabytes(done))/\(megabytes(total)) MB")
        drawn = true
    }

    mutating func clear() {
        guard drawn else { return }
        writeStandardError("\r" + String(repeating: " ", count: ProgressBar.width + 32) + "\r")
        drawn = false
    }

    private func megabytes(_ bytes: Int) -> String {
        let tenths = bytes / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
