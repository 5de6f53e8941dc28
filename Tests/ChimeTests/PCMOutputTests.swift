@testable import Chime
import Foundation
import Testing

/// The shim against real libasound: a `file` PCM over a `null` slave, measured with sox.
@Suite("ALSA output")
struct PCMOutputTests {
    @Test("every frame written to a file PCM lands in its WAV file at the set rate")
    func framesLand() throws {
        let scratch = try ScratchDirectory()
        let wav = scratch.file("out.wav")
        let samples = ToneSynthesizer(sampleRate: 16_000, volume: .full).samples(for: .fixLost)
        let output = try PCMOutput(device: ALSA.device, configuration: ALSA.fileConfiguration(writingTo: wav), sampleRate: 16_000)
        try output.play(samples)
        try output.play(samples)
        output.close()
        let stat = try SoxStat(wav)
        #expect(stat.samples == 2 * samples.count)
        #expect(abs(stat.seconds - 0.8) < 0.001)
    }

    @Test("a PCM name the configuration does not define cannot be opened, with a hint to aplay -L")
    func unknownName() throws {
        let scratch = try ScratchDirectory()
        let error = #expect(throws: ChimeError.self) {
            try PCMOutput(device: "nosuchpcm", configuration: ALSA.fileConfiguration(writingTo: scratch.file("out.wav")), sampleRate: 22_050)
        }
        guard case .cannotOpen(let device, let code) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(device == "nosuchpcm")
        #expect(code == -ENOENT)
        #expect(error?.description.contains("aplay -L") == true)
    }

    @Test("a file PCM into a missing directory opens, and fails at the first write")
    func badPathFailsAtWrite() throws {
        let scratch = try ScratchDirectory()
        let wav = scratch.file("missing/out.wav")
        let output = try PCMOutput(device: ALSA.device, configuration: ALSA.fileConfiguration(writingTo: wav), sampleRate: 22_050)
        let error = #expect(throws: ChimeError.self) { try output.play(ToneSynthesizer().samples(for: .fixLost)) }
        guard case .writeFailed(let device, _) = error else {
            Issue.record("expected writeFailed, got \(String(describing: error))")
            return
        }
        #expect(device == ALSA.device)
        #expect(!FileManager.default.fileExists(atPath: wav))
    }
}
