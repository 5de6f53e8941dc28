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

    /// Whether the epoch being assembled already has both speed and course.
    var hasCourseAndSpeed: Bool { current.speed != nil && current.course != nil }

    /// Adds a decoded sentence; calls `emit` for each fix it completes (at most two).
    public mutating func add(_ s: DecodedSentence, emit: (Fix) -> Void) {
        switch s.sentence {
        case .gga(let g): add(g, s.header, emit: emit)
        case .rmc(let r): add(r, s.header, emit: emit)
        case .gns(let g): add(g, s.header, emit: emit)
        case .gll(let g): add(g, s.header, emit: emit)
        case .gst(let g): add(g, s.header, emit: emit)
        case .zda(let z): add(z, s.header, emit: emit)
        case .gsa(let g): add(g, s.header, emit: emit)
        case .gsv(let g): add(g, s.header, emit: emit)
        case .vtg(let v): add(v, s.header, emit: emit)
        case .txt, .skipped: return
        }
    }

    /// Adds one decoded sentence of a known type, without boxing it in ``NMEASentence``.
    @inline(__always)
    mutating func add<S: EpochSentence>(_ s: S, _ header: SentenceHeader, emit: (Fix) -> Void) {
        switch s.epochRole {
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
            if current.time == nil && current.positionKinds & S.positionKind != 0 {
                flush(closedByNewTime: true, emit)
            }
        case .stamped(let time?):
            if current.time == nil, let last = lastEmitted, last.time == time {
                reopen()
            } else if current.time != nil && current.time != time {
                // Out of step with the epoch (ac12's ZDA): take its date, nothing else.
                if let anchor = s.dateAnchor { dateAnchor = anchor }
                return
            }
        case .stamped(nil), .timeless:
            break
        case .ignored:
            return
        }
        // After any flush above, so that the epoch just closed keeps the date it had.
        if let anchor = s.dateAnchor { dateAnchor = anchor }

        current.lastAddress = header.address
        s.apply(to: &current, header)
        if current.time == nil && lastEmitted != nil && sinceEmitted.count < EpochAssembler.maximumReplay {
            sinceEmitted.append(DecodedSentence(header: header, sentence: s.boxed))
        }
        if current.time != nil, header.address == cycleEndingAddress, !s.continues {
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

}

/// What one epoch has gathered so far.
struct Epoch {
    var time: TimeOfDay?
    var lastAddress: UInt64?
    /// Which position sentence types (GGA, GNS, RMC, GLL: one bit each) the epoch has seen.
    var positionKinds: UInt8 = 0
    var hasPositionSentence: Bool { positionKinds != 0 }

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
        lastAddress = s.header.address
        switch s.sentence {
        case .gga(let g): g.apply(to: &self, s.header)
        case .rmc(let r): r.apply(to: &self, s.header)
        case .gns(let g): g.apply(to: &self, s.header)
        case .gll(let g): g.apply(to: &self, s.header)
        case .gst(let g): g.apply(to: &self, s.header)
        case .zda(let z): z.apply(to: &self, s.header)
        case .gsa(let g): g.apply(to: &self, s.header)
        case .gsv(let g): g.apply(to: &self, s.header)
        case .vtg(let v): v.apply(to: &self, s.header)
        case .txt, .skipped: break
        }
    }

    /// Takes a GGA's or GNS's solution details, keeping what an earlier sentence gave.
    mutating func takeSolution(
        _ altitudeMSL: Double?, _ separation: Double?, _ satellitesUsed: Int?, _ age: Double?, _ station: Int?
    ) {
        altitude = altitude ?? altitudeMSL
        geoidSeparation = geoidSeparation ?? separation
        satellitesUsedCount = satellitesUsedCount ?? satellitesUsed
        dgpsAge = dgpsAge ?? age
        dgpsStation = dgpsStation ?? station
    }

    mutating func offer(rank: Int, _ lat: Double, _ lon: Double, _ q: FixQuality) {
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

/// What a sentence does to the epoch it arrives in.
enum EpochRole {
    /// A position sentence: its time starts a new epoch when it differs.
    case position(TimeOfDay?)
    /// A sentence with a time that belongs to an epoch but does not start one (GST, ZDA).
    case stamped(TimeOfDay?)
    /// A sentence without a time (GSA, GSV, VTG): it joins the current epoch.
    case timeless
    /// Nothing for a fix (TXT).
    case ignored
}

/// A decoded sentence type the epoch assembler merges.
protocol EpochSentence {
    var epochRole: EpochRole { get }
    /// One bit per position sentence type (GGA, GNS, RMC, GLL), 0 for the others.
    static var positionKind: UInt8 { get }
    /// The date and the time it applies to, for sentences that carry a date.
    var dateAnchor: (date: CalendarDate, time: TimeOfDay)? { get }
    /// Merges the sentence's fields into the epoch.
    func apply(to epoch: inout Epoch, _ header: SentenceHeader)
    /// The sentence in the public enum, for the rare replay after a reopened epoch.
    var boxed: NMEASentence { get }
    /// Whether more sentences of the same set follow (a GSV before the last of its set), so
    /// that a cycle ending with the set is not emitted after its first sentence.
    var continues: Bool { get }
}

extension EpochSentence {
    static var positionKind: UInt8 { 0 }
    var dateAnchor: (date: CalendarDate, time: TimeOfDay)? { nil }
    var continues: Bool { false }
}

extension GGA: EpochSentence {
    var epochRole: EpochRole { .position(time) }
    static var positionKind: UInt8 { 1 }
    var boxed: NMEASentence { .gga(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        e.positionKinds |= Self.positionKind
        let q = quality ?? .gps
        if q.isValid, let lat = latitude, let lon = longitude {
            e.offer(rank: 4, lat, lon, q)
        }
        if quality?.isValid ?? true {
            e.takeSolution(altitudeMSLMeters, geoidSeparationMeters, satellitesUsed, dgpsAgeSeconds, dgpsStationID)
        }
        e.hdop = e.hdop ?? hdop
    }
}

extension GNS: EpochSentence {
    var epochRole: EpochRole { .position(time) }
    static var positionKind: UInt8 { 2 }
    var boxed: NMEASentence { .gns(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        e.positionKinds |= Self.positionKind
        let q = quality ?? .gps
        if q.isValid, let lat = latitude, let lon = longitude {
            e.offer(rank: 3, lat, lon, q)
        }
        if q.isValid {
            e.takeSolution(altitudeMSLMeters, geoidSeparationMeters, satellitesUsed, dgpsAgeSeconds, dgpsStationID)
        }
        e.hdop = e.hdop ?? hdop
    }
}

extension RMC: EpochSentence {
    var epochRole: EpochRole { .position(time) }
    static var positionKind: UInt8 { 4 }
    var boxed: NMEASentence { .rmc(self) }
    var dateAnchor: (date: CalendarDate, time: TimeOfDay)? {
        guard let date, let time else { return nil }
        return (date, time)
    }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        e.positionKinds |= Self.positionKind
        let q = mode ?? .gps
        if isValid == true, q.isValid, let lat = latitude, let lon = longitude {
            e.offer(rank: 2, lat, lon, q)
        }
        if isValid == true {
            e.speed = e.speed ?? speedMetersPerSecond
            e.course = e.course ?? courseDegrees
        }
        e.magneticVariation = e.magneticVariation ?? magneticVariationDegrees
    }
}

extension GLL: EpochSentence {
    var epochRole: EpochRole { .position(time) }
    static var positionKind: UInt8 { 8 }
    var boxed: NMEASentence { .gll(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        e.positionKinds |= Self.positionKind
        let q = mode ?? .gps
        if isValid == true, q.isValid, let lat = latitude, let lon = longitude {
            e.offer(rank: 1, lat, lon, q)
        }
    }
}

extension VTG: EpochSentence {
    var epochRole: EpochRole { .timeless }
    var boxed: NMEASentence { .vtg(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        if mode?.isValid ?? true {
            e.speed = e.speed ?? speedMetersPerSecond
            e.course = e.course ?? courseDegrees
        }
    }
}

extension GSA: EpochSentence {
    var epochRole: EpochRole { .timeless }
    var boxed: NMEASentence { .gsa(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        if let m = fixMode, m.rawValue > (e.gsaMode?.rawValue ?? 0) { e.gsaMode = m }
        e.pdop = e.pdop ?? pdop
        e.hdop = e.hdop ?? hdop
        e.vdop = e.vdop ?? vdop
        e.gsaUsedCount += satelliteCount
        guard !satellites.isEmpty else { return }
        let system = systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? header.talker.constellation
        for prn in satellites where e.used.count < EpochAssembler.maximumSatellitesPerEpoch {
            e.used.append(Epoch.UsedSatellite(constellation: system ?? Constellation(nmeaSatelliteNumber: prn), prn: prn))
        }
    }
}

extension GSV: EpochSentence {
    var epochRole: EpochRole { .timeless }
    var boxed: NMEASentence { .gsv(self) }
    var continues: Bool {
        guard let number = sentenceNumber, let count = sentenceCount else { return false }
        return number < count
    }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        for sat in satellites where e.satellites.count < EpochAssembler.maximumSatellitesPerEpoch {
            e.satellites.append(sat)
        }
    }
}

extension GST: EpochSentence {
    var epochRole: EpochRole { .stamped(time) }
    var boxed: NMEASentence { .gst(self) }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {
        e.gst = self
    }
}

extension ZDA: EpochSentence {
    var epochRole: EpochRole { .stamped(time) }
    var boxed: NMEASentence { .zda(self) }
    var dateAnchor: (date: CalendarDate, time: TimeOfDay)? {
        guard let date, let time else { return nil }
        return (date, time)
    }

    func apply(to e: inout Epoch, _ header: SentenceHeader) {}
}

extension TXT: EpochSentence {
    var epochRole: EpochRole { .ignored }
    var boxed: NMEASentence { .txt(self) }
    func apply(to e: inout Epoch, _ header: SentenceHeader) {}
}
