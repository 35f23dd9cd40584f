/// The outline of a set of cells (H3's `cellsToMultiPolygon` in `cellsToMultiPoly.c`, and
/// `cellsToLinkedMultiPolygon` in `algos.c`, which since H3 4.5.0 calls it and relinks the result).
extension H3Cell {
    /// The region covered by `cells` as polygons with holes (H3's `cellsToMultiPolygon` and
    /// `cellsToLinkedMultiPolygon`; h3-py's `cells_to_h3shape(cells, tight=False)`).
    ///
    /// Each connected group of cells is one polygon: its outer ring counter-clockwise, its holes
    /// clockwise, rings open and in degrees. Vertices are the cells' own boundary vertices (with
    /// the extra ones where a Class III edge crosses an icosahedron edge), so a ring runs along
    /// the cells' edges; cells that touch only at a corner are two polygons.
    ///
    /// Order, as H3 4.5.0 gives it:
    /// - polygons by decreasing area of their outer ring;
    /// - in a polygon, the ring that leaves the most of the sphere outside it is the outer one
    ///   (the state around a lake, not the lake), then the holes, largest first;
    /// - each ring starts at the first vertex of the first of its edges met when the cells are
    ///   read in the order given, each cell's edges in H3's direction order (1...6). The same
    ///   set in another order gives the same rings, started elsewhere.
    ///
    /// Where two areas are equal to the last bit, the earlier keeps its place (glibc's `qsort`,
    /// a merge sort, which h3-py uses on Linux; another C library may order such ties otherwise).
    /// A set that covers the whole sphere has no boundary; H3 then gives the sphere as 8
    /// triangles with corners at the poles and on the equator every 90°, and so does this.
    ///
    /// Exactness: every coordinate is H3 4.5.0's to the last bit (H3's vertex walk in radians,
    /// then H3's `radsToDegs`; tested against h3-py 4.5.0 on glibc), in H3's order.
    ///
    /// - Parameter cells: cells of one resolution, each once; an empty set gives no polygons.
    /// - Returns: the polygons, as described above.
    /// - Throws: ``H3Error/resolutionMismatch`` when the cells are not all of one resolution
    ///   (H3's `E_RES_MISMATCH`), else ``H3Error/duplicateInput`` when a cell appears twice
    ///   (`E_DUPLICATE_INPUT`), checked in that order as H3 does.
    /// - Complexity: O(n · resolution) expected for n cells (hashing), plus O(r log r) to sort
    ///   the r rings and polygons by area.
    public static func multiPolygon(of cells: some Sequence<H3Cell>) throws(H3Error) -> [GeoPolygon] {
        let list = Array(cells)
        guard let first = list.first else { return [] }
        guard list.allSatisfy({ $0.resolution == first.resolution }) else { throw .resolutionMismatch }
        guard Set(list).count == list.count else { throw .duplicateInput }

        var arcs = CellOutline(list)
        arcs.cancelSharedEdges()
        let rings = arcs.rings()
        guard !rings.isEmpty else { return CellOutline.sphere() }
        return CellOutline.polygons(rings)
    }
}

/// The working state of ``H3Cell/multiPolygon(of:)``: every directed edge of every cell as an
/// arc in a doubly linked ring, and the arcs' connected groups (a union-find).
///
/// H3's algorithm (`cellsToMultiPoly.c`), re-expressed over arrays of indices: each cell starts
/// as a ring of its own edges, counter-clockwise. Where a cell's edge and its reverse are both in
/// the set, the two cells share that edge: both arcs are removed and the two rings spliced into
/// one (or one ring split in two), and the two groups merged. What is left are the outline's
/// rings; a group's rings are one polygon. Which arc ends up a group's root decides the order of
/// polygons of equal area, so the union follows H3's rule (by size, the first on a tie) and the
/// arcs are visited in H3's order.
struct CellOutline {
    /// The edges, by cell in input order, each cell's by direction (H3's `originToDirectedEdges`
    /// without a pentagon's missing one).
    private var edge: [DirectedEdge] = []
    /// The next and previous arc along the ring each arc is on (counter-clockwise).
    private var next: [Int] = []
    private var previous: [Int] = []
    /// Union-find: each arc's parent (a root is its own) and, for a root, the size H3 weighs the
    /// union by (it starts at 1 for each cell's root, not at the number of its edges).
    private var parent: [Int] = []
    private var size: [Int] = []
    /// Arcs whose reverse is in the set: inside the region, not on its outline.
    private var removed: [Bool] = []
    /// Each arc's index by its edge.
    private var index: [DirectedEdge: Int] = [:]

