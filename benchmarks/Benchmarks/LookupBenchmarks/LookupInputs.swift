import Benchmark
import Foundation
import GeoBridge
import GeoLookup
import BenchmarkSupport

/// The data and the points every lookup benchmark draws from, built once per benchmark process
/// in a `setup` closure, so that neither opening the data nor generating the points is measured.
///
/// Each point set holds ``count`` points; an iteration looks up the next
/// ``operationsPerIteration`` of them (see ``batch(_:iteration:)``), cycling through the set.
/// `anchors/lookup_points.py` rebuilds the city points bit for bit for the CLI and peer anchors.
enum LookupInputs {
    /// How many points each set holds.
    static let count = 1_000_000

    /// Lookups per measured iteration; results are reported per lookup.
    /// `render_results.py` divides by the same number (`OPERATIONS_PER_ITERATION`).
    static var scalingFactor: BenchmarkScalingFactor { .kilo }

    /// The base seed, the bytes of "geo-enri" (as the H3 benchmarks'); each set XORs in a tag.
    static let seed: UInt64 = 0x6765_6F2D_656E_7269

    /// A box around a place: the centre ± `spread` degrees of latitude and ± `spread` / cos(centre
    /// latitude) degrees of longitude, so that it is about as wide as it is tall.
    struct Box: Sendable {
        let name: String
        let latitude: Double
        let longitude: Double
        /// Degrees of latitude either side of the centre.
        let spread: Double
    }

    /// The cities of the stream generator, `CITIES` in `/work/shared/bench/gen_stream.py`, whose
    /// sessions start uniformly in these boxes.
    static let cities: [Box] = [
        Box(name: "Toronto", latitude: 43.6532, longitude: -79.3832, spread: 0.15),
        Box(name: "Montreal", latitude: 45.5019, longitude: -73.5674, spread: 0.12),
        Box(name: "Vancouver", latitude: 49.2827, longitude: -123.1207, spread: 0.10),
        Box(name: "Calgary", latitude: 51.0447, longitude: -114.0719, spread: 0.12),
        Box(name: "Winnipeg", latitude: 49.8951, longitude: -97.1384, spread: 0.08),
        Box(name: "Halifax", latitude: 44.6488, longitude: -63.5752, spread: 0.06),
        Box(name: "Ottawa", latitude: 45.4215, longitude: -75.6972, spread: 0.08),
        Box(name: "Edmonton", latitude: 53.5461, longitude: -113.4938, spread: 0.10),
        Box(name: "Quebec", latitude: 46.8139, longitude: -71.2080, spread: 0.06),
        Box(name: "Regina", latitude: 50.4452, longitude: -104.6189, spread: 0.05),
        Box(name: "StJohns", latitude: 47.5615, longitude: -52.7126, spread: 0.04),
        Box(name: "Whitehorse", latitude: 60.7212, longitude: -135.0568, spread: 0.03),
    ]

    /// The twelve most populous US cities (2020 census), each a box around its centre as
    /// ``cities`` are: the US city points of the ZIP and time-zone benchmarks. Some boxes reach
    /// into water (New York's harbour, Lake Michigan at Chicago, the Pacific at Los Angeles and
    /// San Diego), as Toronto's, Vancouver's and Halifax's do.
    static let usCities: [Box] = [
        Box(name: "New York", latitude: 40.7128, longitude: -74.0060, spread: 0.15),
        Box(name: "Los Angeles", latitude: 34.0522, longitude: -118.2437, spread: 0.15),
        Box(name: "Chicago", latitude: 41.8781, longitude: -87.6298, spread: 0.12),
        Box(name: "Houston", latitude: 29.7604, longitude: -95.3698, spread: 0.12),
        Box(name: "Phoenix", latitude: 33.4484, longitude: -112.0740, spread: 0.12),
        Box(name: "Philadelphia", latitude: 39.9526, longitude: -75.1652, spread: 0.10),
        Box(name: "San Antonio", latitude: 29.4241, longitude: -98.4936, spread: 0.10),
        Box(name: "San Diego", latitude: 32.7157, longitude: -117.1611, spread: 0.08),
        Box(name: "Dallas", latitude: 32.7767, longitude: -96.7970, spread: 0.12),
        Box(name: "Jacksonville", latitude: 30.3322, longitude: -81.6557, spread: 0.10),
        Box(name: "Austin", latitude: 30.2672, longitude: -97.7431, spread: 0.08),
        Box(name: "San Jose", latitude: 37.3382, longitude: -121.8863, spread: 0.08),
    ]

