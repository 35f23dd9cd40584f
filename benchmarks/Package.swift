// swift-tools-version: 6.1
//
// The benchmark harness for geo-enrich: a separate package that depends on the root by path,
// so library users never resolve package-benchmark. Four targets: H3Benchmarks (H3Core),
// LookupBenchmarks (the country / postal-code lookup over data/), GeofenceBenchmarks (rule 11's
// membership and the loading of fence files) and EngineBenchmarks (the enrichment engine on a
// generated stream, and its memory). Run them with `make bench`
// from the root (which also measures the anchors in benchmarks/anchors/ and writes
// benchmarks/RESULTS.md), or directly:
//
//     swift package --package-path benchmarks benchmark
//
// package-benchmark discovers executable targets only under `Benchmarks/<Name>/`.
import PackageDescription

let package = Package(
    name: "geo-enrich-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "geo-enrich", path: ".."),
        // MallocInterposer is the trait that counts allocations (mallocCountTotal) on Swift 6.3+;
        // naming the traits explicitly also leaves out the Linux ARC runtime interposer.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // What the benchmark targets share (the seeded generator of their inputs).
        .target(name: "BenchmarkSupport", path: "Support/BenchmarkSupport"),
        .executableTarget(
            name: "H3Benchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeoEnrich", package: "geo-enrich"),
            ],
            path: "Benchmarks/H3Benchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LookupBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeoEnrich", package: "geo-enrich"),
            ],
            path: "Benchmarks/LookupBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeoEnrich", package: "geo-enrich"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GeofenceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeoEnrich", package: "geo-enrich"),
            ],
            path: "Benchmarks/GeofenceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a package-benchmark target (those live under Benchmarks/): the push to a local
        // sink, end to end, measured in wall time by its own loop.
        .executableTarget(
            name: "PushThroughput",
            dependencies: [
                .product(name: "GeoEnrich", package: "geo-enrich"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tools/PushThroughput"
        ),
    ],
    swiftLanguageModes: [.v6]
)
