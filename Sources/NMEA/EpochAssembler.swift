import GPSCore

/// Merges the sentences of one epoch into one ``Fix``.
///
/// **Epochs.** A receiver reports each fix as a burst of sentences (u-blox: RMC VTG GGA GSA
/// GSV… GST). A position sentence (GGA, RMC, GLL, GNS) carrying a time other than the
/// current epoch's starts a new epoch; sentences without a time (GSA, GSV, VTG) belong to
/// the epoch they arrive in. GST and ZDA carry a time but do not start an epoch: some
/// receivers send ZDA seconds ahead of the rest of the cycle (ac12: 2 s).
///
/// **Emitting early.** Like gpsd, the assembler learns which sentence ends the receiver's
/// cycle: the last sentence before a new time, once it has been the same in two epochs in a
/// row. From then on a fix is emitted as soon as that sentence arrives, not a cycle later.
/// Receivers whose last sentence changes (humminbird-M37 rotates one position sentence per
/// second) never confirm one, and each fix is emitted when the next epoch starts. If a
/// sentence with the emitted time still arrives, the guess was wrong: it is forgotten, the
/// epoch is reopened, and a revised fix with the same time and the late data is emitted.
///
/// **Disagreeing times.** A receiver that stamps one sentence of a cycle differently
/// (garmin48's GLL is 1 s ahead of its RMC and GGA) yields an epoch for each time, each with
/// the position its own sentence reports, as gpsd reports them.
///
/// **Dates.** RMC and ZDA give a date for their own time. Other epochs take the date that
/// puts them nearest in time to the last dated sentence, which carries the date across
/// midnight in either direction. Before any date is known, a fix has a time of day and no
/// date: trackd never invents one.
///
/// **Position.** The best valid position of the epoch wins: GGA, then GNS, then RMC, then
/// GLL. A position is valid when its sentence says so (GGA quality above 0, RMC/GLL status
/// `A`, a mode other than `N`). Fix mode is the GSA's 2D/3D when a GSA came, otherwise 3D
/// when GGA/GNS gave an altitude, otherwise 2D.
public struct EpochAssembler {
    private var current = Epoch()
    /// The last epoch emitted by its cycle-ending sentence, to reopen if late data arrives.
    private var lastEmitted: Epoch?
    /// Timeless sentences applied since `lastEmitted`, to replay if it is reopened.
    private var sinceEmitted: [DecodedSentence] = []
    private var enderCandidate: UInt64?
    private var enderConfirmations = 0
    private var dateAnchor: (date: CalendarDate, time: TimeOfDay)?

    /// Epochs needed in a row with the same last sentence before it is trusted as the cycle end.
    static let confirmationsNeeded = 2
    /// Satellites kept per epoch; a bound on memory whatever a receiver sends.
    static let maximumSatellitesPerEpoch = 128
    /// Timeless sentences remembered after an early emission, for a reopen.
    static let maximumReplay = 64

    public init() {}

    /// The sentence address (see ``DecodedSentence/address``) learned as the end of the
    /// receiver's cycle, once confirmed.
    public var cycleEndingAddress: UInt64? {
        enderConfirmations >= EpochAssembler.confirmationsNeeded ? enderCandidate : nil
    }

    /// Adds a decoded sentence; calls `emit` for each fix it completes (at most two).
    public mutating func add(_ s: DecodedSentence, emit: (Fix) -> Void) {
        let kind: Kind
        switch s.sentence {
        case .gga(let g): kind = .position(g.time)
        case .rmc(let r): kind = .position(r.time)
        case .gns(let g): kind = .position(g.time)
        case .gll(let g): kind = .position(g.time)
        case .gst(let g): kind = .stamped(g.time)
        case .zda(let z): kind = .stamped(z.time)
        case .gsa, .gsv, .vtg: kind = .timeless
        case .txt, .skipped: return
        }

        switch kind {
        case .position(let time?):
            if current.time == nil {
                if let last = lastEmitted, last.time == time, !current.hasPosition {
                    reopen()
                } else if current.hasPosition {
                    flush(closedByNewTime: true, emit)
                    current.time = time
                } else {
                    current.time = time
                }
            } else if current.time != time {
                flush(closedByNewTime: true, emit)
                current.time = time
            }
        case .position(nil):
            // A position sentence without a time: a new epoch only when the same kind repeats.
            if current.time == nil && current.positionAddresses.contains(s.address) {
                flush(closedByNewTime: true, emit)
            }
        case .stamped(let time?):
            if current.time == nil, let last = lastEmitted, last.time == time {
                reopen()
            } else if current.time != nil && current.time != time {
                // Out of step with the epoch (ac12's ZDA): take its date, nothing else.
                takeDate(from: s)
                return
            }
        case .stamped(nil), .timeless:
            break
        }
        // After any flush above, so that the epoch just closed keeps the date it had.
        takeDate(from: s)

        current.apply(s)
        if current.time == nil && lastEmitted != nil && sinceEmitted.count < EpochAssembler.maximumReplay {
            sinceEmitted.append(s)
        }
        if current.time != nil, s.address == cycleEndingAddress {
            lastEmitted = current
            sinceEmitted.removeAll(keepingCapacity: true)
            emitCurrent(emit)
        }
    }

