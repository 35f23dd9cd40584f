#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoMath

/// `latLngToCell`'s projection onto the face grid without trigonometric calls, answering only
/// when the answer is certain to be the C library's.
///
/// H3 finds the hex of a point in three steps: the nearest face, the point's gnomonic
/// projection onto that face's plane (in polar form: `acos` for the distance from the face
/// centre, `atan2` for the azimuth, `tan` for the scaling, `cos` and `sin` back to the plane),
/// and the hex of the plane point. The polar form has a cartesian twin. With d, n and e the
/// point's components along the face centre and its north and east tangents, tan r = √(n²+e²)/d,
/// cos az ∝ n and sin az ∝ e, so the plane point at angle θ = A − az from the face's i axis
/// (A its azimuth) is
///
///     x = S · (n cos A + e sin A) / d,    y = S · (n sin A − e cos A) / d
///
/// with S the resolution's scale: three dot products with per-face vectors and one division.
/// The point's own sine and cosine come from GeoMath's `DegreeTrigonometry`.
///
/// **Exactness.** This path and the C library's compute the same plane point with different
/// roundings, so near a hex edge (or a face edge) they could disagree. The answer is therefore
/// given only when the plane point lies deeper inside its hex than any such difference can
/// reach, and the face won by more than any difference in squared distance; otherwise `nil`,
/// and the caller takes the faithful path (``FaceIJK/init(_:resolution:)``). The margin is
/// S · (10⁻¹¹ + 10⁻¹³ / sin r) hex spacings. The two paths' plane points differ by under
/// 1.3·10⁻¹⁴ · S from rounding: the inputs' sines and cosines (a few 10⁻¹⁵ apart, times the
/// projection's stretch of at most 1.6), the √7 scaling (16 roundings on each side), the
/// divisions, dot products and angle arithmetic. Near a face centre the C library's `acos` of a
/// cosine near 1 adds up to 5·10⁻¹⁶ · S / sin r (a cosine's half-ulp, 5.5·10⁻¹⁷, divided by
/// sin r, stretched by 1/cos² r). The margin covers the first 700 times and the second 200
/// times. At resolution 15 it is about 6·10⁻⁵ of a hex spacing, and about one point in 5,000
/// falls back.
enum AlgebraicProjection {
    /// The per-face vectors of the cartesian form.
    struct FaceFrame {
        /// The face centre.
        var center: Vec3
        /// cos A · north + sin A · east and sin A · north − cos A · east, for Class II
        /// resolutions (A the azimuth of the face's Class II i axis).
        var u2: Vec3, w2: Vec3
        /// The same for Class III resolutions (A less the aperture-7 rotation).
        var u3: Vec3, w3: Vec3
    }

    /// One frame a face, built from the face tables (for ``tables``).
    private static func makeFrames() -> [FaceFrame] {
        (0..<IcosahedronFaces.count).map { f in
            let north = IcosahedronFaces.northDirections[f]
            let east = IcosahedronFaces.eastDirections[f]
            func axes(_ a: Double) -> (Vec3, Vec3) {
                let (s, c) = (sin(a), cos(a))
                return (Vec3.linearCombination(c, north, s, east), Vec3.linearCombination(s, north, -c, east))
            }
            let a2 = IcosahedronFaces.iAxisAzimuth[f]
            let (u2, w2) = axes(a2)
            let (u3, w3) = axes(a2 - H3Constants.m_ap7_rot_rads)
            return FaceFrame(center: IcosahedronFaces.centers[f], u2: u2, w2: w2, u3: u3, w3: w3)
        }
    }

    /// S for each resolution: the inverse of the resolution-0 gnomonic unit times √7 per level
    /// (for ``tables``).
    private static func makeScales() -> [Double] {
        (0...H3Resolution.finest.rawValue).map { res in
            var s = H3Constants.inv_res0_u_gnomonic
            for _ in 0..<res { s *= H3Constants.m_sqrt7 }
            return s
        }
    }

