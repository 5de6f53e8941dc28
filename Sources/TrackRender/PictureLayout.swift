/// Where the parts of a picture go: a title line, the map, the two profiles side by side
/// under it, and the totals along the bottom.
public struct PictureLayout: Sendable, Hashable {
    /// The smallest picture the layout fits, pixels.
    public static let minimumWidth = 480
    public static let minimumHeight = 400
    /// The default size, pixels.
    public static let defaultWidth = 1200
    public static let defaultHeight = 900
    /// Pixels between the track's bounds and the map's edges, at least: room for the pins
    /// and their labels.
    public static let mapMargin = 40.0

    public var width: Double
    public var height: Double
    public var title: PixelRect
    public var map: PixelRect
    public var elevationProfile: PixelRect
    public var speedProfile: PixelRect
    public var totals: PixelRect

    /// The layout of a `width` × `height` picture.
    public init(width: Int, height: Int) throws(RenderError) {
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            throw .canvasTooSmall(width: width, height: height, minimumWidth: Self.minimumWidth, minimumHeight: Self.minimumHeight)
        }
        let w = Double(width), h = Double(height)
        self.width = w
        self.height = h
        let titleHeight = 36.0
        let totalsHeight = 60.0
        let profilesHeight = (h * 0.24).rounded()
        title = PixelRect(x: 0, y: 0, width: w, height: titleHeight)
        map = PixelRect(x: 0, y: titleHeight, width: w, height: h - titleHeight - profilesHeight - totalsHeight)
        let profilesTop = map.maxY
        elevationProfile = PixelRect(x: 0, y: profilesTop, width: (w / 2).rounded(.down), height: profilesHeight)
        speedProfile = PixelRect(x: elevationProfile.maxX, y: profilesTop, width: w - elevationProfile.maxX, height: profilesHeight)
        totals = PixelRect(x: 0, y: profilesTop + profilesHeight, width: w, height: totalsHeight)
    }
}
