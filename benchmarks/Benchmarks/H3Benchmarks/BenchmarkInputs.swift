import Benchmark
import Foundation
import H3Core
import BenchmarkSupport

/// The inputs every H3 benchmark draws from, built once per benchmark process in a `setup`
/// closure, so generating them is never inside a measured region.
///
/// Each input set holds ``count`` values; an iteration works on the next
/// ``operationsPerIteration`` of them (see ``batch(_:iteration:)``), cycling through the set.
enum BenchmarkInputs {
    /// How many inputs each set holds.
    static let count = 1_000_000

    /// Operations per measured iteration; results are reported per operation (per point).
    /// `render_results.py` divides by the same number (`OPERATIONS_PER_ITERATION`).
    static var scalingFactor: BenchmarkScalingFactor { .kilo }

    /// The seed of every input set: the bytes of "geo-enri". `anchors/h3py_anchor.py` uses it too.
    static let seed: UInt64 = 0x6765_6F2D_656E_7269

    /// Mean Earth radius in metres, as H3's `EARTH_RADIUS_KM`.
    static let earthRadiusMetres = 6_371_007.180918475

    /// How far from a pentagon centre the pentagon-neighbourhood points lie, at most, in metres.
    static let pentagonNeighbourhoodMetres = 1_000.0

    /// Points uniform on the sphere, less those in the 12 pentagon base cells (about 6 % of the
    /// sphere), so that at every resolution they fall in hexagons away from any pentagon's
    /// distortion. The same points as `anchors/h3py_anchor.py`'s.
    static let hexagonPoints: [LatLng] = hexagonPoints(count: count)

    /// The first `count` points of the stream ``hexagonPoints`` holds a million of (the same
    /// generator, so `hexagonPoints(count: n)` equals `hexagonPoints.prefix(n)`); for the input
    /// sets that need fewer, without generating the million.
    static func hexagonPoints(count: Int) -> [LatLng] {
        var rng = SplitMix64(seed: seed)
        var points: [LatLng] = []
        points.reserveCapacity(count)
        while points.count < count {
            // latitude = asin(2u − 1) makes the density uniform in area, not in degrees
            let u = rng.nextUnit()
            let v = rng.nextUnit()
            let point = LatLng(latitude: asin(2.0 * u - 1.0) * (180.0 / Double.pi),
                               longitude: v * 360.0 - 180.0)
            guard try! !H3Cell(point, resolution: .coarsest).isPentagon else { continue }
            points.append(point)
        }
        return points
    }

    /// The centres of the 12 pentagons at resolution 0, in base-cell order.
    static let pentagonCentres: [LatLng] = {
        // A resolution-0 cell is mode 1 (bit 59), resolution 0, every one of the 15 digits 7
        // (unused), and its base cell in bits 45...51.
        let resolution0Template: UInt64 = 0x0800_1FFF_FFFF_FFFF
        let baseCellOffset: UInt64 = 45
        let centres = (0..<122).compactMap { baseCell -> LatLng? in
            guard let cell = H3Cell(rawValue: resolution0Template | (UInt64(baseCell) << baseCellOffset)),
                  cell.isPentagon else { return nil }
            return cell.center
        }
        precondition(centres.count == 12, "expected 12 pentagon base cells, found \(centres.count)")
        return centres
    }()

    /// Points uniform in area within ``pentagonNeighbourhoodMetres`` of a pentagon centre,
    /// taking the 12 pentagons in turn.
    static let pentagonPoints: [LatLng] = {
        var rng = SplitMix64(seed: seed ^ 0x7065_6E74_6167_6F6E) // "pentagon"
        return (0..<count).map { i in
            let bearing = rng.nextUnit() * 2.0 * Double.pi
            // the square root spreads the points evenly over the disc's area
            let distance = pentagonNeighbourhoodMetres * rng.nextUnit().squareRoot()
            return destination(from: pentagonCentres[i % pentagonCentres.count],
                               bearing: bearing, distance: distance)
        }
    }()

    /// The resolution-15 cells of ``hexagonPoints``.
    static let resolution15Cells: [H3Cell] = cells(of: hexagonPoints, at: .finest)

    /// The resolution-9 cells of ``hexagonPoints``.
    static let resolution9Cells: [H3Cell] = cells(of: hexagonPoints, at: H3Resolution(rawValue: 9)!)

    /// The indexes of ``resolution15Cells`` as 64-bit integers.
    static let resolution15Indexes: [UInt64] = resolution15Cells.map(\.rawValue)

    /// The indexes of ``resolution15Cells`` as H3 strings (15 lower-case hexadecimal digits).
    static let resolution15Strings: [String] = resolution15Cells.map(\.description)

    /// The next ``scalingFactor`` inputs for the iteration numbered `iteration`, cycling
    /// through `inputs`.
    ///
    /// - Parameters:
    ///   - inputs: an input set whose size is a multiple of the scaling factor.
    ///   - iteration: `benchmark.currentIteration`.
    /// - Returns: a slice of `inputs`; no copy.
    @inline(__always)
    static func batch<Input>(_ inputs: [Input], iteration: Int) -> ArraySlice<Input> {
        let size = scalingFactor.rawValue
        let start = (iteration * size) % inputs.count
        return inputs[start..<start + size]
    }

    private static func cells(of points: [LatLng], at resolution: H3Resolution) -> [H3Cell] {
        points.map { try! H3Cell($0, resolution: resolution) }
    }

    /// The point `distance` metres from `start` along the initial `bearing` (radians clockwise
    /// from north), on H3's spherical Earth.
    private static func destination(from start: LatLng, bearing: Double, distance: Double) -> LatLng {
        let toRadians = Double.pi / 180.0
        let lat1 = start.latitude * toRadians
        let lng1 = start.longitude * toRadians
        let delta = distance / earthRadiusMetres
        let lat2 = asin(sin(lat1) * cos(delta) + cos(lat1) * sin(delta) * cos(bearing))
        let lng2 = lng1 + atan2(sin(bearing) * sin(delta) * cos(lat1), cos(delta) - sin(lat1) * sin(lat2))
        return LatLng(latitude: lat2 / toRadians, longitude: lng2 / toRadians)
    }
}
