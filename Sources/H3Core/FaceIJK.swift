#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A hex addressed by an icosahedron face and ijk coordinates on that face's grid.
struct FaceIJK: Equatable, Sendable {
    var face: Int
    var coord: CoordIJK

    @inline(__always) init(face: Int, coord: CoordIJK) {
        self.face = face
        self.coord = coord
    }

    @inline(__always) static func isClassIII(_ res: Int) -> Bool { res & 1 == 1 }

    // MARK: sphere → face grid (gnomonic projection)

    /// The hex at resolution `res` containing a point, by the C library's arithmetic step for
    /// step (libm's trigonometry; bit-exact with H3 4.5.0 on the same libm).
    @inline(never) init(_ point: LatLng, resolution res: Int) {
        let v = Vec3(latitudeRadians: Angle.radians(fromDegrees: point.latitude),
                     longitudeRadians: Angle.radians(fromDegrees: point.longitude))
        self.init(v, resolution: res)
    }

    /// The hex at resolution `res` containing a point on the unit sphere.
    @inline(__always) init(_ p: Vec3, resolution res: Int) {
        let (face, v) = FaceIJK.hex2d(p, resolution: res)
        self.face = face
        self.coord = CoordIJK.containing(v)
    }

    /// The nearest face to a unit vector and the point's 2D coordinates on that face's
    /// plane, scaled to resolution `res`.
    static func hex2d(_ p: Vec3, resolution res: Int) -> (face: Int, point: Vec2) {
        let (face, sqd) = IcosahedronFaces.closest(to: p)
        // cos(r) = 1 - 2 sin²(r/2) = 1 - sqd/2
        var r = acos(1 - sqd * 0.5)
        if r < H3Constants.epsilon { return (face, Vec2(x: 0, y: 0)) }

        // azimuth from the face centre to p, on the tangent plane at the centre
        let center = IcosahedronFaces.centers[face]
        var proj = Vec3.linearCombination(1.0, p, -p.dot(center), center)
        proj.normalize()
        let azimuth = atan2(proj.dot(IcosahedronFaces.eastDirections[face]),
                            proj.dot(IcosahedronFaces.northDirections[face]))
        // counter-clockwise angle from the Class II i axis
        var theta = positiveAngle(IcosahedronFaces.iAxisAzimuth[face] - positiveAngle(azimuth))
        if isClassIII(res) { theta = positiveAngle(theta - H3Constants.m_ap7_rot_rads) }

        // gnomonic scaling, then the unit length of the resolution (√7 per level, multiplied
        // one level at a time as the C library does, not as a power)
        r = tan(r)
        r *= H3Constants.inv_res0_u_gnomonic
        for _ in 0..<res { r *= H3Constants.m_sqrt7 }
        let (sinTheta, cosTheta) = sinCos(theta)
        return (face, Vec2(x: r * cosTheta, y: r * sinTheta))
    }

    // MARK: face grid → sphere

    /// The unit vector of a 2D face-plane point at resolution `res`; `substrate` when the point
    /// lies on the aperture-3 vertex grid (already Class II, a third of the spacing).
    static func vec3(_ v: Vec2, face: Int, resolution res: Int, substrate: Bool) -> Vec3 {
        var r = v.magnitude
        if r < H3Constants.epsilon { return IcosahedronFaces.centers[face] }
        var theta = atan2(v.y, v.x)
        for _ in 0..<res { r *= H3Constants.m_rsqrt7 }
        if substrate {
            r *= H3Constants.m_onethird
            if isClassIII(res) { r *= H3Constants.m_rsqrt7 }
        }
        r *= H3Constants.res0_u_gnomonic
        r = atan(r)  // inverse gnomonic
        if !substrate && isClassIII(res) { theta = positiveAngle(theta + H3Constants.m_ap7_rot_rads) }
        theta = positiveAngle(IcosahedronFaces.iAxisAzimuth[face] - theta)

        let (sinTheta, cosTheta) = sinCos(theta)
        let (sinR, cosR) = sinCos(r)
        let dir = Vec3.linearCombination(cosTheta, IcosahedronFaces.northDirections[face],
                                         sinTheta, IcosahedronFaces.eastDirections[face])
        var out = Vec3.linearCombination(cosR, IcosahedronFaces.centers[face], sinR, dir)
        out.normalize()
        return out
    }

    /// The centre of this hex at resolution `res` as a unit vector.
    @inline(__always) func vec3(resolution res: Int) -> Vec3 {
        FaceIJK.vec3(coord.hex2d, face: face, resolution: res, substrate: false)
    }

    // MARK: overage (coordinates that spill onto a neighbouring face)

    enum Overage {
        /// On the original face.
        case none
        /// On a face edge (substrate grids only).
        case faceEdge
        /// Moved onto a new face.
        case newFace
    }

    /// Moves Class II coordinates that lie past this face's edge onto the neighbouring face.
    ///
    /// - Parameters:
    ///   - res: a Class II (even) resolution.
    ///   - pentLeading4: the cell is a pentagon's leading-4 child (its missing k sequence).
    ///   - substrate: the coordinates are on the aperture-3 substrate grid.
    mutating func adjustOverageClassII(resolution res: Int, pentLeading4: Bool, substrate: Bool) -> Overage {
        var maxDim = IcosahedronFaces.maxDim(classIIResolution: res)
        if substrate { maxDim *= 3 }
        let sum = coord.i + coord.j + coord.k
        if substrate && sum == maxDim { return .faceEdge }
        if sum <= maxDim { return .none }

        let orient: IcosahedronFaces.Orientation
        if coord.k > 0 {
            if coord.j > 0 {
                orient = IcosahedronFaces.neighbors[face][IcosahedronFaces.Quadrant.jk.rawValue]
            } else {
                orient = IcosahedronFaces.neighbors[face][IcosahedronFaces.Quadrant.ki.rawValue]
                if pentLeading4 {
                    // rotate about the pentagon's centre to step over the missing sequence
                    let origin = CoordIJK(maxDim, 0, 0)
                    var tmp = coord - origin
                    tmp.rotate60cw()
                    coord = tmp + origin
                }
            }
        } else {
            orient = IcosahedronFaces.neighbors[face][IcosahedronFaces.Quadrant.ij.rawValue]
        }
        face = orient.face
        for _ in 0..<orient.ccwRot60 { coord.rotate60ccw() }
        var unitScale = IcosahedronFaces.unitScale(classIIResolution: res)
        if substrate { unitScale *= 3 }
        coord = coord + orient.translate * unitScale
        coord.normalize()
        if substrate && coord.i + coord.j + coord.k == maxDim { return .faceEdge }
        return .newFace
    }

    /// Repeats the overage adjustment of a pentagon vertex until it settles on a face.
    @inline(__always) mutating func adjustPentagonVertexOverage(resolution res: Int) {
        while adjustOverageClassII(resolution: res, pentLeading4: false, substrate: true) == .newFace {}
    }
}
