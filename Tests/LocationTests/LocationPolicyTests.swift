import GPSCore
import Location
import Testing

@Suite("Location policy")
struct LocationPolicyTests {
    @Test(
        "each tier's strong threshold separates strong from weak, and a weak fix is rejected while refining",
        arguments: DesiredAccuracy.allCases)
    func tierThresholds(tier: DesiredAccuracy) {
        let strong = tier.strongAccuracyMeters
        var feeder = Feeder(LocationConfiguration(desiredAccuracy: tier))
        let atThreshold = feeder.feed(fix(at: 0, accuracy: strong))
        #expect(atThreshold.signals == [.strong])
        #expect(atThreshold.locations.count == 1)

        let beyond = feeder.feed(fix(at: 60, accuracy: strong * 1.01))
        #expect(beyond.signals == [.weak])
        #expect(beyond.rejections == [.tooInaccurate])
    }

    @Test("the tier table holds the documented thresholds, filters and intervals")
    func tierTable() {
        let table = DesiredAccuracy.allCases.map {
            [$0.strongAccuracyMeters, $0.worstAcceptableAccuracyMeters, $0.defaultDistanceFilterMeters ?? -1,
             $0.minimumFixIntervalSeconds]
        }
        #expect(
            table == [
                [10, 50, -1, 0], [20, 70, -1, 1], [25, 100, 10, 2], [150, 300, 50, 5], [1_500, 3_000, 500, 10],
                [4_500, 9_000, 1_500, 20],
            ])
        #expect(LocationConfiguration().worstAcceptableAccuracy == 70)
        #expect(LocationConfiguration().distanceFilter == nil)
        #expect(LocationConfiguration(desiredAccuracy: .nearestTenMeters).distanceFilter == 10)
    }

    @Test("the CLI spellings are the raw values")
    func cliSpellings() {
        #expect(DesiredAccuracy.allCases.map(\.rawValue) == [
            "best-for-navigation", "best", "nearest-ten-meters", "hundred-meters", "kilometer", "three-kilometers",
        ])
        #expect(ActivityType.allCases.map(\.rawValue) == [
            "other", "automotive-navigation", "fitness", "other-navigation", "airborne",
        ])
    }

    @Test("a coarse tier processes fixes no more often than its minimum interval")
    func coarseTierSkipsFixes() {
        var feeder = Feeder(LocationConfiguration(desiredAccuracy: .hundredMeters))
        for second in 0..<20 { feeder.feed(fix(at: Double(second), north: Double(second) * 2, accuracy: 10)) }
        #expect(feeder.policy.statistics.fixesAccepted == 4)
        #expect(feeder.policy.statistics.fixesSkippedByInterval == 16)
    }

    @Test("the distance filter delivers a location only after it moved the filter distance")
    func distanceFilter() {
        var configuration = LocationConfiguration()
        configuration.distanceFilter = 10
        var feeder = Feeder(configuration)
        for second in 0...12 {
            feeder.feed(fix(at: Double(second), north: Double(second) * 3, speed: 3))
        }
        let delivered = feeder.events.locations.map { north(of: $0.coordinate).rounded() }
        #expect(delivered == [0, 12, 24, 36])
        #expect(feeder.policy.statistics.filteredByDistance == 9)
        #expect(feeder.events.rejections.isEmpty)
    }

    @Test("weak fixes are rejected until the refinement timeout, accepted after it, and strict again once strong")
    func refinementTimeout() {
        var feeder = Feeder()
        for second in 0..<15 {
            let events = feeder.feed(fix(at: Double(second), accuracy: 40))
            #expect(events.rejections == [.tooInaccurate], "at \(second) s")
        }
        let afterTimeout = feeder.feed(fix(at: 15, accuracy: 40))
        #expect(afterTimeout.rejections.isEmpty)
        #expect(afterTimeout.locations.map(\.horizontalAccuracyMeters) == [40])
        #expect(afterTimeout.contains(.signalConsistentlyWeak))

        #expect(feeder.feed(fix(at: 16, accuracy: 5)).signals == [.strong])
        let weakAgain = feeder.feed(fix(at: 17, accuracy: 40))
        #expect(weakAgain.signals == [.weak])
        #expect(weakAgain.rejections == [.tooInaccurate])
    }

    @Test("a fix worse than the worst acceptable accuracy is rejected even after the refinement timeout")
    func worstAcceptable() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0, accuracy: 40))
        #expect(feeder.feed(fix(at: 20, accuracy: 71)).rejections == [.tooInaccurate])
        #expect(feeder.feed(fix(at: 21, accuracy: 69)).rejections.isEmpty)
    }

    @Test("consistently weak fires once per weak spell, from fixes or from the timer")
    func consistentlyWeakOncePerSpell() {
        var feeder = Feeder()
        for second in 0..<40 { feeder.feed(fix(at: Double(second), accuracy: 40)) }
        feeder.tick(at: 41)
        #expect(feeder.events.count(.signalConsistentlyWeak) == 1)

        feeder.feed(fix(at: 42, accuracy: 5))
        feeder.feed(fix(at: 43, accuracy: 40))
        feeder.tick(at: 57)
        #expect(feeder.events.count(.signalConsistentlyWeak) == 1)
        feeder.tick(at: 58)
        #expect(feeder.events.count(.signalConsistentlyWeak) == 2)
        feeder.tick(at: 59)
        #expect(feeder.events.count(.signalConsistentlyWeak) == 2)
        #expect(feeder.policy.statistics.consistentlyWeakSpells == 2)
    }

    @Test("the first fix is delivered at once")
    func firstFixDelivered() {
        var feeder = Feeder()
        #expect(feeder.feed(fix(at: 0, accuracy: 8)).locations.count == 1)
    }

    @Test("the most accurate fix of the recent history advances the track, a 40 m fix when it is the best")
    func bestOfHistory() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0, accuracy: 40))
        // After the refinement timeout: 40 m is accepted and is the best of the history.
        for (second, accuracy) in [(15.0, 40.0), (16, 60), (17, 65), (18, 50), (19, 70)] {
            feeder.feed(fix(at: second, accuracy: accuracy))
        }
        let delivered = feeder.events.locations.map(\.horizontalAccuracyMeters)
        #expect(delivered == [40, 50])
    }

    @Test("a better fix holds the track until it leaves the 3 s history")
    func betterFixHolds() {
        var feeder = Feeder()
        for (second, accuracy) in [(0.0, 5.0), (1, 9), (2, 9), (3, 9), (4, 9)] {
            feeder.feed(fix(at: second, accuracy: accuracy))
        }
        #expect(feeder.events.locations.map(\.time) == [fixTime(0), fixTime(4)])
    }

    @Test("speed rises at once to a faster sample and falls gently over the averaged samples")
    func speedSmoothing() {
        var feeder = Feeder()
        let speeds = [1.0, 1, 1, 5, 1, 1, 1]
        var position = 0.0
        for (second, speed) in speeds.enumerated() {
            position += speed
            feeder.feed(fix(at: Double(second), north: position, speed: speed))
        }
        let reported = feeder.events.locations.map { ($0.speedMetersPerSecond * 100).rounded() / 100 }
        #expect(reported == [1, 1, 1, 5, 2.33, 2.33, 1])
        #expect(feeder.policy.statistics.maxSpeedMetersPerSecond == 5)
    }

    @Test("the ping reports stationary 10 s after the last delivery, and the next delivery reports moving again")
    func pingReportsStationary() {
        var configuration = LocationConfiguration()
        configuration.distanceFilter = 10
        var feeder = Feeder(configuration)
        var stationaryAt: Int?
        var movingAgainAt: Int?
        for second in 0...25 {
            let now = Double(second)
            feeder.feed(fix(at: now, north: now * 0.5, speed: 0.5))
            let events = feeder.tick(at: now)
            if events.contains(.stationary) { stationaryAt = second }
            if feeder.events.contains(.movingAgain), movingAgainAt == nil { movingAgainAt = second }
        }
        #expect(stationaryAt == 10)
        #expect(movingAgainAt == 20)
        #expect(feeder.events.count(.stationary) == 1)
    }

    @Test("a fix arriving more than 60 s late is stale: rejected and counted")
    func staleFixRejected() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0), receivedAt: 0)
        feeder.feed(fix(at: 1), receivedAt: 1)
        #expect(feeder.feed(fix(at: 2), receivedAt: 62.5).rejections == [.stale])
        #expect(feeder.feed(fix(at: 3), receivedAt: 63.5).rejections == [.stale])
        #expect(feeder.feed(fix(at: 60), receivedAt: 64).rejections.isEmpty)
        #expect(feeder.policy.statistics.rejected(.stale) == 2)
    }

    @Test("without a fix for 60 s on the clock the signal becomes invalid")
    func signalLostAfterStaleAfter() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0))
        #expect(feeder.tick(at: 59).signals.isEmpty)
        #expect(feeder.tick(at: 60).signals == [.invalid])
    }

    @Test("a no-fix epoch is rejected for no position and makes the signal invalid")
    func noFixInvalidatesSignal() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0))
        let events = feeder.feed(Fix(time: fixTime(1), mode: .noFix))
        #expect(events.signals == [.invalid])
        #expect(events.rejections == [.noPosition])
    }

    @Test("fixes without a date or not after the last are rejected")
    func timeChecks() {
        var feeder = Feeder()
        feeder.feed(fix(at: 10))
        #expect(feeder.feed(fix(at: 10)).rejections == [.notNewer])
        #expect(feeder.feed(fix(at: 9)).rejections == [.notNewer])
        var undated = fix(at: 11)
        undated.time = FixTime(date: nil, timeOfDay: TimeOfDay(hour: 8, minute: 0, second: 11))
        #expect(feeder.feed(undated, receivedAt: 11).rejections == [.noTime])
        #expect(feeder.policy.statistics.rejected(.notNewer) == 2)
    }

    @Test("a jump beyond the activity's speed is held, dropped and counted when the next fix comes back, and the track goes on")
    func impossibleJumpRejected() {
        var feeder = Feeder()
        for second in 0..<10 { feeder.feed(fix(at: Double(second), north: Double(second) * 1.4, speed: 1.4)) }
        let jump = feeder.feed(fix(at: 10, north: 500, speed: 1.4))
        #expect(jump.locations.isEmpty)
        #expect(jump.rejections.isEmpty)
        #expect(feeder.feed(fix(at: 11, north: 11 * 1.4, speed: 1.4)).rejections == [.impossibleJump])
        for second in 12..<20 {
            #expect(feeder.feed(fix(at: Double(second), north: Double(second) * 1.4, speed: 1.4)).rejections.isEmpty)
        }
        #expect(feeder.policy.statistics.rejected(.impossibleJump) == 1)
        #expect(feeder.events.locations.allSatisfy { north(of: $0.coordinate) < 30 })
    }

    @Test("a car at 30 m/s: automotive takes every fix at once; fitness too when the receiver sends its speed")
    func carWithReceiverSpeed() {
        for activity in [ActivityType.automotiveNavigation, .fitness] {
            var feeder = Feeder(LocationConfiguration(activityType: activity))
            for second in 0..<10 { feeder.feed(fix(at: Double(second), north: Double(second) * 30, speed: 30)) }
            #expect(feeder.events.locations.count == 10, "\(activity)")
            #expect(feeder.policy.statistics.rejected(.impossibleJump) == 0)
        }
    }

    @Test("a car at 30 m/s without the receiver's speed: fitness holds the first fixes, then takes them all")
    func carWithoutReceiverSpeed() {
        var feeder = Feeder(LocationConfiguration(activityType: .fitness))
        for second in 0..<10 { feeder.feed(fix(at: Double(second), north: Double(second) * 30)) }
        #expect(feeder.events.locations.count == 10)
        #expect(feeder.policy.statistics.rejected(.impossibleJump) == 0)
        #expect(feeder.policy.lastLocation.map { north(of: $0.coordinate).rounded() } == 270)
    }

    @Test("after three consistent jumps from a lone first fix the track re-anchors at the new position, keeping them")
    func reanchorAfterConsistentJumps() {
        var feeder = Feeder()
        feeder.feed(fix(at: 0, north: 2_000))
        for second in 1..<8 { feeder.feed(fix(at: Double(second), north: Double(second))) }
        #expect(feeder.policy.statistics.rejected(.impossibleJump) == 0)
        #expect(feeder.policy.statistics.reanchors == 1)
        #expect(feeder.events.locations.count == 8)
        #expect(feeder.policy.statistics.distanceMeters < 10)
        #expect(feeder.policy.lastLocation.map { north(of: $0.coordinate) < 10 } == true)
    }

    // Receiver position error is correlated over a minute or more; a first-order Gauss–Markov
    // process with a 60 s correlation time and 3 m per axis (a 7.3 m 95 % radius) models it.
    @Test("two hours standing still at 1 Hz with 3 m correlated noise add less than 20 m")
    func standingStillAddsNoPhantomDistance() {
        var feeder = Feeder()
        var noise = CorrelatedNoise(seed: 42, sigma: 3, correlationSeconds: 60)
        var speedNoise = SeededGenerator(seed: 7)
        let accuracy = 3 * PositionAccuracy.horizontal95PerAxisSigma
        for second in 0..<7_200 {
            let error = noise.next()
            feeder.feed(
                fix(at: Double(second), north: error.north, east: error.east, accuracy: accuracy,
                    speed: abs(0.1 * speedNoise.gaussian())))
        }
        let statistics = feeder.policy.statistics
        #expect(statistics.distanceMeters < 20)
        #expect(statistics.movingTimeSeconds < 60)
        #expect(feeder.policy.isStationary)
        #expect(statistics.rejectedTotal == 0)
    }

    @Test("two hours standing still without the receiver's speed add less than 20 m")
    func standingStillWithoutReceiverSpeed() {
        var feeder = Feeder()
        var noise = CorrelatedNoise(seed: 8, sigma: 3, correlationSeconds: 60)
        let accuracy = 3 * PositionAccuracy.horizontal95PerAxisSigma
        for second in 0..<7_200 {
            let error = noise.next()
            feeder.feed(fix(at: Double(second), north: error.north, east: error.east, accuracy: accuracy))
        }
        #expect(feeder.policy.statistics.distanceMeters < 20)
    }

    @Test("a straight 1 km walk at 1.4 m/s with 3 m correlated noise measures within 2 % of 1 km")
    func straightWalkDistance() {
        var feeder = Feeder()
        var noise = CorrelatedNoise(seed: 1_234, sigma: 3, correlationSeconds: 60)
        var speedNoise = SeededGenerator(seed: 99)
        let accuracy = 3 * PositionAccuracy.horizontal95PerAxisSigma
        let walkSeconds = Int((1_000 / 1.4).rounded(.up))
        for second in 0..<(walkSeconds + 60) {
            let walking = second <= walkSeconds
            let along = min(Double(second) * 1.4, 1_000)
            let error = noise.next()
            feeder.feed(
                fix(at: Double(second), north: along + error.north, east: error.east, accuracy: accuracy,
                    speed: walking ? 1.4 + 0.1 * speedNoise.gaussian() : abs(0.1 * speedNoise.gaussian())))
        }
        let distance = feeder.policy.statistics.distanceMeters
        #expect(abs(distance - 1_000) < 20, "measured \(distance) m")
        #expect(feeder.policy.isStationary)
        let moving = feeder.policy.statistics.movingTimeSeconds
        #expect(abs(moving - Double(walkSeconds)) < 30, "moving \(moving) s")
    }
}
