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
///    ``LocationRejection/noTime``;
/// 2. the time line (``FixTimeline``): a repeat of an epoch already taken →
///    ``LocationRejection/notNewer``; a time out of line with the track is held until later
///    fixes decide: an outlier → ``LocationRejection/timeOutlier``, a confirmed step of the
///    receiver's clock → ``LocationEvent/timeStepped(fromSeconds:toSeconds:)`` (a new segment)
///    and the held fixes go on; a date a whole GPS week cycle off is corrected;
/// 3. stale: the fix's delay (now minus fix time) exceeds the smallest delay seen by more than
///    ``LocationConfiguration/staleAfter`` → ``LocationRejection/stale``;
/// 4. fixes sooner than the tier's minimum interval are skipped;
/// 5. the accuracy sets the signal strength and is checked against the refinement state →
///    ``LocationRejection/tooInaccurate``;
/// 6. a position inconsistent with the recent motion is held back (see
///    ``LocationConfiguration``, "Jumps"): dropped as ``LocationRejection/impossibleJump`` when
///    a later fix is consistent with the track again, taken when later fixes confirm it;
/// 7. the fix is accepted: speed, stationary detector, distance, then the most accurate fix of
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
    /// Held positions confirm a move only when at least this many are in line with each other.
    static let jumpConfirmationFixes = 3
    /// Held positions that could be reached at a vehicle's limits are a real move (getting
    /// into a car) once they span this many seconds of fix time.
    static let moveConfirmationSeconds = 5.0
    /// Held positions that no vehicle could reach are taken (the receiver really is there: a
    /// reset, a log spliced from two places) once they span this many seconds.
    static let resetConfirmationSeconds = 30.0
    /// Receivers' speed over ground comes from Doppler and is not moved by multipath; the mean
    /// speed between two fixes may exceed the larger of their speeds by this many m/s, plus
    /// ``dopplerSpeedFraction`` of it, plus a quarter of the acceleration limit times the
    /// time step (up to ``dopplerExcursionSeconds``).
    static let dopplerSpeedSlack = 0.5
    static let dopplerSpeedFraction = 0.1
    static let dopplerExcursionSeconds = 2.0
    /// Two speeds over ground are taken as evidence only when they differ by no more than the
    /// acceleration limit allows, plus this many m/s: a speed derived from positions jumps
    /// with them.
    static let dopplerChangeSlack = 1.0
    /// Without the receiver's speed, the speed limit is the activity's, or this many times the
    /// smoothed speed when that is higher, so that a confirmed fast move goes on.
    static let confirmedSpeedFactor = 1.25

    struct Sample: Sendable {
        var fix: Fix
        var time: FixTime
        var coordinate: Coordinate
        var seconds: Double
        var accuracy: Double
        /// The receiver's speed over ground, m/s, when it sent a usable one.
        var reportedSpeed: Double? {
            fix.speedMetersPerSecond.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
    }

    /// A fix held by the time line, with the clock when it arrived.
    struct Arrival: Sendable {
        var fix: Fix
        var now: Double
    }

    /// Speed and acceleration limits for the plausibility of a step.
    struct MotionLimits {
        var maximumSpeed: Double
        var maximumAcceleration: Double
    }

    // Ordering and staleness.
    private var timeline = FixTimeline<Arrival>()
    private var lastTakenSeconds: Double?
    private var smallestDelay: Double?
    private var lastFixReceivedAt: Double?
    // Refinement.
    private var weakSince: Double?
    private var weakSpellAnnounced = false
    // Acceptance.
    private var lastAccepted: Sample?
    private var heldPositions: [Sample] = []
    /// Fixes accepted since the start, the last time step or the last re-anchoring.
    private var support = 0
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
    /// The fix time of the last delivered location on the current time line.
    private var lastDeliveredSeconds: Double?
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
    ///
    /// `systemTime` is the time of a synchronised system clock (NTP), seconds since 1970, when
    /// there is one and the fix is live; it lets the time line catch a wrong receiver time
    /// even on the first fix.
    public mutating func process(_ fix: Fix, now nowDuration: Duration, systemTime: Double? = nil) -> [LocationEvent] {
        let now = nowDuration.seconds
        var events: [LocationEvent] = []
        statistics.fixesSeen += 1

        guard fix.mode.hasPosition, fix.coordinate?.isValid == true else {
            setSignal(.invalid, now: now, &events)
            reject(fix, .noPosition, &events)
            updateMotionReport(&events)
            return events
        }
        guard let seconds = fix.time?.secondsSinceEpoch else {
            reject(fix, .noTime, &events)
            return events
        }
        let outcome = timeline.take(Arrival(fix: fix, now: now), seconds: seconds, clock: now, systemTime: systemTime)
        if outcome.repeated {
            reject(fix, .notNewer, &events)
            return events
        }
        take(outcome, now: now, &events)
        return events
    }

    /// The input ended (the end of a log): fixes whose time was still held are taken, after a
    /// time step, since nothing came to contradict them; positions still held are dropped.
    public mutating func finish(now nowDuration: Duration) -> [LocationEvent] {
        var events: [LocationEvent] = []
        take(timeline.finish(), now: nowDuration.seconds, &events)
        dropHeldPositions(&events)
        return events
    }

    /// Acts on what the time line decided.
    private mutating func take(_ outcome: FixTimeline<Arrival>.Outcome, now: Double, _ events: inout [LocationEvent]) {
        for dropped in outcome.dropped { reject(dropped.fix, .timeOutlier, &events) }
        if let step = outcome.step { takeTimeStep(step, &events) }
        statistics.timeCorrections += outcome.corrected
        for (arrival, seconds) in outcome.ready {
            var fix = arrival.fix
            if let original = fix.time?.secondsSinceEpoch, original != seconds {
                let corrected = FixTime(secondsSinceEpoch: seconds)
                events.append(.timeCorrected(fix, corrected: corrected))
                fix.time = corrected
            }
            processInLine(fix, seconds: seconds, arrivedAt: arrival.now, now: now, &events)
        }
    }

    /// The steps after the time line, for a fix whose time is in line with the track.
    private mutating func processInLine(
        _ fix: Fix, seconds: Double, arrivedAt: Double, now: Double, _ events: inout [LocationEvent]
    ) {
        guard let time = fix.time, let coordinate = fix.coordinate else { return }
        let delay = arrivedAt - seconds
        if let smallest = smallestDelay, delay - smallest > configuration.staleAfter.seconds {
            reject(fix, .stale, &events)
            return
        }
        smallestDelay = min(smallestDelay ?? delay, delay)
        lastFixReceivedAt = max(lastFixReceivedAt ?? arrivedAt, arrivedAt)

        let interval = configuration.desiredAccuracy.minimumFixIntervalSeconds
        if interval > 0, let taken = lastTakenSeconds, seconds - taken < interval - Self.intervalToleranceSeconds {
            statistics.fixesSkippedByInterval += 1
            return
        }
        lastTakenSeconds = seconds

        guard let accuracy = Self.horizontalAccuracy(of: fix) else {
            reject(fix, .tooInaccurate, &events)
            return
        }
        let strong = configuration.desiredAccuracy.strongAccuracyMeters
        setSignal(accuracy <= strong ? .strong : .weak, now: now, &events)
        announceConsistentlyWeak(now: now, &events)
        let limit = refinementExpired(now: now) ? max(strong, configuration.worstAcceptableAccuracy) : strong
        guard accuracy <= limit else {
            reject(fix, .tooInaccurate, &events)
            return
        }

        let sample = Sample(fix: fix, time: time, coordinate: coordinate, seconds: seconds, accuracy: accuracy)
        guard let previous = lastAccepted else {
            accept(sample, reanchor: false, now: now, &events)
            return
        }
        if isPlausible(from: previous, to: sample, limits: activityLimits, speed: smoothedSpeed) {
            dropHeldPositions(&events)
            accept(sample, reanchor: false, now: now, &events)
            return
        }
        // Held back: in line with the positions held before it, or the start of a new run.
        if let last = heldPositions.last,
            isPlausible(from: last, to: sample, limits: vehicleLimits, speed: heldSpeed(at: last))
        {
            heldPositions.append(sample)
        } else {
            dropHeldPositions(&events)
            heldPositions = [sample]
        }
        guard let confirmation = heldConfirmation(after: previous) else { return }
        let run = heldPositions
        heldPositions = []
        switch confirmation {
        case .move: statistics.confirmedMoves += 1
        case .reanchor: statistics.reanchors += 1
        }
        for (index, held) in run.enumerated() {
            accept(held, reanchor: index == 0 && confirmation == .reanchor, now: now, &events)
        }
    }

    /// The speed of the held positions at `last`, m/s: the receiver's, else the step from the
    /// one before; for the first held position, the vehicle's maximum (anything may follow it).
    private func heldSpeed(at last: Sample) -> Double {
        if let reported = last.reportedSpeed { return reported }
        guard heldPositions.count >= 2 else { return vehicleLimits.maximumSpeed }
        let before = heldPositions[heldPositions.count - 2]
        let dt = last.seconds - before.seconds
        return dt > 0 ? before.coordinate.distance(to: last.coordinate) / dt : vehicleLimits.maximumSpeed
    }

    private enum HeldConfirmation { case move, reanchor }

    /// Whether the held positions are confirmed: enough of them, in line with each other, for
    /// long enough, or outnumbering what supports the track's position.
    private func heldConfirmation(after previous: Sample) -> HeldConfirmation? {
        guard heldPositions.count >= Self.jumpConfirmationFixes, let first = heldPositions.first,
            let last = heldPositions.last
        else { return nil }
        let span = last.seconds - first.seconds
        if heldPositions.count > support || span >= Self.resetConfirmationSeconds { return .reanchor }
        if span >= Self.moveConfirmationSeconds,
            isPlausible(from: previous, to: first, limits: vehicleLimits, speed: smoothedSpeed)
        {
            return .move
        }
        return nil
    }

    private mutating func dropHeldPositions(_ events: inout [LocationEvent]) {
        for held in heldPositions { reject(held.fix, .impossibleJump, &events) }
        heldPositions = []
    }

    /// The receiver's clock stepped (confirmed by the time line): a new segment, and nothing
    /// measured across the step.
    private mutating func takeTimeStep(_ step: FixTimeline<Arrival>.Step, _ events: inout [LocationEvent]) {
        statistics.timeSteps += 1
        dropHeldPositions(&events)
        smallestDelay = nil
        lastTakenSeconds = nil
        lastAccepted = nil
        lastDeliveredSeconds = nil
        support = 0
        speedSamples = []
        window = []
        history = []
        odometerAnchor = nil
        events.append(.timeStepped(fromSeconds: step.fromSeconds, toSeconds: step.toSeconds))
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
        support += 1
        let previous = lastAccepted
        lastAccepted = sample

        if reanchor {
            support = 1
            speedSamples = []
            window = []
            history = []
            if odometerAnchor != nil { odometerAnchor = sample.coordinate }
        }

        // Times: summed step by step, so that a clock step adds nothing.
        if let previous {
            let step = sample.seconds - previous.seconds
            statistics.elapsedTimeSeconds += step
            if !reanchor, !detectorStationary, step <= configuration.effectivePingInterval.seconds {
                statistics.movingTimeSeconds += step
            }
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
        if let best = bestOfHistory(), lastDeliveredSeconds.map({ best.seconds > $0 }) ?? true {
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
        lastDeliveredSeconds = sample.seconds
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

    /// The activity's limits; the maximum speed rises with the smoothed speed of the fixes
    /// taken (a confirmed fast move goes on without being held again).
    private var activityLimits: MotionLimits {
        let activity = configuration.activityType
        return MotionLimits(
            maximumSpeed: max(activity.maximumSpeedMetersPerSecond, Self.confirmedSpeedFactor * smoothedSpeed),
            maximumAcceleration: activity.maximumAccelerationMetersPerSecondSquared)
    }

    /// What any vehicle of the kind could do: the activity's limits, or a car's when higher.
    private var vehicleLimits: MotionLimits {
        let activity = configuration.activityType
        let car = ActivityType.automotiveNavigation
        return MotionLimits(
            maximumSpeed: max(activity.maximumSpeedMetersPerSecond, car.maximumSpeedMetersPerSecond),
            maximumAcceleration: max(
                activity.maximumAccelerationMetersPerSecondSquared, car.maximumAccelerationMetersPerSecondSquared))
    }

    /// Whether going from `a` to `b` is physically possible within `limits`, starting at
    /// `speed` m/s: the step may exceed the reachable distance by the two fixes' combined
    /// accuracy (root sum of squares).
    ///
    /// When both fixes carry the receiver's speed over ground and the two speeds differ by no
    /// more than the acceleration allows, the reachable distance is the time step times the
    /// larger speed (with the slack of ``dopplerSpeedSlack``); a multipath jump moves the
    /// position but not the Doppler speed. Otherwise it is `speed` times the time step plus
    /// half the acceleration times its square, at most the maximum speed times the time step.
    private func isPlausible(from a: Sample, to b: Sample, limits: MotionLimits, speed: Double) -> Bool {
        let dt = b.seconds - a.seconds
        guard dt > 0 else { return false }
        let allowance = (a.accuracy * a.accuracy + b.accuracy * b.accuracy).squareRoot()
        let reachable: Double
        if let va = a.reportedSpeed, let vb = b.reportedSpeed,
            abs(vb - va) <= limits.maximumAcceleration * dt + Self.dopplerChangeSlack
        {
            let mean =
                max(va, vb) * (1 + Self.dopplerSpeedFraction) + Self.dopplerSpeedSlack
                + limits.maximumAcceleration * min(dt, Self.dopplerExcursionSeconds) / 4
            reachable = mean * dt
        } else {
            reachable = min(limits.maximumSpeed * dt, speed * dt + limits.maximumAcceleration * dt * dt / 2)
        }
        return a.coordinate.distance(to: b.coordinate) <= allowance + reachable
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
