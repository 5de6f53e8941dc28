/// Why a track cannot be drawn.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The track (named as the user knows it: `track 3`, `walk.gpx`) has no point with a position.
    case noPoints(track: String)
    /// The picture is smaller than the layout needs.
    case canvasTooSmall(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int)

    public var description: String {
        switch self {
        case .noPoints(let track):
            "\(track) has no points; nothing to draw"
        case .canvasTooSmall(let width, let height, let minimumWidth, let minimumHeight):
            "a picture of \(width)×\(height) pixels is too small for the map, profiles and totals; give at least \(minimumWidth)×\(minimumHeight)"
        }
    }
}
