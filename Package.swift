// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "trackd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trackd", targets: ["trackd"]),
        .library(name: "GPSCore", targets: ["GPSCore"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "GPX", targets: ["GPX"]),
        .library(name: "Location", targets: ["Location"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "GPSSources", targets: ["GPSSources"]),
        .library(name: "TrackStore", targets: ["TrackStore"]),
        .library(name: "Chime", targets: ["Chime"]),
        .library(name: "TrackRender", targets: ["TrackRender"]),
        .library(name: "LiveView", targets: ["LiveView"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // The vocabulary every other module speaks: fixes, coordinates, accuracy, time.
        .target(name: "GPSCore"),
        // NMEA 0183 framing, checksums, sentence decoders and epoch assembly. No I/O.
        .target(name: "NMEA", dependencies: ["GPSCore"]),
        // Streaming GPX 1.1 writer, and a reader of GPX tracks.
        .target(name: "GPX", dependencies: ["GPSCore"]),
        // The location manager: accuracy tiers, filters, signal strength and timers on an injected clock.
        .target(
            name: "Location",
            dependencies: ["GPSCore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        // Simulated receivers along named routes: NMEA sentences and the true path. Pure.
        .target(name: "Simulation", dependencies: ["GPSCore"]),
        // C marshalling over libgps (Debian's libgps-dev): one function per thing Swift
        // cannot call or read directly. No logic.
        .target(
            name: "CGPSShim",
            linkerSettings: [.linkedLibrary("gps")]
        ),
        // Where fixes come from: gpsd, a serial receiver, recorded logs and the simulator.
        // Every source yields the same events.
        .target(
            name: "GPSSources",
            dependencies: [
                "GPSCore", "NMEA", "Simulation", "CGPSShim",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // C marshalling over libasound (Debian's libasound2-dev): open a PCM, set its format,
        // write, drain, close. No logic.
        .target(
            name: "CALSAShim",
            linkerSettings: [.linkedLibrary("asound")]
        ),
        // Audible chimes: tones synthesised once (pure), played through ALSA on a thread of
        // their own behind a small queue that drops bursts, never holding up the recording.
        .target(
            name: "Chime",
            dependencies: [
                "CALSAShim",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Pictures of a track: Web Mercator map with the path coloured by speed, profiles,
        // totals, as SVG. Pure: no files, no clock.
        .target(name: "TrackRender", dependencies: ["GPSCore"]),
        // The crash-safe SQLite store of tracks, segments, points and raw fixes, and the
        // recorder that commits a running track in short transactions.
        .target(
            name: "TrackStore",
            dependencies: [
                "GPSCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The live view: one page (served from the binary, no CDN) that draws a track as it
        // grows, fed by Server-Sent Events read from the store; a Hummingbird server.
        .target(
            name: "LiveView",
            dependencies: [
                "GPSCore", "TrackStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/live.js"), .embedInCode("Assets/live.css")]
        ),
        // The command-line tool.
        .executableTarget(
            name: "trackd",
            dependencies: [
                "GPSCore", "NMEA", "GPX", "Location", "Simulation", "GPSSources", "TrackStore", "Chime", "TrackRender", "LiveView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // libFuzzer entry point for the framer, parser and assembler; see README "Fuzzing".
        .executableTarget(name: "NMEAFuzz", dependencies: ["NMEA", "GPSCore"], path: "Fuzz/NMEAFuzz"),

        .testTarget(name: "GPSCoreTests", dependencies: ["GPSCore"]),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "GPSCore"]),
        .testTarget(name: "GPXTests", dependencies: ["GPX", "GPSCore"]),
        .testTarget(
            name: "LocationTests",
            dependencies: [
                "Location", "GPSCore",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "GPSCore", "NMEA"]),
        // What the live-source tests share: a real gpsd on a pty, the pty itself (a receiver
        // that can be unplugged), and NMEA logs cut into epochs.
        .target(
            name: "TrackdTestSupport",
            dependencies: ["GPSSources", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/TrackdTestSupport"
        ),
        .testTarget(
            name: "GPSSourcesTests",
            dependencies: [
                "GPSSources", "GPSCore", "NMEA", "Simulation", "TrackdTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "ChimeTests",
            dependencies: [
                "Chime", "CALSAShim",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "TrackRenderTests", dependencies: ["TrackRender", "GPSCore"]),
        .testTarget(
            name: "LiveViewTests",
            dependencies: [
                "LiveView", "TrackStore", "GPSCore", "TrackdTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "TrackStoreTests",
            dependencies: [
                "TrackStore", "GPSCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "trackdTests", dependencies: ["trackd", "NMEA", "GPSCore", "Simulation", "TrackdTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
