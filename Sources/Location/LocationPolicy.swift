import GPSCore

/// All decisions of the location manager, as a value: no clock, no I/O.
///
/// Hand it every fix with ``process(_:now:)`` and call ``tick(now:)`` for the timers (the
/// ping and the refinement timeout); both return the events to publish. `now` is the time on
/// the manager's clock since it started, used for timers and staleness; the fix times drive
/// everything measured along the track (history ages, speed, moving time).
///
/// The pipeline for one fix:
/// 1. no position → ``LocationRejection/noPosition`` and an invalid signal; no date and time →
///    ``LocationRejection/noTime``; not after the last fix → ``LocationRejection/notNewer``;
/// 2. stale: the fix's delay (now minus fix time) exceeds the smallest delay seen by more than
///    ``LocationConfiguration/staleAfter`` → ``LocationRejection/stale``;
/// 3. fixes sooner than the tier's minimum interval are skipped;
/// 4. the accuracy sets the signal strength and is checked against the refinement state →
///    ``LocationRejection/tooInaccurate``;
/// 5. a step beyond the activity's speed and acceleration → ``LocationRejection/impossibleJump``;
/// 6. the fix is accepted: speed, stationary detector, distance, then the most accurate fix of
///    the recent history is delivered if it is new and passes the distance filter.
public struct LocationPolicy: Sendable {
    public let configuration: LocationConfiguration
    public private(set) var statistics = LocationStatistics()
    public private(set) var signalStrength: SignalStrength = .invalid
    /// The last delivered location.
    public private(set) var lastLocation: Location?
    /// Whether the consumer has been told ``LocationEvent/stationary`` (and not yet
    /// ``LocationEvent/movingAgain``).
    public private(set) var isStationary = false
    /// The smoothed speed, m/s (0 while stationary).
    public var speedMetersPerSecond: Double { detectorStationary || pingStationary ? 0 : smoothedSpeed }

    /// A displacement from the stop position larger than this many times the fix's 95 % radius
    /// (and a speed above the moving threshold) ends a stop: far beyond the noise of one fix.
    static let movingAgainAccuracyFactor = 2.0
    /// While moving, distance is added once the position is this many times its 95 % radius
    /// away from the last counted position, so that noise does not add up into phantom distance.
    static let distanceStepAccuracyFactor = 1.25
    /// The smallest distance step, metres.
    static let minimumDistanceStepMeters = 5.0
    /// A stop needs the displacement over the detector window below the fix's 95 % radius, or
    /// below this many metres, whichever is larger.
    static let minimumStationaryRadiusMeters = 3.0
    /// Accuracies within this many metres count as equal in the history; the newest wins.
    static let historyTieMeters = 1.0
    /// Slack, seconds, on the tier's minimum interval, for receivers whose fix times jitter.
    static let intervalToleranceSeconds = 0.05
    /// After this many consecutive, mutually consistent impossible jumps, the next consistent
    /// fix re-anchors the track: the earlier position was the outlier.
    static let reanchorAfterJumps = 3

    struct Sample: Sendable {
        var fix: Fix
        var time: FixTime
        var coordinate: Coordinate
        var seconds: Double
        var accuracy: Double
    }

    // Ordering and staleness.
    private var lastFixSeconds: Double?
    private var lastTakenSeconds: Double?
    private var smallestDelay: Double?
    private var lastFixReceivedAt: Double?
    // Refinement.
    private var weakSince: Double?
    private var weakSpellAnnounced = false
    // Acceptance.
    private var lastAccepted: Sample?
    private var firstAcceptedSeconds: Double?
    private var jumpRun: [Sample] = []
    private var acceptedCount = 0
    // Speed.
    private var speedSamples: [Double] = []
    private var smoothedSpeed = 0.0
    // Stationary detector.
    private var window: [Sample] = []
    private var detectorStationary = false
    private var stopMean: (latitude: Double, longitude: Double, count: Double) = (0, 0, 0)
    // Ping.
    private var lastDeliveredAt: Double?
    private var pingStationary = false
    // Distance.
    private var odometerAnchor: Coordinate?
    // History.
    private var history: [Sample] = []

    public init(configuration: LocationConfiguration = LocationConfiguration()) {
        self.configuration = configuration
    }

