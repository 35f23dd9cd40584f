// The polygonToCells rows of the H3 API benchmarks (issue 20, item 4): H3's polygonToCells (the
// traced flood) and the hierarchical walk in centre mode, which gives the same cells.
// `anchors/h3_api_anchor.py` times h3-py and polars-h3 on the same polygon.
import Benchmark
import H3Core

/// The city-sized polygon of the polygonToCells benchmarks: central Montréal (the Plateau and
/// Mont-Royal, from Lachine to the east end), an irregular 16-vertex ring about 20 km east–west by
/// 15 km north–south, about 175 km² (about 1,640 cells at resolution 9 and 80,400 at 11).
/// `anchors/h3_api_anchor.py` (`CITY_POLYGON`) holds the same vertices: change both together.
enum CityPolygon {
    /// (latitude, longitude) in degrees, counter-clockwise from the east, the ring open.
    static let vertices: [(Double, Double)] = [
        (45.5396, -73.4902), (45.5617, -73.5224), (45.5844, -73.5458), (45.5742, -73.5989),
        (45.6009, -73.6365), (45.5837, -73.6749), (45.5624, -73.6947), (45.5472, -73.7338),
        (45.5206, -73.7472), (45.5002, -73.7119), (45.4762, -73.6934), (45.4830, -73.6424),
        (45.4657, -73.6051), (45.4693, -73.5579), (45.4945, -73.5380), (45.5126, -73.5049),
    ]

    static let polygon = GeoPolygon(outer: vertices.map { LatLng(latitude: $0.0, longitude: $0.1) })
}

/// Custom metric of the polygonToCells benchmarks: the cells one call returns.
/// `render_results.py` divides an iteration's time by it (per output cell).
enum PolygonMetric {
    static let outputCells = BenchmarkMetric.custom("output cells", polarity: .prefersLarger, useScalingFactor: false)
}

/// polygonToCells (centre containment, H3's default) of ``CityPolygon`` at resolutions 9 and 11:
/// one call an iteration, reported per output cell (the iteration's time over the "output cells"
/// metric, by `render_results.py`; package-benchmark's own table shows per call).
func h3PolygonBenchmarks() {
    var configuration = Benchmark.defaultConfiguration
    configuration.scalingFactor = .one
    configuration.metrics.append(PolygonMetric.outputCells)
    for resolution in [9, 11].compactMap(H3Resolution.init(rawValue:)) {
        Benchmark("polygonToCells res \(resolution.rawValue)", configuration: configuration) { benchmark, polygon in
            let cells = try! H3Cell.polygonToCells(polygon, resolution: resolution)
            blackHole(cells.last?.rawValue ?? 0)
            benchmark.measurement(PolygonMetric.outputCells, cells.count)
        } setup: {
            CityPolygon.polygon
        }
        // the hierarchical walk in centre mode: the same cells (checked in RegionsGoldenTests),
        // compared with the same anchors
        Benchmark("polygonToCellsExperimental center res \(resolution.rawValue)", configuration: configuration) { benchmark, polygon in
            let cells = try! H3Cell.polygonToCells(polygon, resolution: resolution, containment: .center)
            blackHole(cells.last?.rawValue ?? 0)
            benchmark.measurement(PolygonMetric.outputCells, cells.count)
        } setup: {
            CityPolygon.polygon
        }
    }
}
