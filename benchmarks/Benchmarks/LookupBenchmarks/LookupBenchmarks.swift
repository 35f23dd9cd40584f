import Benchmark
import GeoBridge
import GeoLookup

// Benchmarks of the country / postal-code / time-zone lookup (GeoLookup) over the bundled data
// in data/.
//
// The targets: at least 2 million lookups per second per core for points in Canadian
// cities (country and postal code), aiming for 4 million, so a p50 of at most 500 ns, aiming for
// 250 ns. Start-up and memory are measured on the CLI by anchors/lookup_startup.py.
// Issue 21 (rule 12): a time zone in at most 100 ns per core for city points, and US ZIP codes
// as fast as the Canadian postal codes (anchors/timezone_anchor.py times timezonefinder on the
// same points).
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

    // The US ZIP search alone (`postal_us.bin`), the same search within the same 20 km, on
    // points in the twelve largest US cities: to set beside the Canadian one above.
    Benchmark("zip nearest US city points") { benchmark, points in
        let zipCodes = LookupInputs.zipCodes
        let maxDistance = LookupInputs.allData.postalMaxDistance
        var checksum: UInt64 = 0
        for point in LookupInputs.batch(points, iteration: benchmark.currentIteration) {
            checksum &+= zipCodes.nearest(latitude: point.latitude, longitude: point.longitude,
                                          maxDistance: maxDistance)?.checksum ?? 0
        }
        blackHole(checksum)
    } setup: {
        _ = LookupInputs.zipCodes // opened here, not in the first iteration
        return LookupInputs.usCityPoints
    }

    // The time zone alone (`TimeZoneIndex.zone`), on the Canadian city points of the country
    // benchmark (the figure) and on the US city points.
    let timeZoneSets: [(name: String, points: @Sendable () -> [GeoPoint])] = [
        ("time zone city points", { LookupInputs.cityPoints }),
        ("time zone US city points", { LookupInputs.usCityPoints }),
    ]
    for set in timeZoneSets {
        Benchmark(set.name) { benchmark, state in
            var checksum: UInt64 = 0
            for point in LookupInputs.batch(state.points, iteration: benchmark.currentIteration) {
                checksum &+= UInt64(state.index.zone(latitude: point.latitude, longitude: point.longitude)?.rawValue ?? 0)
            }
            blackHole(checksum)
        } setup: {
            TimeZoneState(points: set.points())
        }
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

/// What the time-zone benchmarks' setup hands its iterations: the points and the index, run once
/// over the points so that the pages of `timezones.bin` they reach are already mapped in.
struct TimeZoneState {
    let points: [GeoPoint]
    let index: TimeZoneIndex

    /// Runs the index once over `points` (see ``LookupInputs/warm(_:_:)``).
    init(points: [GeoPoint]) {
        let index = LookupInputs.timeZones
        LookupInputs.warm(points) { UInt64(index.zone(latitude: $0.latitude, longitude: $0.longitude)?.rawValue ?? 0) }
        self.points = points
        self.index = index
    }
}
