// swift-tools-version: 6.1
//
// IngestService: the backend that the MobileTracker seed's SDK talks to, with geo-enrich inside
// it, on Hummingbird 2. A package of its own that depends on geo-enrich by path, as a service
// of a user's would (README, "Use it in a service").
import PackageDescription

let package = Package(
    name: "IngestService",
    platforms: [.macOS(.v15)],
    dependencies: [
        // geo-enrich itself, two folders up (its identity is that folder's name, hence `name:`)
        .package(name: "geo-enrich", path: "../.."),
        // no traits: the configuration-file reader and full Foundation are not needed here
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // the routes, the output file and the wiring: a library, so that the tests start the
        // very application the executable runs
        .target(name: "IngestServiceCore", dependencies: [
            .product(name: "GeoEnrich", package: "geo-enrich"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "IngestService", dependencies: [
            "IngestServiceCore",
            .product(name: "GeoEnrich", package: "geo-enrich"),
            .product(name: "GeoEnrichOptions", package: "geo-enrich"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "IngestServiceTests", dependencies: [
            "IngestServiceCore",
            .product(name: "GeoEnrich", package: "geo-enrich"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
