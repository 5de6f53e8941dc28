import GPSCore
/// The totals under a picture of a track.
public struct TrackTotals: Sendable, Hashable {
    /// The track's length, metres, as the odometer of ``TrackMeasurement`` counts it.
    public var distanceMeters: Double
    /// Seconds spent moving (see ``TrackMeasurement``); nil when the points have no times.
    public var movingSeconds: Double?
    /// Elevation gain and loss, metres (see ``ElevationGain``); nil without altitudes.
    public var elevationGainMeters: Double?
    public var elevationLossMeters: Double?
    /// The highest speed, metres per second; nil when no speed is known.
    public var maxSpeedMetersPerSecond: Double?
    public var points: Int
    public var segments: Int
}

/// Distances, speeds and totals of a track, computed once for the map, the profiles and the
/// totals.
///
/// **Distance** is counted like the location manager's odometer, so that a receiver's
/// noise does not add up into distance: summing every step between 1 Hz fixes with 3 m of
/// noise makes the sample hike 9 % longer than its true path. A point counts once it is
/// ``minimumStepMeters`` (5 m), or 1.25 times its 95 % radius when that is larger
/// (``stepAccuracyFactor``), from the last counted point; the great-circle distance between
/// counted points is added. The last point of a segment always counts. Between segments
/// (a fix loss), the straight line from one segment's end to the next one's start is added:
/// the walk went on while the receiver had no fix. On the sample hike this gives 2318 m for
/// a true 2299 m (the location manager: 2315 m; every step summed: 2510 m).
///
/// **Moving time** is the time of the counted steps (and of the lines across fix losses)
/// whose average speed is at least ``movingSpeedThreshold``: a pause adds no step, or a
/// short one over a long time.
public struct TrackMeasurement: Sendable, Hashable {
    /// Speed below which a step counts as standing still, metres per second: 0.5 m/s
    /// (1.8 km/h) is slower than anyone walks.
    public static let movingSpeedThreshold = 0.5
    /// The shortest step the odometer counts, metres (the location manager's
    /// `minimumDistanceStepMeters`).
    public static let minimumStepMeters = 5.0
    /// A step counts once it is this many times the point's 95 % radius, when that is more
    /// than ``minimumStepMeters`` (the location manager's `distanceStepAccuracyFactor`).
    public static let stepAccuracyFactor = 1.25

    /// The track's segments, without empty ones.
    public let segments: [[TrackPoint]]
    /// Per point: the odometer at that point, metres from the start; points between two
    /// counted ones share the earlier one's distance, so it never decreases.
    public let distances: [[Double]]
    /// Per point: its speed, metres per second: the recorded speed, else the average speed
    /// of the counted step it belongs to; nil when neither is known.
    public let speeds: [[Double?]]
    /// The altitude samples along the track (points without an altitude left out).
    public let elevationSamples: [ElevationGain.Sample]
    public let totals: TrackTotals

    /// Measures `segments`, with `elevation` for gain and loss.
    public init(segments input: [[TrackPoint]], elevation: ElevationGain = ElevationGain()) {
        segments = input.filter { !$0.isEmpty }
        var distances: [[Double]] = []
        var speeds: [[Double?]] = []
        var odometer = 0.0
        var moving: Double?
        var maxRecorded: Double?
        var maxStep: Double?
        var samples: [ElevationGain.Sample] = []
        var previousEnd: TrackPoint?

        /// Adds a counted step from `a` to `b`; its average speed when both have times.
        func count(from a: TrackPoint, to b: TrackPoint, length: Double) -> Double? {
            odometer += length
            guard let t0 = a.secondsSinceEpoch, let t1 = b.secondsSinceEpoch else { return nil }
            let duration = t1 - t0
            guard duration > 0 else {
                moving = moving ?? 0
                return nil
            }
            let speed = length / duration
            moving = (moving ?? 0) + (speed >= Self.movingSpeedThreshold ? duration : 0)
            return speed
        }

        for segment in segments {
            if let previousEnd, let first = segment.first {
                _ = count(from: previousEnd, to: first, length: previousEnd.coordinate.distance(to: first.coordinate))
            }
            var segmentDistances: [Double] = []
            var segmentSpeeds: [Double?] = []
            var anchor = segment[0]
            var pending: [Int] = []  // points since the last counted one, waiting for its step's speed
            for (index, point) in segment.enumerated() {
                if let recorded = point.speedMetersPerSecond {
                    maxRecorded = max(maxRecorded ?? recorded, recorded)
                }
                segmentSpeeds.append(point.speedMetersPerSecond)
                if index > 0 {
                    let step = anchor.coordinate.distance(to: point.coordinate)
                    let threshold = max(Self.minimumStepMeters, Self.stepAccuracyFactor * (point.horizontalAccuracyMeters ?? 0))
                    pending.append(index)
                    if step >= threshold || index == segment.count - 1 {
                        let speed = count(from: anchor, to: point, length: step)
                        if let speed { maxStep = max(maxStep ?? speed, speed) }
                        for waiting in pending where segmentSpeeds[waiting] == nil { segmentSpeeds[waiting] = speed }
                        pending = []
                        anchor = point
                    }
                }
                segmentDistances.append(odometer)
                if let altitude = point.altitudeMeters {
                    samples.append(ElevationGain.Sample(distanceMeters: odometer, altitudeMeters: altitude))
                }
            }
            previousEnd = segment.last
            distances.append(segmentDistances)
            speeds.append(segmentSpeeds)
        }
        self.distances = distances
        self.speeds = speeds
        elevationSamples = samples
        let climb = elevation.measure(samples)
        totals = TrackTotals(
            distanceMeters: odometer, movingSeconds: moving,
            elevationGainMeters: climb?.gain, elevationLossMeters: climb?.loss,
            // A recorded speed is the receiver's (or the location manager's smoothed one);
            // step averages count only for a track that recorded none.
            maxSpeedMetersPerSecond: maxRecorded ?? maxStep,
            points: segments.reduce(0) { $0 + $1.count }, segments: segments.count)
    }
}
