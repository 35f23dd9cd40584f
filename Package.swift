// swift-tools-version: 6.1
//
// geo-enrich: location and geospatial enrichment for mobile-analytics ingestion.
// Layers (see ARCHITECTURE.md): GeoMath ← H3Core (pure Swift); GeoBridge (the only module
// that imports GEOS; its geodesic is Swift); GeoMath and GeoBridge ← GeoLookup ← EnrichEngine ← the CLI. The benchmark harness lives in benchmarks/, a separate
// package, so library users never resolve it.
import PackageDescription

let package = Package(
    name: "geo-enrich",
    platforms: [.macOS(.v15)],
    products: [
        // one import for a service: the GeoEnrich module re-exports the layers' public API
        .library(name: "GeoEnrich", targets: ["GeoEnrich"]),
        // the options of `enrich` (engine, push) as swift-argument-parser option groups, for a
        // service's own command line
        .library(name: "GeoEnrichOptions", targets: ["GeoEnrichOptions"]),
        .executable(name: "geo-enrich", targets: ["GeoEnrichCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // `swift package generate-documentation --target GeoEnrich`: the DocC catalog's articles
        // (library, service, command line, Spark); built by the test command
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // C libraries from the system, found with pkg-config; apt names them for a fresh machine.
        .systemLibrary(name: "CGEOS", path: "Sources/CGEOS", pkgConfig: "geos",
                       providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),

        // Degree trigonometry from a table and short WGS84 distances with an error bound, shared
        // by H3Core, GeoLookup and EnrichEngine. Pure Swift, no dependencies; public and
        // inlinable so that the hot paths of other modules inline it.
        .target(name: "GeoMath"),
        // a prefetch hint for Swift callers (the fence index's lookups in GeoLookup, the session
        // table's in EnrichEngine)
        .target(name: "CMemoryHints"),
        // the end of a JSON object or array found sixteen bytes at a time (SSE2), for the fence
        // files' reader in GeoLookup, and the plain bytes of a string for RecordCodec's
        // scanner: Swift's SIMD types did not compile to vector compares
        .target(name: "CJSONSkim"),
        // sin and cos of one angle from one call of the C library, bit for bit its sin and cos
        // (glibc's sincos), for H3Core's cell geometry: Swift's Glibc module does not export it
        .target(name: "CSinCos"),
        // Pure-Swift H3 v4, bit-exact with H3 4.5.0. Depends only on GeoMath (and CSinCos's one
        // inline C call into the C library's maths, which H3Core uses throughout).
        .target(name: "H3Core", dependencies: ["GeoMath", "CSinCos"]),
        // The values every layer shares: the `geo` object (Enrichment), a number as JSON wrote it,
        // a timestamp, country and postal codes, time-zone ids. Pure Swift over H3Core.
        .target(name: "GeoModel", dependencies: ["H3Core", "ThreadSharing"]),
        // Karney's geodesic in Swift (bit-exact with PROJ's, which pyproj uses) and a Swift wrapper
        // over GEOS (geometry); no C type in its public API.
        .target(name: "GeoBridge", dependencies: ["CGEOS"]),

        // Country, postal-code, FSA and time-zone lookups over the memory-mapped files in data/
        // (H3Core: the time-zone file is keyed by H3 resolution-4 cells).
        .target(name: "GeoLookup", dependencies: ["GeoMath", "GeoModel", "H3Core", "GeoBridge", "ThreadSharing", "CMemoryHints",
                                                 "CJSONSkim"]),

        // The hot-path record codec: one input line to a checked record (as the peer decides)
        // and the `geo` splice of the output line, byte-exact with the peer. No dependencies
        // but CJSONSkim's inline SSE2 string test.
        .target(name: "RecordCodec", dependencies: ["GeoModel", "CJSONSkim", "CMemoryHints"]),

        // The one place where threads share what the compiler cannot check (a pthread lock with
        // a condition, hand-overs of non-Sendable values, a batch's bytes), used by the engine's
        // shards and the stream's runner; and the stream's threads, started as plain pthreads
        // (not Foundation's Thread: see README, Binary size). Package-internal, no dependencies.
        .target(name: "ThreadSharing"),

        // The engine of contract rules 1-7: sessions, distance filter, expiry, attach, consent.
        .target(name: "EnrichEngine", dependencies: ["GeoMath", "GeoModel", "H3Core", "GeoBridge", "GeoLookup", "ThreadSharing",
                                                    "CMemoryHints"]),

        // NDJSON streams through the engine on all cores: batches read, parsed and decided in
        // parallel (sessions partitioned), written in input order, every line counted.
        // `import GeoEnrich`: every layer's public types in one import
        // (and what only a service needs: the push as a swift-service-lifecycle Service, ByteBuffer
        // entries to the enricher; the `geo-enrich` command does not link them)
        .target(name: "GeoEnrich", dependencies: [
            "EnrichEngine", "EnrichStream", "GeoLookup", "GeoModel", "H3Core", "LocationPush", "RecordCodec",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // GeoEnricher, the service's entry, logs with swift-log and counts with swift-metrics.
        .target(name: "EnrichStream", dependencies: [
            "EnrichEngine", "RecordCodec", "GeoLookup", "ThreadSharing", "CZlib", "CMemoryHints",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),

        // Accepted locations to the MobileTracker session-location endpoint: a pure scheduler
        // (coalescing, ordering, retries, bounds) driven over async-http-client.
        .target(name: "LocationPush", dependencies: [
            "GeoModel", "ThreadSharing",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),

        // The engine's and the push's command-line options, shared by the CLI and a service built
        // on the library (Examples/IngestService): the same names mean the same things.
        .target(name: "GeoEnrichOptions", dependencies: [
            "EnrichEngine", "GeoModel", "H3Core", "LocationPush",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .executableTarget(
            name: "GeoEnrichCLI",
            dependencies: [
                "GeoModel", "H3Core", "GeoBridge", "GeoLookup", "EnrichEngine", "EnrichStream", "LocationPush", "RecordCodec",
                "GeoEnrichOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Helpers shared by the test targets (a seeded generator); not part of any product.
        .target(name: "TestSupport", dependencies: ["ThreadSharing", .product(name: "Logging", package: "swift-log")],
                path: "Tests/TestSupport"),
        // GeoBridge for the geodesic, the reference the local distance and its bound are checked against.
        .testTarget(name: "GeoMathTests", dependencies: ["GeoMath", "GeoBridge", "TestSupport"]),
        .testTarget(name: "H3CoreTests", dependencies: ["H3Core", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GeoModelTests", dependencies: ["GeoModel", "H3Core"]),
        // the CLI's own logic (the data search), through @testable import of the executable
        .testTarget(name: "GeoEnrichCLITests", dependencies: ["GeoEnrichCLI"]),
        .testTarget(name: "GeoEnrichTests", dependencies: ["GeoEnrich", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "GeoBridgeTests", dependencies: ["GeoBridge"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoLookupTests", dependencies: ["GeoLookup", "GeoBridge", "H3Core", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "EnrichEngineTests", dependencies: ["EnrichEngine", "GeoMath", "TestSupport"]),
        .testTarget(name: "RecordCodecTests", dependencies: ["RecordCodec", "H3Core", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "EnrichStreamTests", dependencies: ["EnrichStream", "EnrichEngine", "RecordCodec", "GeoLookup", "TestSupport",
                                                            .product(name: "Logging", package: "swift-log"),
                                                            .product(name: "MetricsTestKit", package: "swift-metrics")],
                    exclude: ["Fixtures"]),
        .testTarget(name: "LocationPushTests", dependencies: [
            "LocationPush", "ThreadSharing", "GeoEnrich", "TestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