    /// Boxes astride the Canada–United States border, where most points need a polygon test.
    static let borderCrossings: [Box] = [
        Box(name: "Windsor/Detroit", latitude: 42.32, longitude: -83.04, spread: 0.08),
        Box(name: "Niagara", latitude: 43.09, longitude: -79.06, spread: 0.05),
        Box(name: "Sault Ste. Marie", latitude: 46.51, longitude: -84.35, spread: 0.05),
        Box(name: "Blaine/Surrey", latitude: 49.0, longitude: -122.75, spread: 0.08),
    ]

    /// How many sessions walk at once in ``streamPoints``, as `gen_stream.py`'s default.
    static let walkerCount = 2_000

    /// The mean step of a walker in metres (each step is uniform in 0.5…1.5 times this).
    static let meanStepMetres = 30.0

    /// The largest change of heading per step, in radians either way.
    static let maxTurn = 0.25

    /// The repository's `data/`, found from this file's path
    /// (`benchmarks/Benchmarks/LookupBenchmarks/` → the root), so any working directory works.
    static let dataDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("data").path
    }()

    /// The bundled data, opened once per process and shared by every locator.
    static let lookup: LocationLookup = {
        do {
            return try LocationLookup(dataDirectory: dataDirectory)
        } catch {
            fatalError("cannot open the lookup data in \(dataDirectory): \(error); rebuild it with ./scripts/data/build_data.sh")
        }
    }()

    /// The bundled data with everything the CLI can add opened too: US ZIP codes
    /// (`postal_us.bin`) and time zones (`timezones.bin`), without the tz database (no fix
    /// times here), as `geo-enrich lookup --postal-countries CA,US --timezone` opens it.
    static let allData: LocationLookup = {
        do {
            return try LocationLookup(dataDirectory: dataDirectory, postalCountries: [.canada, .unitedStates],
                                      timeZones: true, utcOffsets: false)
        } catch {
            fatalError("cannot open the lookup data in \(dataDirectory): \(error); rebuild it with ./scripts/data/build_data.sh")
        }
    }()

    /// The US ZIP codes of ``allData``.
    static var zipCodes: PostalIndex {
        guard let index = allData.zipCodes else { fatalError("the lookup opened no postal_us.bin") }
        return index
    }

    /// The time zones of ``allData``.
    static var timeZones: TimeZoneIndex {
        guard let index = allData.timeZones else { fatalError("the lookup opened no timezones.bin") }
        return index
    }

    /// Points uniform in the ``cities`` boxes, a city chosen uniformly for each: the
    /// distribution of the stream generator's session starts.
    static let cityPoints: [GeoPoint] = {
        var rng = SplitMix64(seed: seed ^ 0x6369_7469_6573_0000) // "cities"
        return (0..<count).map { _ in point(in: cities, using: &rng) }
    }()

    /// Points uniform in the ``usCities`` boxes, a city chosen uniformly for each, as
    /// ``cityPoints`` in Canada.
    static let usCityPoints: [GeoPoint] = {
        var rng = SplitMix64(seed: seed ^ 0x7573_6369_7479_0000) // "uscity"
        return (0..<count).map { _ in point(in: usCities, using: &rng) }
    }()

    /// Points in the ``cities`` boxes in the order a session stream brings them: ``walkerCount``
    /// walkers start at city points with random headings; each step, a walker chosen at random
    /// turns by up to ``maxTurn`` and moves about ``meanStepMetres``, and its new position is the
    /// next point. Consecutive points are far apart, but each walker's points are close in
    /// space, as the fixes of one session are.
    static let streamPoints: [GeoPoint] = {
        var rng = SplitMix64(seed: seed ^ 0x7374_7265_616D_0000) // "stream"
        var walkers = (0..<walkerCount).map { _ in point(in: cities, using: &rng) }
        var headings = (0..<walkerCount).map { _ in rng.nextUnit() * 2 * Double.pi }
        var points: [GeoPoint] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let w = Int(rng.nextUnit() * Double(walkerCount))
            headings[w] += (2 * rng.nextUnit() - 1) * maxTurn
            let metres = meanStepMetres * (0.5 + rng.nextUnit())
            // metres per degree as gen_stream.py's steps
            var p = walkers[w]
            p.latitude += metres * cos(headings[w]) / 111_132.0
            p.longitude += metres * sin(headings[w]) / (111_320.0 * cos(p.latitude * (Double.pi / 180)))
            walkers[w] = p
            points.append(p)
        }
        return points
    }()

    /// Points uniform on the sphere: mostly ocean, few in Canada.
    static let worldPoints: [GeoPoint] = {
        var rng = SplitMix64(seed: seed ^ 0x776F_726C_6400_0000) // "world"
        return (0..<count).map { _ in
            // latitude = asin(2u − 1) makes the density uniform in area, not in degrees
            let u = rng.nextUnit()
            let v = rng.nextUnit()
            return GeoPoint(latitude: asin(2 * u - 1) * (180 / Double.pi), longitude: v * 360 - 180)
        }
    }()

    /// Points uniform in the ``borderCrossings`` boxes, a box chosen uniformly for each.
    static let borderPoints: [GeoPoint] = {
        var rng = SplitMix64(seed: seed ^ 0x626F_7264_6572_0000) // "border"
        return (0..<count).map { _ in point(in: borderCrossings, using: &rng) }
    }()

    /// A point uniform in one of `boxes`, the box chosen uniformly: three draws, in the order
    /// `anchors/lookup_points.py` makes them.
    static func point(in boxes: [Box], using rng: inout SplitMix64) -> GeoPoint {
        let box = boxes[Int(rng.nextUnit() * Double(boxes.count))]
        let u = rng.nextUnit()
        let v = rng.nextUnit()
        let latitude = box.latitude + (2 * u - 1) * box.spread
        let longitude = box.longitude + (2 * v - 1) * box.spread / cos(box.latitude * (Double.pi / 180))
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The next ``scalingFactor`` points for the iteration numbered `iteration`, cycling
    /// through `points`.
    ///
    /// - Parameters:
    ///   - points: a point set whose size is a multiple of the scaling factor.
    ///   - iteration: `benchmark.currentIteration`.
    /// - Returns: a slice of `points`; no copy.
    @inline(__always)
    static func batch(_ points: [GeoPoint], iteration: Int) -> ArraySlice<GeoPoint> {
        let size = scalingFactor.rawValue
        let start = (iteration * size) % points.count
        return points[start..<start + size]
    }

    /// Runs `body` once over every point before measurement, so that the locator has prepared
    /// every polygon the set needs and the figures are those of a process in its steady state
    /// (`anchors/lookup_startup.py` measures a cold process).
    ///
    /// - Complexity: O(n) lookups, plus preparing each polygon the points reach.
    static func warm(_ points: [GeoPoint], _ body: (GeoPoint) -> UInt64) {
        var checksum: UInt64 = 0
        for point in points { checksum &+= body(point) }
        blackHole(checksum)
    }
}

extension LocationLookup.Result {
    /// The result folded into 64 bits, so the optimiser cannot drop the lookup.
    @inline(__always)
    var checksum: UInt64 {
        UInt64(country?.packed ?? 0) &+ (postal?.checksum ?? 0)
    }
}

extension PostalMatch {
    /// The match folded into 64 bits.
    @inline(__always)
    var checksum: UInt64 { UInt64(code.packed) ^ distanceMetres.bitPattern }
}
