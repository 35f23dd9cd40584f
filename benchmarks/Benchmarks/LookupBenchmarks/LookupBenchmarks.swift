import Benchmark
import GeoBridge
import GeoLookup

// Benchmarks of the country / postal-code lookup (GeoLookup) over the bundled data in data/.
//
// The targets: at least 2 million lookups per second per core for points in Canadian
// cities (country and postal code), aiming for 4 million, so a p50 of at most 500 ns, aiming for
// 250 ns. Start-up and memory are measured on the CLI by anchors/lookup_startup.py.
//
// Every iteration performs `LookupInputs.scalingFactor` (1,000) lookups, one per point, on the
// next points of a pre-generated set of 1,000,000, cycling; package-benchmark reports the scaled
// (per-lookup) figures. Each result is folded into a checksum black-holed once per iteration.
// Setup opens the data, makes the locator and runs it once over the whole set (see
// `LookupInputs.warm`), so the polygons near borders and coasts are already prepared.
//
// mallocCountTotal: the tiles and quadtree allocate nothing. A point in a box that a border or
// a coast crosses is tested with GEOS, which creates and frees a GEOS point per test (GEOS 3.11
// has no prepared XY predicates). The postal search's candidate buffer
// (`withUnsafeTemporaryAllocation`, 64 × 24 bytes) is larger than the 1,024 bytes Swift puts
// on the stack on Linux, so as of this writing each search also allocates once; RESULTS.md
// shows the count per set.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: LookupInputs.scalingFactor,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )

    // The full lookup (country, then the postal search for points in Canada), per point set.
    let locateSets: [(name: String, points: @Sendable () -> [GeoPoint])] = [
        ("lookup (country+postal) city points", { LookupInputs.cityPoints }),
        ("lookup city points, stream order", { LookupInputs.streamPoints }),
        ("lookup world points", { LookupInputs.worldPoints }),
        ("lookup border points", { LookupInputs.borderPoints }),
    ]
    for set in locateSets {
        Benchmark(set.name) { benchmark, state in
            var checksum: UInt64 = 0
            for point in LookupInputs.batch(state.points, iteration: benchmark.currentIteration) {
                checksum &+= state.locator.locate(latitude: point.latitude, longitude: point.longitude).checksum
            }
            blackHole(checksum)
        } setup: {
            try LocateState(points: set.points())
        }
    }

    // The country alone: tiles and quadtree, and GEOS near borders and coasts.
    Benchmark("country only city points") { benchmark, state in
        var checksum: UInt64 = 0
        for point in LookupInputs.batch(state.points, iteration: benchmark.currentIteration) {
            checksum &+= UInt64(state.locator.country(latitude: point.latitude, longitude: point.longitude)?.packed ?? 0)
        }
        blackHole(checksum)
    } setup: {
        try CountryState(points: LookupInputs.cityPoints)
    }

    // The postal search alone, within the lookup's default 20 km.
    Benchmark("postal nearest city points") { benchmark, points in
        let postal = LookupInputs.lookup.postal
        let maxDistance = LookupInputs.lookup.postalMaxDistance
        var checksum: UInt64 = 0
        for point in LookupInputs.batch(points, iteration: benchmark.currentIteration) {
            checksum &+= postal.nearest(latitude: point.latitude, longitude: point.longitude,
                                        maxDistance: maxDistance)?.checksum ?? 0
        }
        blackHole(checksum)
    } setup: {
        LookupInputs.cityPoints
    }
}

/// What a full-lookup benchmark's setup hands its iterations: the points and a warmed locator,
/// which lives on the benchmark's one thread.
struct LocateState {
    let points: [GeoPoint]
    let locator: LocationLookup.Locator

    /// Makes a locator and runs it once over `points` (see ``LookupInputs/warm(_:_:)``).
    init(points: [GeoPoint]) throws(GEOSError) {
        let locator = try LookupInputs.lookup.makeLocator()
        LookupInputs.warm(points) { locator.locate(latitude: $0.latitude, longitude: $0.longitude).checksum }
        self.points = points
        self.locator = locator
    }
}

/// What the country benchmark's setup hands its iterations: the points and a warmed locator.
struct CountryState {
    let points: [GeoPoint]
    let locator: CountryLocator

    /// Makes a locator and runs it once over `points` (see ``LookupInputs/warm(_:_:)``).
    init(points: [GeoPoint]) throws(GEOSError) {
        let locator = try CountryLocator(index: LookupInputs.lookup.countries)
        LookupInputs.warm(points) { UInt64(locator.country(latitude: $0.latitude, longitude: $0.longitude)?.packed ?? 0) }
        self.points = points
        self.locator = locator
    }
}
