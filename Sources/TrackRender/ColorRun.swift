/// A stretch of one segment drawn in one colour: successive intervals whose speeds fall in
/// the same bin. Neighbouring runs share their end points, so the segment stays one line.
public struct ColorRun: Sendable, Hashable {
    /// The speed bin (see ``SpeedScale``); nil where the speed is unknown.
    public var bin: Int?
    public var points: [PixelPoint]

    /// The runs of one segment: `pixels[i]` drawn with `speeds[i]`, the speed of the interval
    /// ending at point i (a lone point takes its own). Points closer than `minimumStep`
    /// pixels to the last one kept are left out, except a run's ends.
    static func runs(
        pixels: [PixelPoint], speeds: [Double?], scale: SpeedScale, minimumStep: Double = 0.5
    ) -> [ColorRun] {
        guard let first = pixels.first else { return [] }
        guard pixels.count > 1 else { return [ColorRun(bin: speeds.first?.flatMap { $0 }.map(scale.bin), points: [first, first])] }
        var runs: [ColorRun] = []
        var current = ColorRun(bin: speeds[1].map(scale.bin), points: [first])
        for index in 1..<pixels.count {
            let bin = speeds[index].map(scale.bin)
            if bin != current.bin {
                runs.append(current)
                current = ColorRun(bin: bin, points: [pixels[index - 1]])
            }
            let isRunEnd = index == pixels.count - 1 || speeds[index + 1].map(scale.bin) != bin
            if let last = current.points.last, !isRunEnd, abs(pixels[index].x - last.x) < minimumStep,
                abs(pixels[index].y - last.y) < minimumStep
            {
                continue
            }
            current.points.append(pixels[index])
        }
        runs.append(current)
        return runs
    }
}