    /// One ring of the outline: its vertices in radians, the area to its left and its group.
    struct Ring {
        var vertices: [(latitude: Double, longitude: Double)]
        var area: Double
        var root: UInt64
    }

    init(_ cells: [H3Cell]) {
        let count = cells.reduce(0) { $0 + ($1.isPentagon ? 5 : 6) }
        edge.reserveCapacity(count)
        next.reserveCapacity(count)
        previous.reserveCapacity(count)
        index.reserveCapacity(count)
        for cell in cells {
            let base = edge.count
            let pentagon = cell.isPentagon
            // a pentagon has no edge towards k (direction 1): its first edge is j's
            let firstDirection = pentagon ? Direction.jAxes.rawValue : Direction.kAxes.rawValue
            for raw in firstDirection...Direction.ijAxes.rawValue {
                let e = DirectedEdge(origin: cell, direction: Direction(unchecked: raw))
                index[e] = edge.count
                edge.append(e)
            }
            // The edge after the one towards d, counter-clockwise round the cell, is the one towards
            // d rotated 60° counter-clockwise (k, ik, i, ij, j, jk), skipping a pentagon's missing k.
            // (H3 spells this as two index tables in cellToEdgeArcs.)
            func position(_ d: Direction) -> Int { base + Int(d.rawValue - firstDirection) }
            next += Array(repeating: 0, count: edge.count - base)
            previous += Array(repeating: 0, count: edge.count - base)
            for raw in firstDirection...Direction.ijAxes.rawValue {
                let d = Direction(unchecked: raw)
                var after = d.rotated60ccw
                if pentagon && after == .kAxes { after = after.rotated60ccw }
                next[position(d)] = position(after)
                previous[position(after)] = position(d)
            }
            parent += Array(repeating: base, count: edge.count - base)
            size += Array(repeating: 1, count: edge.count - base)
        }
        removed = Array(repeating: false, count: edge.count)
    }

    /// Removes every pair of opposite arcs, splicing their rings and merging their groups, in
    /// H3's order (`cancelArcPairs`): by arc, each arc's reverse looked up as H3 computes it.
    mutating func cancelSharedEdges() {
        for a in edge.indices where !removed[a] {
            guard let b = index[edge[a].reversed] else { continue }
            removed[a] = true
            removed[b] = true
            // Splice in H3's order of assignments: the two rings (or the two sides of one) join
            // across the removed pair.
            previous[next[a]] = previous[b]
            next[previous[a]] = next[b]
            previous[next[b]] = previous[a]
            next[previous[b]] = next[a]
            union(a, b)
        }
    }

    /// The root of `arc`'s group, shortening the path to it on the way (H3's `getRoot`).
    private mutating func root(_ arc: Int) -> Int {
        var r = arc
        while parent[r] != r { r = parent[r] }
        var a = arc
        while parent[a] != r {
            let up = parent[a]
            parent[a] = r
            a = up
        }
        return r
    }

    /// Merges the groups of `a` and `b` under the root of the larger, `a`'s on a tie (H3's
    /// `unionArcs`).
    private mutating func union(_ a: Int, _ b: Int) {
        var ra = root(a), rb = root(b)
        if size[ra] < size[rb] { swap(&ra, &rb) }
        guard ra != rb else { return }
        size[ra] += size[rb]
        parent[rb] = ra
    }

