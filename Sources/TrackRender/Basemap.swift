/// A raster map tile in the usual `z/x/y` scheme (OpenStreetMap's "slippy map" tiles, as
/// MapKit's `MKTileOverlay` names them): at zoom z the Web Mercator world is 2^z × 2^z
/// tiles, x east from the antimeridian, y south from the north edge.
public struct TileID: Sendable, Hashable, CustomStringConvertible {
    public var zoom: Int
    public var x: Int
    public var y: Int

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// `z/x/y`, the tile's path in a tile folder without the extension.
    public var description: String { "\(zoom)/\(x)/\(y)" }
}

/// The tiles under a picture's map, with their PNG bytes and where each is drawn.
public struct Basemap: Sendable, Hashable {
    /// A tile placed on the picture.
    public struct Tile: Sendable, Hashable {
        public var id: TileID
        public var rect: PixelRect
        public var png: [UInt8]
    }

    public var tiles: [Tile]
}

extension TrackPicture {
    /// The highest tile zoom level (OpenStreetMap's tiles end at 19).
    public static let maximumTileZoom = 19

    /// The zoom whose 256-pixel tiles are drawn at 256 pixels or less (never enlarged, so
    /// never blurred): the tiles the map area needs there, and where each goes.
    public var tilesNeeded: [(id: TileID, rect: PixelRect)] {
        var zoom = 0
        while zoom < Self.maximumTileZoom && 256 * Double(1 << (zoom + 1)) <= frame.pixelsPerUnit * 1.0001 { zoom += 1 }
        if 256 * Double(1 << zoom) < frame.pixelsPerUnit && zoom < Self.maximumTileZoom { zoom += 1 }
        let count = 1 << zoom
        let tileUnits = 1 / Double(count)
        let topLeft = frame.worldPoint(PixelPoint(x: layout.map.x, y: layout.map.y))
        let bottomRight = frame.worldPoint(PixelPoint(x: layout.map.maxX, y: layout.map.maxY))
        let xs = Int((topLeft.x / tileUnits).rounded(.down))...Int((bottomRight.x / tileUnits).rounded(.down))
        let ys = max(0, Int((topLeft.y / tileUnits).rounded(.down)))...min(count - 1, Int((bottomRight.y / tileUnits).rounded(.down)))
        guard !ys.isEmpty else { return [] }
        var result: [(id: TileID, rect: PixelRect)] = []
        for y in ys {
            for x in xs {
                let corner = frame.pixel(MercatorPoint(x: Double(x) * tileUnits, y: Double(y) * tileUnits))
                let size = tileUnits * frame.pixelsPerUnit
                // x is unwrapped for placing; the file is the tile x names within the world.
                let wrapped = ((x % count) + count) % count
                result.append((TileID(zoom: zoom, x: wrapped, y: y), PixelRect(x: corner.x, y: corner.y, width: size, height: size)))
            }
        }
        return result
    }

    /// The basemap from the tiles there are: `png` gives a needed tile's bytes, or nil
    /// when there is no such tile (its place stays blank).
    public func basemap(_ png: (TileID) -> [UInt8]?) -> Basemap {
        Basemap(tiles: tilesNeeded.compactMap { needed in
            png(needed.id).map { Basemap.Tile(id: needed.id, rect: needed.rect, png: $0) }
        })
    }

    func drawBasemap(_ basemap: Basemap, into svg: inout SVGText) {
        svg.group("id=\"basemap\"") { svg in
            for tile in basemap.tiles {
                // A hair larger, so no seam shows between tiles.
                svg.line("<image class=\"tile\" data-tile=\"\(tile.id)\" x=\"\(SVGText.number(tile.rect.x))\" y=\"\(SVGText.number(tile.rect.y))\" width=\"\(SVGText.number(tile.rect.width + 0.5))\" height=\"\(SVGText.number(tile.rect.height + 0.5))\" preserveAspectRatio=\"none\" href=\"data:image/png;base64,\(Base64.encode(tile.png))\"/>")
            }
        }
    }
}

/// RFC 4648 base64, for embedding tiles in the SVG.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let n = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
