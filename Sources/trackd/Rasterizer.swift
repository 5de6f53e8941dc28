/// SVG to PNG through librsvg's `rsvg-convert` (Debian's librsvg2-bin).
enum Rasterizer {
    static let program = "rsvg-convert"

    /// Renders the SVG file `svg` into the PNG file `png`, `width` × `height` pixels.
    /// rsvg-convert's own messages go to standard error.
    static func convert(svg: String, png: String, width: Int, height: Int) throws(RenderCommandError) {
        guard let executable = ChildProcess.locate(program) else { throw .rasterizerMissing }
        let outcome = ChildProcess.run(executable, [executable, "-w", String(width), "-h", String(height), "-f", "png", "-o", png, svg])
        guard outcome == .succeeded else { throw .rasterizerFailed(status: outcome.phrase) }
    }
}
