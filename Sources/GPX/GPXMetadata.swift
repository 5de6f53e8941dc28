import GPSCore

/// What a GPX document says about itself: its `<metadata>` element.
///
/// Every field is optional; the writer writes only the ones present, in the order the GPX
/// 1.1 schema demands (name, desc, time, bounds), and leaves `<metadata>` out when none is.
public struct GPXMetadata: Sendable, Hashable {
    /// The document's name (`<name>`), such as the track's title. Escaped on output.
    public var name: String?
    /// A description of the contents (`<desc>`). Escaped on output.
    public var description: String?
    /// When the document was made, or when the track started (`<time>`), UTC. Written only
    /// when it has a date; see ``GPXWriter`` for how times are written.
    public var time: FixTime?
    /// The extent of the document's points (`<bounds>`). A streaming writer cannot know it
    /// before the points, so the caller computes it (from the store, or with
    /// ``GPXBounds/init(enclosing:)``) when it wants one.
    public var bounds: GPXBounds?
    /// Leave room in `<metadata>` for the `<bounds>` of the points still to come, when
    /// `bounds` is nil: for output that can be rewritten in place (a file), the caller fills
    /// it in after ``GPXWriter/finish()`` with ``GPXWriter/boundsSlot`` and
    /// ``GPXWriter/boundsElement(_:)``. Left alone, the room is blank space, which XML ignores.
    public var reservesBounds: Bool

    /// Creates metadata; every field defaults to absent.
    public init(
        name: String? = nil, description: String? = nil, time: FixTime? = nil, bounds: GPXBounds? = nil,
        reservesBounds: Bool = false
    ) {
        self.name = name
        self.description = description
        self.time = time
        self.bounds = bounds
        self.reservesBounds = reservesBounds
    }
}

/// A latitude/longitude box: GPX's `<bounds minlat minlon maxlat maxlon>`, WGS-84 decimal
/// degrees.
///
/// The box is a plain minimum and maximum per axis. A track that crosses the antimeridian
/// (±180°) gets a box spanning nearly every longitude: GPX readers do not agree on a
/// wrapped box (`minlon > maxlon`), so none is made.
public struct GPXBounds: Sendable, Hashable {
    /// Southern edge, degrees, -90...90.
    public var minLatitude: Double
    /// Western edge, degrees, -180...180.
    public var minLongitude: Double
    /// Northern edge, degrees, -90...90.
    public var maxLatitude: Double
    /// Eastern edge, degrees, -180...180.
    public var maxLongitude: Double

    /// Creates a box from its edges, in degrees.
    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    /// The box holding the single point `coordinate`.
    public init(enclosing coordinate: Coordinate) {
        self.init(
            minLatitude: coordinate.latitude, minLongitude: coordinate.longitude,
            maxLatitude: coordinate.latitude, maxLongitude: coordinate.longitude
        )
    }

    /// The smallest box holding every valid coordinate of `coordinates`, or `nil` when there
    /// is none (coordinates failing ``Coordinate/isValid`` are ignored).
    public init?<Coordinates: Sequence>(enclosing coordinates: Coordinates)
    where Coordinates.Element == Coordinate {
        var bounds: GPXBounds?
        for coordinate in coordinates where coordinate.isValid {
            if bounds == nil {
                bounds = GPXBounds(enclosing: coordinate)
            } else {
                bounds?.extend(toInclude: coordinate)
            }
        }
        guard let bounds else { return nil }
        self = bounds
    }

    /// Grows the box, if needed, so that it holds `coordinate`.
    ///
    /// A coordinate failing ``Coordinate/isValid`` (NaN, or out of range) leaves the box
    /// unchanged.
    public mutating func extend(toInclude coordinate: Coordinate) {
        guard coordinate.isValid else { return }
        minLatitude = Swift.min(minLatitude, coordinate.latitude)
        maxLatitude = Swift.max(maxLatitude, coordinate.latitude)
        minLongitude = Swift.min(minLongitude, coordinate.longitude)
        maxLongitude = Swift.max(maxLongitude, coordinate.longitude)
    }

    /// This box grown, if needed, to hold `coordinate`.
    public func extended(toInclude coordinate: Coordinate) -> GPXBounds {
        var copy = self
        copy.extend(toInclude: coordinate)
        return copy
    }

    /// Whether every edge is finite and in range, and each minimum is at most its maximum:
    /// the writer writes `<bounds>` only then.
    public var isValid: Bool {
        Coordinate(latitude: minLatitude, longitude: minLongitude).isValid
            && Coordinate(latitude: maxLatitude, longitude: maxLongitude).isValid
            && minLatitude <= maxLatitude && minLongitude <= maxLongitude
    }
}
