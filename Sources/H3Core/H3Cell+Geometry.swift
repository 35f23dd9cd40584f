/// Cell centres and boundaries (`cellToLatLng`, `cellToBoundary`).
extension H3Cell {
    /// The centre of the cell in degrees (H3's `cellToLatLng`); longitude in [-180°, 180°].
    ///
    /// - Complexity: O(resolution).
    public var center: LatLng {
        let v = faceIJK.vec3(resolution: resolution.rawValue)
        return LatLng(vec3: v)
    }

    /// The cell's boundary in degrees, counter-clockwise (H3's `cellToBoundary`).
    ///
    /// A hexagon has 6 vertices and a pentagon 5, plus one for each place where a Class III
    /// cell's edge crosses an icosahedron edge (at most 10 in all).
    ///
    /// - Complexity: O(resolution).
    public var boundary: [LatLng] {
        var out: [LatLng] = []
        out.reserveCapacity(10)
        CellBoundary.walk(self, start: 0, length: isPentagon ? 5 : 6) { out.append(LatLng(vec3: $0)) }
        return out
    }

    /// The boundary's vertices as unit vectors, in order, for callers that need them in radians
    /// as H3 has them (areas): degrees would round them a second time.
    @inline(__always)
    func boundaryRadians(_ vertex: (Vec3) -> Void) {
        CellBoundary.walk(self, start: 0, length: isPentagon ? 5 : 6, vertex)
    }
}

extension LatLng {
    /// The point of a unit vector, in degrees.
    @inline(__always) init(vec3 v: Vec3) {
        self.init(latitude: Angle.degrees(fromRadians: v.latitudeRadians),
                  longitude: Angle.degrees(fromRadians: v.longitudeRadians))
    }
}

/// The vertex walk of H3's `_faceIjkToCellBoundary` and `_faceIjkPentToCellBoundary`.
///
/// A walk covers `length` topological vertices from vertex `start` (counter-clockwise), with the
/// extra vertices where an edge crosses an icosahedron edge: the whole loop for a cell boundary,
/// one vertex for `vertexToLatLng`, two for `directedEdgeToBoundary`. Points are handed over as
/// unit vectors, so callers pick degrees (``LatLng``) or radians (edge lengths) without a second
/// rounding.
enum CellBoundary {
    /// Walks `length` vertices of `cell` from vertex `start`, calling `emit` with each point.
    static func walk(_ cell: H3Cell, start: Int, length: Int, _ emit: (Vec3) -> Void) {
        if cell.isPentagon {
            pentagon(cell.faceIJK, resolution: cell.resolution.rawValue, start: start, length: length, emit)
        } else {
            hexagon(cell.faceIJK, resolution: cell.resolution.rawValue, start: start, length: length, emit)
        }
    }

    /// Vertices of an origin-centred hexagon on the aperture-3 substrate of a Class II
    /// resolution, counter-clockwise from the i axis.
    private static let classIIVertices = [
        CoordIJK(2, 1, 0), CoordIJK(1, 2, 0), CoordIJK(0, 2, 1),
        CoordIJK(0, 1, 2), CoordIJK(1, 0, 2), CoordIJK(2, 0, 1),
    ]
    /// The same for a Class III resolution (substrate 3, 3r, 7r).
    private static let classIIIVertices = [
        CoordIJK(5, 4, 0), CoordIJK(1, 5, 0), CoordIJK(0, 5, 4),
        CoordIJK(0, 1, 5), CoordIJK(4, 0, 5), CoordIJK(5, 0, 1),
    ]

    /// The substrate coordinates of the first `count` vertices of the cell at `center`, and
    /// the Class II resolution they are expressed in.
    static func vertices(_ center: FaceIJK, resolution res: Int, count: Int) -> ([FaceIJK], Int) {
        let substrate = Substrate(center, resolution: res)
        return ((0..<count).map(substrate.vertex), substrate.resolution)
    }

    /// The cell's centre on the substrate grid, from which each vertex is one fixed offset:
    /// the walks below compute a vertex where they need it rather than build an array of
    /// them (an allocation for every boundary, cell area and vertex).
    struct Substrate {
        let face: Int
        let center: CoordIJK
        /// The Class II resolution of the substrate.
        let resolution: Int
        let classIII: Bool

        @inline(__always) init(_ cell: FaceIJK, resolution res: Int) {
            var c = cell.coord
            c.downAp3()
            c.downAp3r()
            classIII = FaceIJK.isClassIII(res)
            if classIII {
                c.downAp7r()
                resolution = res + 1
            } else {
                resolution = res
            }
            face = cell.face
            center = c
        }