    /// Ends the stream: emits the epoch still open, if it holds anything.
    public mutating func finish(emit: (Fix) -> Void) {
        flush(closedByNewTime: false, emit)
        lastEmitted = nil
        sinceEmitted.removeAll()
    }

    private mutating func takeDate(from s: DecodedSentence) {
        switch s.sentence {
        case .rmc(let r):
            if let date = r.date, let time = r.time { dateAnchor = (date, time) }
        case .zda(let z):
            if let date = z.date, let time = z.time { dateAnchor = (date, time) }
        default:
            break
        }
    }

    private mutating func reopen() {
        // The cycle end was guessed wrong: forget it and continue the emitted epoch.
        enderCandidate = nil
        enderConfirmations = 0
        guard var epoch = lastEmitted else { return }
        for s in sinceEmitted { epoch.apply(s) }
        current = epoch
        lastEmitted = nil
        sinceEmitted.removeAll(keepingCapacity: true)
    }

    private mutating func flush(closedByNewTime: Bool, _ emit: (Fix) -> Void) {
        guard current.time != nil || current.hasPositionSentence else {
            // Only timeless leftovers (GSV after the cycle end): they join the next epoch.
            return
        }
        if closedByNewTime, let last = current.lastAddress {
            if last == enderCandidate {
                enderConfirmations += 1
            } else {
                enderCandidate = last
                enderConfirmations = 1
            }
        }
        lastEmitted = nil
        sinceEmitted.removeAll(keepingCapacity: true)
        emitCurrent(emit)
    }

    private mutating func emitCurrent(_ emit: (Fix) -> Void) {
        var fix = current.fix()
        if let time = current.time {
            fix.time = FixTime(date: date(for: time), timeOfDay: time)
        }
        current = Epoch()
        emit(fix)
    }

    /// The date nearest in time to the last dated sentence, or nil when none came yet.
    private func date(for time: TimeOfDay) -> CalendarDate? {
        guard let anchor = dateAnchor else { return nil }
        let delta = time.microseconds - anchor.time.microseconds
        let halfDay = TimeOfDay.microsecondsPerDay / 2
        if delta > halfDay { return anchor.date.previous }
        if delta < -halfDay { return anchor.date.next }
        return anchor.date
    }

    private enum Kind {
        case position(TimeOfDay?)
        case stamped(TimeOfDay?)
        case timeless
    }
}

/// What one epoch has gathered so far.
struct Epoch {
    var time: TimeOfDay?
    var lastAddress: UInt64?
    var positionAddresses: [UInt64] = []
    var hasPositionSentence: Bool { !positionAddresses.isEmpty }

    // The best valid position so far and its source's rank (GGA 4, GNS 3, RMC 2, GLL 1).
    var positionRank = 0
    var latitude = 0.0
    var longitude = 0.0
    var quality: FixQuality = .invalid
    var hasPosition: Bool { positionRank > 0 }

    var altitude: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var course: Double?
    var magneticVariation: Double?
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?
    var satellitesUsedCount: Int?
    var dgpsAge: Double?
    var dgpsStation: Int?
    var gsaMode: FixMode?
    var gsaUsedCount = 0
    var used: [UsedSatellite] = []
    var satellites: [SatelliteInView] = []
    var gst: GST?

    struct UsedSatellite: Equatable {
        var constellation: Constellation
        var prn: Int
    }

