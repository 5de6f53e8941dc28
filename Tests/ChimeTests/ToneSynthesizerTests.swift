import Chime
import Testing

/// Frequency of `samples` by counting sign changes (two per period), ignoring zeros.
func zeroCrossingHertz(_ samples: ArraySlice<Int16>, sampleRate: Int) -> Double {
    var crossings = 0
    var previous: Int16 = 0
    for sample in samples where sample != 0 {
        if previous != 0 && (sample > 0) != (previous > 0) { crossings += 1 }
        previous = sample
    }
    return Double(crossings) / 2 / (Double(samples.count) / Double(sampleRate))
}

@Suite("Tone synthesis")
struct ToneSynthesizerTests {
    let synthesizer = ToneSynthesizer(sampleRate: 22_050, volume: .full)

    @Test("each chime is as many frames as its notes last at the sample rate", arguments: ChimeKind.allCases)
    func lengths(kind: ChimeKind) {
        let expected = kind.notes.reduce(0) { total, note in
            let (seconds, attoseconds) = note.duration.components
            return total + Int(seconds) * 22_050 + Int(attoseconds / 1_000_000_000_000_000) * 22_050 / 1000
        }
        #expect(synthesizer.samples(for: kind).count == expected)
    }

    @Test("the update chime is 1764 frames at 22050 Hz and 1280 at 16000 Hz")
    func updateLengthAtTwoRates() {
        #expect(synthesizer.samples(for: .update).count == 1764)
        #expect(ToneSynthesizer(sampleRate: 16_000).samples(for: .update).count == 1280)
    }

    @Test("each note has its pitch by zero crossings within 1%", arguments: ChimeKind.allCases)
    func pitch(kind: ChimeKind) {
        let samples = synthesizer.samples(for: kind)
        var start = 0
        for note in kind.notes {
            let count = synthesizer.frameCount(for: note.duration)
            let hertz = zeroCrossingHertz(samples[start..<start + count], sampleRate: 22_050)
            #expect(abs(hertz - note.hertz) / note.hertz < 0.01, "\(kind) note \(note.hertz) Hz measured \(hertz) Hz")
            start += count
        }
    }

    @Test("full volume peaks at 90% of full scale, half volume at a quarter of that, zero is silent")
    func amplitudeFollowsVolume() throws {
        func peak(_ percent: Int) throws -> Int {
            let samples = ToneSynthesizer(volume: try ChimeVolume(percent: percent)).samples(for: .fixLost)
            return samples.map { abs(Int($0)) }.max() ?? -1
        }
        let full = Double(Int16.max) * 0.9
        #expect(abs(Double(try peak(100)) - full) / full < 0.005)
        #expect(abs(Double(try peak(50)) - full / 4) / (full / 4) < 0.005)
        #expect(try peak(0) == 0)
        let quiet = try peak(10), half = try peak(50)
        #expect(quiet < half)
    }

    @Test("every note fades in from 0 and out to 0 over 5 ms", arguments: ChimeKind.allCases)
    func fades(kind: ChimeKind) {
        let samples = synthesizer.samples(for: kind)
        let fade = synthesizer.frameCount(for: ToneSynthesizer.fade)
        let peak = Double(Int16.max) * 0.9
        var start = 0
        for note in kind.notes {
            let count = synthesizer.frameCount(for: note.duration)
            let note = samples[start..<start + count]
            #expect(note.first == 0)
            #expect(abs(Int(note.last ?? .max)) < Int(peak * 0.01))
            // The first and last millisecond stay under a tenth of the peak; the middle reaches it.
            let millisecond = 22_050 / 1000
            #expect(note.prefix(millisecond).allSatisfy { abs(Double($0)) < peak * 0.1 })
            #expect(note.suffix(millisecond).allSatisfy { abs(Double($0)) < peak * 0.1 })
            #expect(Double(note.dropFirst(fade).dropLast(fade).map { abs(Int($0)) }.max() ?? 0) > peak * 0.99)
            start += count
        }
    }

    @Test("the same chime synthesised twice is the same samples")
    func deterministic() {
        #expect(synthesizer.samples(for: .signalStrong) == ToneSynthesizer(sampleRate: 22_050, volume: .full).samples(for: .signalStrong))
    }

    @Test("chime durations are the documented ones")
    func durations() {
        #expect(ChimeKind.update.duration == .milliseconds(80))
        #expect(ChimeKind.signalStrong.duration == .milliseconds(240))
        #expect(ChimeKind.signalWeak.duration == .milliseconds(240))
        #expect(ChimeKind.fixLost.duration == .milliseconds(400))
        #expect(ChimeKind.recordingStarted.duration == .milliseconds(360))
        #expect(ChimeKind.recordingStopped.duration == .milliseconds(360))
    }

    @Test("volume text outside 0-100 or not a number is refused with a message naming --volume", arguments: ["101", "-1", "loud", ""])
    func volumeParsing(text: String) {
        #expect(throws: ChimeError.volumeOutOfRange(text)) { try ChimeVolume(parsing: text) }
        #expect(ChimeError.volumeOutOfRange(text).description.contains("--volume"))
    }

    @Test("volume text 0 and 100 parse")
    func volumeBounds() throws {
        #expect(try ChimeVolume(parsing: "0") == .silent)
        #expect(try ChimeVolume(parsing: "100") == .full)
    }
}