    /// The candidate grid: cells of 3° of latitude by 3° of longitude.
    static let candidateCellDegrees = 3.0
    static let candidateRows = 60, candidateColumns = 120

    /// For each cell of the candidate grid (row-major from −90°, −180°), the faces that can be
    /// nearest to a point of the cell: the count in the low byte, then the faces a byte each.
    ///
    /// Every point of a cell lies within one cell side ρ (as an angle, so also as a chord) of
    /// its centre: a meridian arc of at most ρ/2, then a parallel arc of at most ρ/2, longer than
    /// the great circle. So a face g whose chord from the centre exceeds the nearest face's by
    /// more than 2ρ is farther than that face from every point of the cell; taken with 5 %
    /// more and 10⁻⁴ to spare, its squared distance then trails by far more than ``faceMargin``,
    /// and it is left out. At most five faces remain (at the icosahedron's vertices); in two
    /// cells of three, one. (For ``tables``.)
    private static func makeCandidates() -> [UInt64] {
        // Built once, on a run's first cell. With no arrays made per cell (the chords on the
        // stack, the sines and cosines once per row and once per column) it takes about 4 M
        // instructions rather than 15 M (callgrind). The values are the same: each chord is the
        // same arithmetic on the same sines and cosines.
        let side = candidateCellDegrees * DegreeTrigonometry.degree
        let spare = 2 * side * 1.05 + 1e-4
        let centers = IcosahedronFaces.centers
        precondition(centers.count == IcosahedronFaces.count)
        let columnSinCos = (0..<candidateColumns).map { column in
            sinCos((-180 + (Double(column) + 0.5) * candidateCellDegrees) * DegreeTrigonometry.degree)
        }
        return [UInt64](unsafeUninitializedCapacity: candidateRows * candidateColumns) { table, count in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: IcosahedronFaces.count) { chords in
                for row in 0..<candidateRows {
                    let (sinLat, cosLat) = sinCos((-90 + (Double(row) + 0.5) * candidateCellDegrees) * DegreeTrigonometry.degree)
                    for column in 0..<candidateColumns {
                        let (sinLng, cosLng) = columnSinCos[column]
                        // Vec3(latitudeRadians:longitudeRadians:), its sines and cosines hoisted
                        let centre = Vec3(x: cosLng * cosLat, y: sinLng * cosLat, z: sinLat)
                        var nearest = Double.infinity
                        for f in 0..<centers.count {
                            chords[f] = centers[f].distanceSquared(centre).squareRoot()
                            nearest = min(nearest, chords[f])
                        }
                        var packed: UInt64 = 0, found: UInt64 = 0
                        for f in 0..<centers.count where chords[f] <= nearest + spare {
                            found += 1
                            precondition(found <= 7, "a cell of the candidate grid meets more than 7 faces")
                            packed |= UInt64(f) << (8 * found)
                        }
                        table[row * candidateColumns + column] = packed | found
                    }
                }
            }
            count = candidateRows * candidateColumns
        }
    }

    /// The projection's tables as one global of plain pointers, read once a cell: the three
    /// kept as arrays, each read where it was used, cost a `swift_once` (3.3 a cell, about 47
    /// instructions each on Linux) and a bounds check, about 110 instructions a cell
    /// (callgrind). Built on first use and never freed, like GeoMath's table of sines; the
    /// indices are in range by construction (a face from the candidates, 0…19; a resolution,
    /// 0…15; a grid cell of a checked latitude and longitude).
    struct Tables {
        /// ``makeCandidates()``'s grid, `candidateRows` × `candidateColumns`, row-major.
        let candidates: UnsafePointer<UInt64>
        /// ``makeFrames()``'s frame of each face.
        let frames: UnsafePointer<FaceFrame>
        /// ``makeScales()``'s scale of each resolution.
        let scales: UnsafePointer<Double>
    }

    nonisolated(unsafe) static let tables = Tables(candidates: permanentCopy(of: makeCandidates()),
                                                   frames: permanentCopy(of: makeFrames()),
                                                   scales: permanentCopy(of: makeScales()))

    private static func permanentCopy<T>(of array: [T]) -> UnsafePointer<T> {
        let copy = UnsafeMutablePointer<T>.allocate(capacity: array.count)
        copy.initialize(from: array, count: array.count)
        return UnsafePointer(copy)
    }

    /// Squared-distance lead the nearest face must have over the next (the two paths' squared
    /// distances differ by under 10⁻¹⁴).
    static let faceMargin = 1e-12

    /// The hex at `res` containing the point, or `nil` when the C library's rounding could
    /// place it elsewhere (or the latitude lies outside ±90° or the longitude outside ±180°).
    ///
    /// - Parameters:
    ///   - latitude, longitude: degrees, finite.
    ///   - res: 0…15.
    /// - Complexity: O(1): two table sine-and-cosines, the squared distances to at most five
    ///   faces (none in most places), the hex quantisation.
    @inline(__always) static func hex(latitude: Double, longitude: Double, resolution res: Int) -> FaceIJK? {
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let tables = Self.tables
        let (sinLat, cosLat) = DegreeTrigonometry.sineAndCosine(degrees: latitude)
        let (sinLng, cosLng) = DegreeTrigonometry.sineAndCosine(degrees: longitude)
        let v = Vec3(x: cosLng * cosLat, y: sinLng * cosLat, z: sinLat)

        // the nearest face, and by how much: only the faces that can be nearest in the point's
        // cell of the candidate grid are measured, the others being farther by construction
        let row = min(Int((latitude + 90) * (1 / candidateCellDegrees)), candidateRows - 1)
        let column = min(Int((longitude + 180) * (1 / candidateCellDegrees)), candidateColumns - 1)
        var faces = tables.candidates[row * candidateColumns + column]
        var face = Int(truncatingIfNeeded: faces >> 8 & 0xFF)
        if faces & 0xFF > 1 {
            var best = 5.0, second = 5.0
            for _ in 0..<Int(faces & 0xFF) {
                faces >>= 8
                let f = Int(truncatingIfNeeded: faces & 0xFF)
                let d = tables.frames[f].center.distanceSquared(v)
                if d < best {
                    second = best
                    best = d
                    face = f
                } else if d < second {
                    second = d
                }
            }
            guard second - best > faceMargin else { return nil }
        }

        let frame = tables.frames[face]
        let d = v.dot(frame.center)
        let (u, w) = FaceIJK.isClassIII(res) ? (frame.u3, frame.w3) : (frame.u2, frame.w2)
        let scale = tables.scales[res]
        let s = scale / d
        let pu = v.dot(u), pw = v.dot(w)
        let p = Vec2(x: s * pu, y: s * pw)
        let coord = CoordIJK.containing(p)

        // the depth of p inside its hex: the hex is |o · m| ≤ ½ for the three directions m at
        // 0°, 60° and 120° (its neighbours' centres lie one spacing away along ±m)
        let ci = Double(coord.i - coord.k), cj = Double(coord.j - coord.k)
        let ox = p.x - (ci - 0.5 * cj)
        let oy = p.y - cj * H3Constants.m_sqrt3_2
        // (u, w) is an orthonormal basis of the tangent plane, so this is √(n² + e²) = sin r
        let sinR = (pu * pu + pw * pw).squareRoot()
        let limit = 0.5 - scale * (1e-11 + 1e-13 / sinR)
        let a = 0.5 * ox, b = H3Constants.m_sqrt3_2 * oy
        guard abs(ox) < limit, abs(a + b) < limit, abs(b - a) < limit else { return nil }
        return FaceIJK(face: face, coord: coord)
    }
}