    // MARK: - Fixes

    /// Takes one fix received at `now` (time on the manager's clock) and returns what to publish.
    public mutating func process(_ fix: Fix, now nowDuration: Duration) -> [LocationEvent] {
        let now = nowDuration.seconds
        var events: [LocationEvent] = []
        statistics.fixesSeen += 1

        guard fix.mode.hasPosition, let coordinate = fix.coordinate, coordinate.isValid else {
            setSignal(.invalid, now: now, &events)
            reject(fix, .noPosition, &events)
            updateMotionReport(&events)
            return events
        }
        guard let time = fix.time, let seconds = time.secondsSinceEpoch else {
            reject(fix, .noTime, &events)
            return events
        }
        if let last = lastFixSeconds, seconds <= last {
            reject(fix, .notNewer, &events)
            return events
        }
        lastFixSeconds = seconds

        let delay = now - seconds
        if let smallest = smallestDelay, delay - smallest > configuration.staleAfter.seconds {
            reject(fix, .stale, &events)
            return events
        }
        smallestDelay = min(smallestDelay ?? delay, delay)
        lastFixReceivedAt = now

        let interval = configuration.desiredAccuracy.minimumFixIntervalSeconds
        if interval > 0, let taken = lastTakenSeconds, seconds - taken < interval - Self.intervalToleranceSeconds {
            statistics.fixesSkippedByInterval += 1
            return events
        }
        lastTakenSeconds = seconds

        guard let accuracy = Self.horizontalAccuracy(of: fix) else {
            reject(fix, .tooInaccurate, &events)
            return events
        }
        let strong = configuration.desiredAccuracy.strongAccuracyMeters
        setSignal(accuracy <= strong ? .strong : .weak, now: now, &events)
        announceConsistentlyWeak(now: now, &events)
        let limit = refinementExpired(now: now) ? max(strong, configuration.worstAcceptableAccuracy) : strong
        guard accuracy <= limit else {
            reject(fix, .tooInaccurate, &events)
            return events
        }

        let sample = Sample(fix: fix, time: time, coordinate: coordinate, seconds: seconds, accuracy: accuracy)
        var reanchor = false
        if let previous = lastAccepted, !isPlausible(from: previous, to: sample, speed: smoothedSpeed) {
            if let last = jumpRun.last, isPlausible(from: last, to: sample, speed: activityMaximumSpeed) {
                jumpRun.append(sample)
            } else {
                jumpRun = [sample]
            }
            guard jumpRun.count > Self.reanchorAfterJumps else {
                reject(fix, .impossibleJump, &events)
                return events
            }
            reanchor = true
        }
        jumpRun = []
        accept(sample, reanchor: reanchor, now: now, &events)
        return events
    }

    // MARK: - Timers

    /// Runs the timers at `now` (time on the manager's clock): signal loss after
    /// ``LocationConfiguration/staleAfter`` without a fix, the refinement timeout and the ping.
    public mutating func tick(now nowDuration: Duration) -> [LocationEvent] {
        let now = nowDuration.seconds
        var events: [LocationEvent] = []
        if signalStrength != .invalid, let received = lastFixReceivedAt,
            now - received >= configuration.staleAfter.seconds
        {
            setSignal(.invalid, now: now, &events)
        }
        announceConsistentlyWeak(now: now, &events)
        if signalStrength != .invalid, !pingStationary, let delivered = lastDeliveredAt,
            now - delivered >= configuration.effectivePingInterval.seconds
        {
            pingStationary = true
        }
        updateMotionReport(&events)
        return events
    }

    /// The source went away (a receiver unplugged, gpsd stopped): the signal is invalid until
    /// the next fix with a position, so the consumer ends the track segment here.
    public mutating func sourceLost(now nowDuration: Duration) -> [LocationEvent] {
        var events: [LocationEvent] = []
        setSignal(.invalid, now: nowDuration.seconds, &events)
        return events
    }

    // MARK: - Steps

