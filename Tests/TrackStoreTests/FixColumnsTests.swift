import GPSCore
import GRDB
import Testing
@testable import TrackStore

@Suite("Fix columns")
struct FixColumnsTests {
    static let full = Fix(
        time: FixTime(date: CalendarDate(year: 2016, month: 12, day: 31), timeOfDay: TimeOfDay(hour: 23, minute: 59, second: 60, microsecond: 500_000)),
        mode: .threeD, quality: .rtkFloat, coordinate: Coordinate(latitude: -33.856_789_123, longitude: 151.215_432_1),
        altitudeMSLMeters: 12.5, geoidSeparationMeters: 22.1, speedMetersPerSecond: 3.25, courseDegrees: 359.9,
        magneticVariationDegrees: -12.3, hdop: 0.8, vdop: 1.1, pdop: 1.4, satellitesUsed: 14,
        satellitesInView: [
            SatelliteInView(constellation: .gps, prn: 5, elevationDegrees: 40, azimuthDegrees: 120, snr: 38, signalID: 1, used: true),
            SatelliteInView(constellation: .glonass, prn: 70, elevationDegrees: nil, azimuthDegrees: nil, snr: nil, signalID: nil, used: false),
        ],
        accuracy: PositionAccuracy(horizontalMeters: 0.61, verticalMeters: 0.9, source: .dop(uereMeters: 0.3)),
        dgpsAgeSeconds: 1.5, dgpsStationID: 1023)

    /// `fix` written to a real store as a received fix and read back.
    static func roundTrip(_ fix: Fix) throws -> Fix {
        let dir = try StoreDirectory()
        let (store, _) = try TrackStore.openForRecording(at: dir.storePath)
        let id = try store.beginTrack(name: nil, settings: settings, createdAtMicroseconds: 0, version: "test")
        var session = RecordingSession(trackID: id)
        session.append(.received(fix))
        try store.commit(session.pending, track: id)
        var read: [Fix] = []
        try store.forEachRawFix(ofTrack: id) { _, fix in read.append(fix) }
        return try #require(read.first)
    }

    @Test("every field of a fix survives the columns, a leap second and the satellites included", arguments: [
        full,
        Fix(),
        Fix(time: FixTime(date: nil, timeOfDay: TimeOfDay(hour: 1, minute: 2, second: 3))),
        Fix(time: FixTime(date: CalendarDate(year: 1969, month: 12, day: 31), timeOfDay: TimeOfDay(hour: 23, minute: 0, second: 0)),
            mode: .twoD, quality: .gps, coordinate: Coordinate(latitude: 0, longitude: -180),
            accuracy: PositionAccuracy(horizontalMeters: 7, verticalMeters: nil, source: .gpsd)),
    ])
    func roundTrips(_ fix: Fix) throws {
        #expect(try Self.roundTrip(fix) == fix)
    }

    @Test("the sky text keeps unknown values empty and skips what it cannot read")
    func skyText() {
        let text = FixColumns.sky(Self.full.satellitesInView)
        #expect(text == "0:5:40:120:38:1:1 2:70:::::0")
        #expect(FixColumns.satellites(text + " junk 9:9") == Self.full.satellitesInView)
    }
}