    /// The rings left, each traced from its first arc in arc order, sorted as H3 sorts them
    /// (`createSortableLoopSet`): by group root, then by area, ties in the order found.
    mutating func rings() -> [Ring] {
        var visited = Array(repeating: false, count: edge.count)
        var found: [Ring] = []
        for start in edge.indices where !visited[start] && !removed[start] {
            var vertices: [(latitude: Double, longitude: Double)] = []
            var arc = start
            repeat {
                // each arc gives its points but the last, which starts the next arc
                edge[arc].walkBoundary { vertices.append(($0.latitudeRadians, $0.longitudeRadians)) }
                vertices.removeLast()
                visited[arc] = true
                arc = next[arc]
            } while arc != start
            found.append(Ring(vertices: vertices, area: SphericalArea.loopRadians2(vertices),
                              root: edge[root(start)].rawValue))
        }
        let order = found.indices.sorted { (found[$0].root, found[$0].area, $0) < (found[$1].root, found[$1].area, $1) }
        return order.map { found[$0] }
    }

    /// The rings as polygons (H3's `createMultiPolygon`): a group's rings are consecutive, the
    /// first (smallest area to its left) the outer ring and the rest its holes; polygons by
    /// decreasing outer area, ties in group order.
    static func polygons(_ rings: [Ring]) -> [GeoPolygon] {
        var groups: [ArraySlice<Ring>] = []
        var start = rings.startIndex
        for i in rings.indices.dropFirst() where rings[i].root != rings[start].root {
            groups.append(rings[start..<i])
            start = i
        }
        groups.append(rings[start...])
        let order = groups.indices.sorted { a, b in
            let (x, y) = (groups[a].first!.area, groups[b].first!.area)
            return x > y || (x == y && a < b)
        }
        return order.map { g in
            let group = groups[g]
            return GeoPolygon(outer: degrees(group.first!.vertices), holes: group.dropFirst().map { degrees($0.vertices) })
        }
    }

    /// The whole sphere as H3 gives it when no edge is left (`createGlobeMultiPolygon`): 8
    /// triangles, one per octant, each from its pole down to the equator at multiples of 90°,
    /// ordered by decreasing area as any result (equal octants may differ in the last bits).
    static func sphere() -> [GeoPolygon] {
        let pole = H3Constants.m_pi_2, pi = H3Constants.m_pi
        // Written out, not generated: H3's equator points are +0.0 throughout, and negating a
        // longitude of 0 would give -0.0, which prints as -0.0.
        let octants: [[(latitude: Double, longitude: Double)]] = [
            [(pole, 0.0), (0.0, 0.0), (0.0, pole)], [(pole, 0.0), (0.0, pole), (0.0, pi)],
            [(pole, 0.0), (0.0, pi), (0.0, -pole)], [(pole, 0.0), (0.0, -pole), (0.0, 0.0)],
            [(-pole, 0.0), (0.0, 0.0), (0.0, -pole)], [(-pole, 0.0), (0.0, -pole), (0.0, -pi)],
            [(-pole, 0.0), (0.0, -pi), (0.0, pole)], [(-pole, 0.0), (0.0, pole), (0.0, 0.0)],
        ]
        let areas = octants.map(SphericalArea.loopRadians2)
        let order = octants.indices.sorted { a, b in areas[a] > areas[b] || (areas[a] == areas[b] && a < b) }
        return order.map { GeoPolygon(outer: degrees(octants[$0])) }
    }

    /// Radian pairs as points in degrees, with H3's `radsToDegs` as h3-py converts them.
    private static func degrees(_ ring: [(latitude: Double, longitude: Double)]) -> [LatLng] {
        ring.map { LatLng(latitude: Angle.degrees(fromRadians: $0.latitude), longitude: Angle.degrees(fromRadians: $0.longitude)) }
    }
}
