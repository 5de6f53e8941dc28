/// Errors of `trackd render` beyond the store's, the GPX reader's and the picture's own.
enum RenderCommandError: Error, CustomStringConvertible {
    /// PNG needs rsvg-convert, which is not on the PATH.
    case rasterizerMissing
    /// rsvg-convert ran and failed.
    case rasterizerFailed(status: String)

    var description: String {
        switch self {
        case .rasterizerMissing:
            "rsvg-convert is not installed, and PNG output needs it; install librsvg2-bin (apt-get install librsvg2-bin), or write SVG with -o FILE.svg"
        case .rasterizerFailed(let status):
            "rsvg-convert could not turn the picture into PNG (\(status)); its message is above, and -o FILE.svg writes the SVG"
        }
    }
}