    private mutating func accept(_ sample: Sample, reanchor: Bool, now: Double, _ events: inout [LocationEvent]) {
        statistics.fixesAccepted += 1
        acceptedCount += 1
        let previous = lastAccepted
        lastAccepted = sample

        if reanchor {
            statistics.reanchors += 1
            speedSamples = []
            window = []
            history = []
            if odometerAnchor != nil { odometerAnchor = sample.coordinate }
        }

        // Times.
        let first = firstAcceptedSeconds ?? sample.seconds
        firstAcceptedSeconds = first
        statistics.elapsedTimeSeconds = sample.seconds - first
        if let previous, !reanchor, !detectorStationary {
            let step = sample.seconds - previous.seconds
            if step <= configuration.effectivePingInterval.seconds { statistics.movingTimeSeconds += step }
        }

        // Speed: the receiver's speed over ground, else the step; faster samples count at once.
        var raw = sample.fix.speedMetersPerSecond.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        if raw == nil, let previous, !reanchor {
            raw = previous.coordinate.distance(to: sample.coordinate) / (sample.seconds - previous.seconds)
        }
        if let raw {
            speedSamples.append(raw)
            if speedSamples.count > max(1, configuration.speedSamples) { speedSamples.removeFirst() }
            let mean = speedSamples.reduce(0, +) / Double(speedSamples.count)
            smoothedSpeed = max(raw, mean)
        }

        // Stationary detector and distance.
        let wasStationary = detectorStationary
        updateDetector(with: sample)
        if acceptedCount >= configuration.distanceWarmupFixes {
            if let anchor = odometerAnchor {
                let step = anchor.distance(to: sample.coordinate)
                let threshold = max(
                    Self.minimumDistanceStepMeters, Self.distanceStepAccuracyFactor * sample.accuracy)
                // Count a full step while moving, and what is left when a stop begins or ends.
                let count: Bool =
                    if detectorStationary { !wasStationary } else { wasStationary || step >= threshold }
                if count {
                    odometerAnchor = sample.coordinate
                    if step > 0 {
                        statistics.distanceMeters += step
                        events.append(.distanceUpdated(totalMeters: statistics.distanceMeters))
                    }
                }
            } else {
                odometerAnchor = sample.coordinate
            }
        }
        if !detectorStationary {
            statistics.maxSpeedMetersPerSecond = max(statistics.maxSpeedMetersPerSecond, smoothedSpeed)
        }

        // Best of the recent history.
        history.append(sample)
        let maxAge = configuration.historyMaxAge.seconds
        history.removeAll { sample.seconds - $0.seconds > maxAge }
        if history.count > max(1, configuration.historySize) {
            history.removeFirst(history.count - max(1, configuration.historySize))
        }
        if let best = bestOfHistory(), lastLocation.map({ best.seconds > $0.time.secondsSinceEpoch ?? 0 }) ?? true {
            if let last = lastLocation, let filter = configuration.distanceFilter,
                last.coordinate.distance(to: best.coordinate) < filter
            {
                statistics.filteredByDistance += 1
            } else {
                deliver(best, now: now, &events)
            }
        }
        updateMotionReport(&events)
    }

    /// The most accurate fix of the history; accuracies within ``historyTieMeters`` count as
    /// equal and the newest of them wins.
    private func bestOfHistory() -> Sample? {
        guard let smallest = history.map(\.accuracy).min() else { return nil }
        return history.last { $0.accuracy <= smallest + Self.historyTieMeters }
    }

    private mutating func deliver(_ sample: Sample, now: Double, _ events: inout [LocationEvent]) {
        let stationary = detectorStationary
        let location = Location(
            fix: sample.fix, coordinate: sample.coordinate, time: sample.time,
            horizontalAccuracyMeters: sample.accuracy,
            speedMetersPerSecond: stationary ? 0 : smoothedSpeed,
            courseDegrees: stationary ? nil : sample.fix.courseDegrees
        )
        lastLocation = location
        lastDeliveredAt = now
        pingStationary = false
        statistics.locationsDelivered += 1
        events.append(.locationUpdated(location))
    }