    mutating func apply(_ s: DecodedSentence) {
        lastAddress = s.address
        switch s.sentence {
        case .gga(let g):
            positionAddresses.append(s.address)
            let q = g.quality ?? .gps
            if q.isValid, let lat = g.latitude, let lon = g.longitude {
                offer(rank: 4, lat, lon, q)
            }
            if g.quality?.isValid ?? true {
                altitude = altitude ?? g.altitudeMSLMeters
                geoidSeparation = geoidSeparation ?? g.geoidSeparationMeters
                satellitesUsedCount = satellitesUsedCount ?? g.satellitesUsed
                dgpsAge = dgpsAge ?? g.dgpsAgeSeconds
                dgpsStation = dgpsStation ?? g.dgpsStationID
            }
            hdop = hdop ?? g.hdop
        case .gns(let g):
            positionAddresses.append(s.address)
            let q = g.quality ?? .gps
            if q.isValid, let lat = g.latitude, let lon = g.longitude {
                offer(rank: 3, lat, lon, q)
            }
            if q.isValid {
                altitude = altitude ?? g.altitudeMSLMeters
                geoidSeparation = geoidSeparation ?? g.geoidSeparationMeters
                satellitesUsedCount = satellitesUsedCount ?? g.satellitesUsed
                dgpsAge = dgpsAge ?? g.dgpsAgeSeconds
                dgpsStation = dgpsStation ?? g.dgpsStationID
            }
            hdop = hdop ?? g.hdop
        case .rmc(let r):
            positionAddresses.append(s.address)
            let q = r.mode ?? .gps
            if r.isValid == true, q.isValid, let lat = r.latitude, let lon = r.longitude {
                offer(rank: 2, lat, lon, q)
            }
            if r.isValid == true {
                speed = speed ?? r.speedMetersPerSecond
                course = course ?? r.courseDegrees
            }
            magneticVariation = magneticVariation ?? r.magneticVariationDegrees
        case .gll(let g):
            positionAddresses.append(s.address)
            let q = g.mode ?? .gps
            if g.isValid == true, q.isValid, let lat = g.latitude, let lon = g.longitude {
                offer(rank: 1, lat, lon, q)
            }
        case .vtg(let v):
            if v.mode?.isValid ?? true {
                speed = speed ?? v.speedMetersPerSecond
                course = course ?? v.courseDegrees
            }
        case .gsa(let g):
            if let m = g.fixMode, m.rawValue > (gsaMode?.rawValue ?? 0) { gsaMode = m }
            pdop = pdop ?? g.pdop
            hdop = hdop ?? g.hdop
            vdop = vdop ?? g.vdop
            gsaUsedCount += g.satellites.count
            let system = g.systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? s.talker.constellation
            for prn in g.satellites where used.count < EpochAssembler.maximumSatellitesPerEpoch {
                used.append(UsedSatellite(constellation: system ?? Constellation(nmeaSatelliteNumber: prn), prn: prn))
            }
        case .gsv(let g):
            for sat in g.satellites where satellites.count < EpochAssembler.maximumSatellitesPerEpoch {
                satellites.append(sat)
            }
        case .gst(let g):
            gst = g
        case .zda, .txt, .skipped:
            break
        }
    }

    private mutating func offer(rank: Int, _ lat: Double, _ lon: Double, _ q: FixQuality) {
        guard rank > positionRank else { return }
        positionRank = rank
        latitude = lat
        longitude = lon
        quality = q
    }

    func fix() -> Fix {
        var fix = Fix()
        fix.magneticVariationDegrees = magneticVariation
        fix.hdop = hdop
        fix.vdop = vdop
        fix.pdop = pdop
        fix.satellitesUsed = satellitesUsedCount ?? (gsaMode != nil ? gsaUsedCount : nil)
        if !satellites.isEmpty {
            var sats = satellites
            if !used.isEmpty {
                for i in sats.indices {
                    let c = sats[i].constellation
                    let prn = sats[i].prn
                    sats[i].used = used.contains { $0.prn == prn && ($0.constellation == c || c == .unknown) }
                }
            }
            fix.satellitesInView = sats
        }
        guard hasPosition else { return fix }
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        fix.quality = quality
        fix.altitudeMSLMeters = altitude
        fix.geoidSeparationMeters = geoidSeparation
        fix.speedMetersPerSecond = speed
        fix.courseDegrees = course
        fix.dgpsAgeSeconds = dgpsAge
        fix.dgpsStationID = dgpsStation
        if let m = gsaMode, m != .noFix {
            fix.mode = m
        } else {
            fix.mode = altitude != nil ? .threeD : .twoD
        }
        if let g = gst, let sLat = g.latitudeSigmaMeters, let sLon = g.longitudeSigmaMeters {
            fix.accuracy = .fromGST(latitudeSigma: sLat, longitudeSigma: sLon, altitudeSigma: g.altitudeSigmaMeters)
        } else if let h = hdop {
            fix.accuracy = .fromDOP(hdop: h, vdop: vdop, uereMeters: PositionAccuracy.userRangeErrorMeters(for: quality))
        }
        return fix
    }
}
