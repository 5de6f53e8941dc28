import GPSCore
import GPX
import Testing

private struct DiskFull: Error, Equatable {}

@Suite("GPX streaming")
struct GPXStreamingTests {
    @Test("A million points pass through a buffer that never grows past its bound")
    func constantMemory() throws {
        let pointCount = 1_000_000
        var bytesReceived = 0
        var sinkCalls = 0
        var largestChunk = 0
        var writer = GPXWriter(metadata: GPXMetadata(name: "Long"), trackName: "Long") { chunk in
            bytesReceived += chunk.count
            sinkCalls += 1
            largestChunk = max(largestChunk, chunk.count)
        }
        let initialCapacity = writer.bufferCapacity
        var fix = fullFix()
        for index in 0..<pointCount {
            fix.time?.timeOfDay.microseconds = Int64(index % 86_400) * 1_000_000 + Int64(index % 10) * 100_000
            fix.coordinate?.latitude = 47 + Double(index) * 1e-6
            try writer.append(fix)
        }
        try writer.finish()

        #expect(writer.pointsWritten == pointCount)
        let bound = GPXWriter.flushThresholdBytes + 4 * 1024
        #expect(writer.maxBufferedBytes <= bound)
        #expect(largestChunk <= bound)
        #expect(writer.bufferCapacity == initialCapacity)
        // Every chunk but the last fills the buffer to the threshold.
        #expect(sinkCalls <= bytesReceived / GPXWriter.flushThresholdBytes + 1)
        #expect(bytesReceived > pointCount * 100)
    }

    @Test("Chunks arrive in order and join into one valid document")
    func chunksJoin() throws {
        let rendered = try renderGPX { writer in
            for second in 0..<5_000 {
                if second > 0 && second % 1_000 == 0 { try writer.beginSegment() }
                var fix = fullFix()
                fix.time?.timeOfDay.microseconds += Int64(second) * 1_000_000
                try writer.append(fix)
            }
        }
        #expect(rendered.sinkCalls.count > 2)
        #expect(rendered.sinkCalls.dropLast().allSatisfy { $0 >= GPXWriter.flushThresholdBytes })
        #expect(occurrences(of: "<trkpt ", in: rendered.text) == 5_000)
        #expect(occurrences(of: "<trkseg>", in: rendered.text) == 5)
        try GPXSchema.expectValid(rendered.text)
    }

    @Test("Nothing reaches the sink before the buffer fills or finish is called")
    func buffersUntilFull() throws {
        var sinkCalls = 0
        var writer = GPXWriter(metadata: GPXMetadata()) { _ in sinkCalls += 1 }
        for second in 0..<10 { try writer.append(positionFix(second: second)) }
        #expect(sinkCalls == 0)
        try writer.finish()
        #expect(sinkCalls == 1)
    }

    @Test("finish is idempotent: a second call writes nothing more")
    func finishTwice() throws {
        let collector = ByteCollector()
        var writer = GPXWriter(metadata: GPXMetadata()) { collector.receive($0) }
        try writer.append(positionFix())
        try writer.finish()
        let length = collector.bytes.count
        try writer.finish()
        #expect(collector.bytes.count == length)
        #expect(collector.calls.count == 1)
        #expect(writer.isFinished)
    }

    @Test("append and beginSegment after finish throw writerFinished")
    func writeAfterFinish() throws {
        var writer = GPXWriter(metadata: GPXMetadata()) { _ in }
        try writer.finish()
        #expect(throws: GPXError.writerFinished) { try writer.append(positionFix()) }
        #expect(throws: GPXError.writerFinished) { try writer.beginSegment() }
    }

    @Test("A sink error reaches the caller, and the writer then refuses to write")
    func sinkErrorPropagates() throws {
        var writer = GPXWriter(metadata: GPXMetadata()) { _ in throw DiskFull() }
        var thrown: (any Error)?
        do {
            for second in 0..<10_000 { try writer.append(positionFix(second: second)) }
        } catch {
            thrown = error
        }
        #expect(thrown is DiskFull)
        #expect(throws: GPXError.outputFailedEarlier) { try writer.append(positionFix()) }
        #expect(throws: GPXError.outputFailedEarlier) { try writer.finish() }
        #expect(!writer.isFinished)
    }

    @Test("A sink error in finish reaches the caller")
    func sinkErrorInFinish() {
        var writer = GPXWriter(metadata: GPXMetadata()) { _ in throw DiskFull() }
        #expect(throws: DiskFull.self) { try writer.finish() }
        #expect(throws: GPXError.outputFailedEarlier) { try writer.finish() }
    }
}
