#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a ``ChimeKind`` into signed 16-bit mono samples. Pure: same input, same samples.
///
/// Each note is a sine starting at phase 0, shaped by a raised-cosine fade of ``fade`` at
/// both ends, so it starts and ends at 0 and the speaker does not click. Its length is its
/// duration times the rate, rounded to a whole frame. ``ChimePlayer`` calls it once per
/// chime at start-up and keeps the tables.
///
/// ```swift
/// let synthesizer = ToneSynthesizer(sampleRate: 22_050, volume: .default)
/// let samples = synthesizer.samples(for: .update)   // 1764 frames, 80 ms
/// ```
public struct ToneSynthesizer: Sendable, Hashable {
    /// Frames per second trackd plays at unless told otherwise: 22.05 kHz carries the
    /// highest chime (1320 Hz) with room to spare, and halves the work of 44.1 kHz on a Pi.
    public static let defaultSampleRate = 22_050
    /// Rates accepted, in hertz: telephone quality to the most any sound card offers.
    public static let sampleRates = 8_000...192_000
    /// Length of the fade in and the fade out of each note: 5 ms, long enough not to click,
    /// short enough that an 80 ms blip still sounds like a blip.
    public static let fade = Duration.milliseconds(5)

    /// Frames per second, in ``sampleRates``.
    public let sampleRate: Int
    /// How loud.
    public let volume: ChimeVolume

    /// - Precondition: `sampleRate` is in ``sampleRates`` (a programming error otherwise:
    ///   the rate is trackd's choice, not the user's).
    public init(sampleRate: Int = ToneSynthesizer.defaultSampleRate, volume: ChimeVolume = .default) {
        precondition(Self.sampleRates.contains(sampleRate), "a sample rate of \(sampleRate) Hz is outside \(Self.sampleRates)")
        self.sampleRate = sampleRate
        self.volume = volume
    }

    /// Frames in `duration`, rounded to the nearest frame.
    public func frameCount(for duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let frames = Double(seconds) * Double(sampleRate) + Double(attoseconds) * 1e-18 * Double(sampleRate)
        return max(0, Int(frames.rounded()))
    }

    /// The samples of a whole chime: its notes back to back.
    public func samples(for kind: ChimeKind) -> [Int16] {
        kind.notes.flatMap { samples(for: $0) }
    }

    /// The samples of one note: ``frameCount(for:)`` of its duration, faded at both ends.
    public func samples(for note: Note) -> [Int16] {
        let count = frameCount(for: note.duration)
        let fadeFrames = min(frameCount(for: Self.fade), count / 2)
        let peak = volume.amplitude * Double(Int16.max)
        let step = 2 * Double.pi * note.hertz / Double(sampleRate)
        return (0..<count).map { index in
            let fromEdge = min(index, count - 1 - index)
            let envelope = fromEdge < fadeFrames ? 0.5 - 0.5 * cos(Double.pi * Double(fromEdge) / Double(fadeFrames)) : 1
            return Int16((peak * envelope * sin(step * Double(index))).rounded())
        }
    }
}