        /// Vertex `v` (0...5), counter-clockwise from the i axis.
        @inline(__always) func vertex(_ v: Int) -> FaceIJK {
            FaceIJK(face: face, coord: (center + (classIII ? classIIIVertices[v] : classIIVertices[v])).normalized)
        }
    }

    /// The corners of the icosahedron face triangle on the substrate grid, for the edge
    /// facing quadrant `dir` (1 ij, 2 ki, 3 jk).
    private static func faceEdge(_ dir: Int, maxDim: Int) -> (Vec2, Vec2) {
        let m = Double(maxDim)
        let v0 = Vec2(x: 3.0 * m, y: 0.0)
        let v1 = Vec2(x: -1.5 * m, y: 3.0 * H3Constants.m_sqrt3_2 * m)
        let v2 = Vec2(x: -1.5 * m, y: -3.0 * H3Constants.m_sqrt3_2 * m)
        switch dir {
        case IcosahedronFaces.Quadrant.ij.rawValue: return (v0, v1)
        case IcosahedronFaces.Quadrant.jk.rawValue: return (v1, v2)
        default: return (v2, v0)
        }
    }

    static func hexagon(_ center: FaceIJK, resolution res: Int, start: Int, length: Int, _ emit: (Vec3) -> Void) {
        let substrate = Substrate(center, resolution: res)
        let adjRes = substrate.resolution
        var lastFace = -1
        var lastOverage = FaceIJK.Overage.none
        // the whole loop takes one extra step to catch an edge crossing on the last edge
        let steps = length == 6 ? 7 : length
        for vert in start..<(start + steps) {
            let v = vert % 6
            var fijk = substrate.vertex(v)
            let overage = fijk.adjustOverageClassII(resolution: adjRes, pentLeading4: false, substrate: true)
            // a Class III edge that crosses an icosahedron edge gets an extra vertex there
            if FaceIJK.isClassIII(res) && vert > start && fijk.face != lastFace && lastOverage != .faceEdge {
                let lastV = (v + 5) % 6
                let orig0 = substrate.vertex(lastV).coord.hex2d
                let orig1 = substrate.vertex(v).coord.hex2d
                let maxDim = IcosahedronFaces.maxDim(classIIResolution: adjRes)
                let face2 = lastFace == center.face ? fijk.face : lastFace
                let (e0, e1) = faceEdge(IcosahedronFaces.adjacentDirection(from: center.face, to: face2), maxDim: maxDim)
                let inter = Vec2.intersection(orig0, orig1, e0, e1)
                // an intersection at a vertex needs no extra vertex
                if !(orig0.almostEquals(inter) || orig1.almostEquals(inter)) {
                    emit(FaceIJK.vec3(inter, face: center.face, resolution: adjRes, substrate: true))
                }
            }
            if vert < start + 6 {
                emit(FaceIJK.vec3(fijk.coord.hex2d, face: fijk.face, resolution: adjRes, substrate: true))
            }
            lastFace = fijk.face
            lastOverage = overage
        }
    }

    static func pentagon(_ center: FaceIJK, resolution res: Int, start: Int, length: Int, _ emit: (Vec3) -> Void) {
        let substrate = Substrate(center, resolution: res)
        let adjRes = substrate.resolution
        var last = FaceIJK(face: 0, coord: .zero)
        let steps = length == 5 ? 6 : length
        for vert in start..<(start + steps) {
            let v = vert % 5
            var fijk = substrate.vertex(v)
            fijk.adjustPentagonVertexOverage(resolution: adjRes)
            // every Class III pentagon edge crosses an icosahedron edge
            if FaceIJK.isClassIII(res) && vert > start {
                var tmp = fijk
                let orig0 = last.coord.hex2d
                let currentToLast = IcosahedronFaces.adjacentDirection(from: tmp.face, to: last.face)
                let orient = IcosahedronFaces.orientation(face: tmp.face, quadrant: currentToLast)
                tmp.face = orient.face
                for _ in 0..<orient.ccwRot60 { tmp.coord.rotate60ccw() }
                tmp.coord = tmp.coord + orient.translate * (IcosahedronFaces.unitScale(classIIResolution: adjRes) * 3)
                tmp.coord.normalize()
                let orig1 = tmp.coord.hex2d
                let maxDim = IcosahedronFaces.maxDim(classIIResolution: adjRes)
                let (e0, e1) = faceEdge(IcosahedronFaces.adjacentDirection(from: tmp.face, to: fijk.face), maxDim: maxDim)
                let inter = Vec2.intersection(orig0, orig1, e0, e1)
                emit(FaceIJK.vec3(inter, face: tmp.face, resolution: adjRes, substrate: true))
            }
            if vert < start + 5 {
                emit(FaceIJK.vec3(fijk.coord.hex2d, face: fijk.face, resolution: adjRes, substrate: true))
            }
            last = fijk
        }
    }
}