    /// Hysteresis on the smoothed speed, and the displacement against the fix's accuracy: a stop
    /// needs a slow speed and a window displacement within the noise; moving again needs a fast
    /// speed and a position well outside the noise around the mean stop position.
    private mutating func updateDetector(with sample: Sample) {
        let span = configuration.effectivePingInterval.seconds
        window.append(sample)
        window.removeAll { sample.seconds - $0.seconds > span }
        let activity = configuration.activityType
        if detectorStationary {
            stopMean.count += 1
            stopMean.latitude += (sample.coordinate.latitude - stopMean.latitude) / stopMean.count
            stopMean.longitude += (sample.coordinate.longitude - stopMean.longitude) / stopMean.count
            let fromStop = Coordinate(latitude: stopMean.latitude, longitude: stopMean.longitude)
                .distance(to: sample.coordinate)
            if smoothedSpeed >= activity.movingSpeedMetersPerSecond,
                fromStop > Self.movingAgainAccuracyFactor * sample.accuracy
            {
                detectorStationary = false
            }
        } else if let oldest = window.first, sample.seconds - oldest.seconds >= span / 2 {
            let displacement = oldest.coordinate.distance(to: sample.coordinate)
            if smoothedSpeed < activity.stationarySpeedMetersPerSecond,
                displacement < max(Self.minimumStationaryRadiusMeters, sample.accuracy)
            {
                detectorStationary = true
                stopMean = (sample.coordinate.latitude, sample.coordinate.longitude, 1)
            }
        }
    }

    private mutating func updateMotionReport(_ events: inout [LocationEvent]) {
        let stationary = detectorStationary || pingStationary
        guard stationary != isStationary else { return }
        isStationary = stationary
        events.append(stationary ? .stationary : .movingAgain)
    }

    // MARK: - Signal and refinement

    private mutating func setSignal(_ strength: SignalStrength, now: Double, _ events: inout [LocationEvent]) {
        guard strength != signalStrength else { return }
        signalStrength = strength
        statistics.signalChanges += 1
        events.append(.signalStrengthChanged(strength))
        switch strength {
        case .strong:
            weakSince = nil
            weakSpellAnnounced = false
        case .weak:
            // A spell ends only when the signal is strong: a no-fix interlude continues it.
            if weakSince == nil { weakSince = now }
        case .invalid:
            break
        }
    }

    /// Whether the current weak spell has lasted the refinement timeout.
    private func refinementExpired(now: Double) -> Bool {
        guard let weakSince else { return false }
        return now - weakSince >= configuration.refinementTimeout.seconds
    }

    private mutating func announceConsistentlyWeak(now: Double, _ events: inout [LocationEvent]) {
        guard signalStrength == .weak, !weakSpellAnnounced, refinementExpired(now: now) else { return }
        weakSpellAnnounced = true
        statistics.consistentlyWeakSpells += 1
        events.append(.signalConsistentlyWeak)
    }

    // MARK: - Checks

    private var activityMaximumSpeed: Double { configuration.activityType.maximumSpeedMetersPerSecond }

    /// Whether going from `a` to `b` is physically possible, starting at `speed` m/s: the step
    /// may exceed the distance reachable under the activity's speed and acceleration limits by
    /// the two fixes' combined accuracy.
    private func isPlausible(from a: Sample, to b: Sample, speed: Double) -> Bool {
        let dt = b.seconds - a.seconds
        guard dt > 0 else { return false }
        let activity = configuration.activityType
        let reachableSpeed = min(
            activity.maximumSpeedMetersPerSecond,
            speed + activity.maximumAccelerationMetersPerSecondSquared * dt)
        let allowance = (a.accuracy * a.accuracy + b.accuracy * b.accuracy).squareRoot()
        return a.coordinate.distance(to: b.coordinate) <= allowance + reachableSpeed * dt
    }

    /// The fix's 95 % horizontal radius: its accuracy estimate, else HDOP times the user-range
    /// error for its quality; `nil` when neither is known.
    static func horizontalAccuracy(of fix: Fix) -> Double? {
        let meters =
            fix.accuracy?.horizontalMeters
            ?? fix.hdop.map {
                PositionAccuracy.fromDOP(
                    hdop: $0, vdop: nil, uereMeters: PositionAccuracy.userRangeErrorMeters(for: fix.quality)
                ).horizontalMeters
            }
        guard let meters, meters.isFinite, meters >= 0 else { return nil }
        return meters
    }

    private mutating func reject(_ fix: Fix, _ reason: LocationRejection, _ events: inout [LocationEvent]) {
        statistics.rejections[reason, default: 0] += 1
        events.append(.rejected(fix, reason))
    }
}
