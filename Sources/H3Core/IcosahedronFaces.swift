/// The 20 faces of H3's icosahedron, read once from the generated tables in `H3Tables.swift`.
///
/// Derived values (each face's tangent basis) are computed with the same arithmetic the C
/// library uses on every call, so caching them changes no bit of any result.
enum IcosahedronFaces {
    static let count = 20

    /// Face centres on the unit sphere.
    static let centers: [Vec3] = (0..<count).map {
        Vec3(x: faceCenterPointTable[3 * $0], y: faceCenterPointTable[3 * $0 + 1], z: faceCenterPointTable[3 * $0 + 2])
    }

    /// Azimuth in radians from each face centre to its Class II i axis.
    static let iAxisAzimuth: [Double] = (0..<count).map { faceAxesAzRadsCIITable[3 * $0] }

    /// North and east tangent directions at each face centre.
    static let northDirections: [Vec3] = centers.map { $0.tangentBasis().north }
    static let eastDirections: [Vec3] = centers.map { $0.tangentBasis().east }

    /// The face whose centre is nearest `v` and the squared chord distance to it.
    @inline(__always) static func closest(to v: Vec3) -> (face: Int, squaredDistance: Double) {
        var face = 0
        var sqd = 5.0
        for f in 0..<count {
            let d = centers[f].distanceSquared(v)
            if d < sqd {
                face = f
                sqd = d
            }
        }
        return (face, sqd)
    }

    /// Orientation of a face relative to a neighbour: the neighbour's face number, the
    /// translation (in units of the resolution's unit scale) and ccw 60° rotations.
    struct Orientation {
        let face: Int
        let translate: CoordIJK
        let ccwRot60: Int
    }

    /// Quadrants of a face as used in `neighbors` and `adjacentDirection`.
    enum Quadrant: Int {
        case central = 0, ij = 1, ki = 2, jk = 3
    }

    /// `neighbors[face][quadrant]`.
    static let neighbors: [[Orientation]] = (0..<count).map { f in
        (0..<4).map { q in
            let b = (f * 4 + q) * 5
            let t = faceNeighborsTable
            return Orientation(face: Int(t[b]), translate: CoordIJK(Int(t[b + 1]), Int(t[b + 2]), Int(t[b + 3])),
                               ccwRot60: Int(t[b + 4]))
        }
    }

    /// `neighbors[face][quadrant]` read as H3's flat C table is laid out, so that an
    /// out-of-range quadrant (-1 for faces that are not adjacent, which valid cells never
    /// produce) reads the same entry as the C library instead of trapping.
    @inline(__always) static func orientation(face: Int, quadrant: Int) -> Orientation {
        let flat = min(max(face * 4 + quadrant, 0), count * 4 - 1)
        return neighbors[flat / 4][flat % 4]
    }

    /// The quadrant of `from` through which `to` is reached, or -1 when not adjacent.
    @inline(__always) static func adjacentDirection(from: Int, to: Int) -> Int {
        Int(adjacentFaceDirTable[from * count + to])
    }

    /// Largest coordinate sum on a face at an even (Class II) resolution: 2·7^(res/2).
    @inline(__always) static func maxDim(classIIResolution res: Int) -> Int { 2 * unitScale(classIIResolution: res) }

    /// Unit scale of the face translations at an even (Class II) resolution: 7^(res/2).
    @inline(__always) static func unitScale(classIIResolution res: Int) -> Int {
        var s = 1
        for _ in 0..<(res / 2) { s *= 7 }
        return s
    }
}
