import Benchmark
import Foundation
import GeoBridge
import GeoLookup

// Issue 19, item 8: geofence membership per accepted fix with 20,000 fences (half polygons of
// 6-24 vertices, half circles, clustered in the stream's cities) at most 300 ns per core, against
// shapely 2.2's STRtree in the same run (anchors/geofence_anchor.py, which also writes the fences
// and the points these benchmarks read from benchmarks/output/geofences/, and times the loading of
// 100,000 fences by the CLI: a load is seconds, which package-benchmark's throughput metric, an
// integer per second, cannot carry into its export).
//
// Membership is what an accepted fix costs the engine: `GeofenceLocator.list(containing:)`, the
// fences holding the point as the handle an enrichment keeps (the grid, the exact tests near an
// edge, and for a point in two or more fences the list's handle). Each iteration answers the next
// 1,000 of the stream's first 200,000 fix positions, in stream order, cycling; the figures are
// per point. Set-up loads the fences and answers every point once, so GEOS's prepared polygons
// and the interned lists are made before measuring (a long stream's steady state).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )

    Benchmark("geofence membership 20k fences stream points") { benchmark, state in
        var checksum: UInt32 = 0
        for point in state.batch(iteration: benchmark.currentIteration) {
            checksum &+= state.locator.list(containing: point).rawValue
        }
        blackHole(checksum)
    } setup: {
        try MembershipState()
    }
}

/// Where anchors/geofence_anchor.py writes the fences and points.
enum GeofenceInputs {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("output/geofences")
    }()

    static func path(_ name: String) -> String {
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            fatalError("\(path) is missing: make bench writes it (python3 benchmarks/anchors/geofence_anchor.py "
                + "--stream benchmarks/output/engine_stream.ndjson --out benchmarks/output/geofences)")
        }
        return path
    }

    /// The stream's fix positions, in stream order.
    static func points() throws -> [GeoPoint] {
        let text = try String(contentsOfFile: path("fence-points.txt"), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return GeoPoint(latitude: Double(parts[0])!, longitude: Double(parts[1])!)
        }
    }
}

final class MembershipState {
    let locator: GeofenceLocator
    let points: [GeoPoint]

    init() throws {
        let set = try GeofenceSet(contentsOf: GeofenceInputs.path("fences-20k.geojson"))
        locator = try set.makeLocator()
        points = try GeofenceInputs.points()
        for point in points { _ = locator.list(containing: point) }
    }

    /// The 1,000 points of an iteration.
    func batch(iteration: Int) -> ArraySlice<GeoPoint> {
        let start = (iteration * 1_000) % (points.count - 1_000)
        return points[start..<(start + 1_000)]
    }
}
