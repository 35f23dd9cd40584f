#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Polygons to cells (`polygonToCells`, `polygonToCellsExperimental` and their size functions).
///
/// H3 4.5.0 has two algorithms, and both are here because each is compared with H3 cell for cell:
/// - `polygonToCells` (`algos.c`) traces the polygon's loops with cells, then floods inward from
///   them, keeping each cell whose centre is inside;
/// - `polygonToCellsExperimental` (`polyfill.c`) walks the whole hierarchy from the 122 base cells,
///   keeping a coarse cell whole when a box around all its descendants is inside the polygon,
///   descending where the box meets the polygon's edge, and deciding cells at the target
///   resolution by the containment mode.
/// For `center`, both select the cells whose centres are inside; they can differ only where
/// the trace misses a sliver (see ``polygonToCells(_:resolution:containment:)``).
extension H3Cell {
    /// The cells at `resolution` whose centres lie inside `polygon` (H3's `polygonToCells`),
    /// ascending.
    ///
    /// Edges are straight in latitude and longitude (see ``GeoPolygon``); a centre on an edge
    /// belongs to the polygon on its east or north side, as H3's ray cast decides.
    ///
    /// An empty outer loop has no cells (h3-py's answer; H3's own estimate fails on it).
    ///
    /// - Throws: ``H3Error/failed`` where H3 fails: a polygon whose box has no width or no
    ///   height, non-finite coordinates, or more cells than H3's size estimate
    ///   (``maxPolygonToCellsSize(_:resolution:)``) allows; ``H3Error/latLngDomain`` when a
    ///   traced point is not finite.
    /// - Complexity: O(cells inside + cells along the loops), each cell a point-in-polygon test
    ///   of O(vertices).
    public static func polygonToCells(_ polygon: GeoPolygon, resolution: H3Resolution) throws(H3Error) -> [H3Cell] {
        // h3-py answers an empty polygon without calling H3, whose size estimate fails on it
        guard !polygon.outer.isEmpty else { return [] }
        var flood = TracedFlood(RadianPolygon(polygon), resolution: resolution.rawValue)
        var cells = try flood.run()
        // one resolution: the radix sort of compactCells applies (Swift's sort took 5 % of
        // the run at resolution 11)
        IndexRadixSort.sort(&cells, bits: H3IndexBits.digitOffset(resolution.rawValue)..<(H3IndexBits.baseCellOffset + 7))
        return cells.map { H3Cell(unchecked: $0) }
    }

    /// The cells at `resolution` that `containment` admits (H3's `polygonToCellsExperimental`),
    /// ascending.
    ///
    /// - ``ContainmentMode/center``: the cell's centre is inside, as ``polygonToCells(_:resolution:)``
    ///   decides it. The two agree except where the older function's trace skips a part of the
    ///   polygon thinner than a cell (H3 says the same of its two functions).
    /// - ``ContainmentMode/full``: every point of the cell's boundary is inside and no hole
    ///   touches it.
    /// - ``ContainmentMode/overlapping``: the centre is inside, or the polygon's first vertex is
    ///   in the cell, or an edge of the cell crosses an edge of the polygon.
    /// - ``ContainmentMode/overlappingBoundingBox``: as `overlapping`, or H3's box around the cell
    ///   and its descendants meets the polygon (a superset, cheaper to decide).
    ///
    /// A polygon with an empty outer loop has no cells.
    ///
    /// - Complexity: O(output + boundary cells · vertices); coarse cells wholly inside are taken
    ///   whole, so the interior costs one box test per coarse cell.
    public static func polygonToCells(_ polygon: GeoPolygon, resolution: H3Resolution,
                                      containment: ContainmentMode) throws(H3Error) -> [H3Cell] {
        var out: [H3Cell] = []
        try HierarchicalFill(RadianPolygon(polygon), resolution: resolution.rawValue, mode: containment).forEachCompactCell { cell in
            // descendants of a compact cell come out ascending, and the walk visits compact cells
            // in ascending order of their first descendant, so the output is ascending as it is
            if cell.resolution == resolution {
                out.append(cell)
            } else {
                out.append(contentsOf: try! cell.children(at: resolution))
            }
        }
        return out
    }

    /// The cells of ``polygonToCells(_:resolution:containment:)`` compacted: coarser cells where
    /// all their descendants at `resolution` are in, as the walk finds them (ascending by their
    /// first descendant). The same set as `compact(polygonToCells(…))` for `center`, `full` and
    /// `overlapping`, where the walk takes a coarse cell whole only when its box lies inside.
    public static func polygonToCompactCells(_ polygon: GeoPolygon, resolution: H3Resolution,
                                             containment: ContainmentMode) throws(H3Error) -> [H3Cell] {
        var out: [H3Cell] = []
        try HierarchicalFill(RadianPolygon(polygon), resolution: resolution.rawValue, mode: containment)
            .forEachCompactCell { out.append($0) }
        return out
    }

    /// H3's size estimate for ``polygonToCells(_:resolution:)`` (`maxPolygonToCellsSize`): the
    /// number of cells of a regular hexagon as small as the resolution's most distorted cell
    /// that fit the outer loop's box, at least the vertex count, plus 12. H3 fails a polygon
    /// with more cells than this.
    ///
    /// - Throws: ``H3Error/failed`` when the box has no width or height, or a coordinate is not
    ///   finite.
    public static func maxPolygonToCellsSize(_ polygon: GeoPolygon, resolution: H3Resolution) throws(H3Error) -> Int64 {
        try TracedFlood.sizeEstimate(RadianPolygon(polygon), resolution: resolution.rawValue)
    }

    /// H3's size estimate for ``polygonToCells(_:resolution:containment:)``
    /// (`maxPolygonToCellsSizeExperimental`), whatever the mode: the descendants at `resolution`
    /// of the cells the walk admits in `overlappingBbox` mode at a coarser resolution, the
    /// finest at which the polygon's box holds no more than about 10 average cells. An upper
    /// bound on every mode's count; 0 for an empty outer loop.
    public static func maxPolygonToCellsSizeExperimental(_ polygon: GeoPolygon, resolution: H3Resolution) -> Int64 {
        let radians = RadianPolygon(polygon)
        guard !radians.outer.isEmpty else { return 0 }
        let box = radians.box
        let boxAreaKm2 = box.height * box.width / cos(min(abs(box.north), abs(box.south)))
            * GreatCircle.earthRadiusKilometers * GreatCircle.earthRadiusKilometers
        var coarse = resolution.rawValue
        while coarse > 0,
              boxAreaKm2 / (try! H3Resolution(unchecked: coarse - 1).averageHexagonArea(in: .km2)) > 10 {
            coarse -= 1
        }
        var total: Int64 = 0
        try! HierarchicalFill(radians, resolution: coarse, mode: .overlappingBoundingBox).forEachCompactCell {
            total += try! $0.childrenCount(at: resolution)
        }
        return total
    }
}

// MARK: - the radians H3's region functions work in

extension H3Cell {
    /// The centre in radians (`cellToLatLng` before h3-py's conversion to degrees).
    @inline(__always) var centerRadians: RadianPoint { RadianPoint(faceIJK.vec3(resolution: resolution.rawValue)) }

    /// The boundary in radians (`cellToBoundary`).
    var boundaryRadianPoints: [RadianPoint] {
        var out: [RadianPoint] = []
        out.reserveCapacity(10)
        boundaryRadians { out.append(RadianPoint($0)) }
        return out
    }

    /// The cell holding a point given in radians (`latLngToCell` as the region functions call it,
    /// without a round trip through degrees).
    @inline(__always) static func containing(_ p: RadianPoint, resolution res: Int) throws(H3Error) -> H3Cell {
        guard p.lat.isFinite && p.lng.isFinite else { throw .latLngDomain }
        let index = H3Cell.index(of: FaceIJK(Vec3(latitudeRadians: p.lat, longitudeRadians: p.lng), resolution: res), resolution: res)
        guard index != 0 else { throw .latLngDomain }
        return H3Cell(unchecked: index)
    }

    /// The distance from the centre of the resolution's first pentagon to its first vertex, in
    /// km (`_hexRadiusKm`): the size of the smallest cells, which H3's estimates divide by.
    static func pentagonRadiusKilometers(resolution res: Int) -> Double {
        let pentagon = pentagons(at: H3Resolution(unchecked: res))[0]
        let c = pentagon.centerRadians, v = pentagon.boundaryRadianPoints[0]
        return GreatCircle.distanceRadians((c.lat, c.lng), (v.lat, v.lng)) * GreatCircle.earthRadiusKilometers
    }
}

// MARK: - polygonToCells: trace the loops, flood inward (algos.c)

/// The state of one `polygonToCells` run. H3 keeps its cells in open-addressing tables sized by
/// its estimate and fails when one would overflow; the sets here are unbounded, so the same
/// limits are checked by count where H3 would hit them.
private struct TracedFlood {
    let polygon: RadianPolygon
    let res: Int

    init(_ polygon: RadianPolygon, resolution: Int) {
        self.polygon = polygon
        self.res = resolution
    }

    /// `maxPolygonToCellsSize`.
    static func sizeEstimate(_ polygon: RadianPolygon, resolution res: Int) throws(H3Error) -> Int64 {
        var estimate = try boxEstimate(polygon.box, resolution: res)
        let vertices = polygon.loops.reduce(0) { $0 + $1.count }
        if estimate < Int64(vertices) { estimate = Int64(vertices) }
        return estimate + 12  // POLYGON_TO_CELLS_BUFFER
    }

    /// `bboxHexEstimate`: the box's diagonal squared over its aspect ratio (at most 3), divided
    /// by the area of a regular hexagon of the pentagon's radius, shrunk by 20 %.
    static func boxEstimate(_ box: BoundingBox, resolution res: Int) throws(H3Error) -> Int64 {
        let radius = H3Cell.pentagonRadiusKilometers(resolution: res)
        let pentagonArea = 0.8 * (2.59807621135 * radius * radius)
        let d = GreatCircle.distanceRadians((box.north, box.east), (box.south, box.west)) * GreatCircle.earthRadiusKilometers
        let lngDiff = abs(box.east - box.west)
        let latDiff = abs(box.north - box.south)
        if lngDiff == 0 || latDiff == 0 { throw .failed }
        let length = max(lngDiff, latDiff), width = min(lngDiff, latDiff)
        let a = d * d / min(3.0, length / width)
        let estimate = (a / pentagonArea).rounded(.up)
        guard estimate.isFinite else { throw .failed }
        return max(1, Int64(estimate))
    }

    /// The cells found, in the order found.
    mutating func run() throws(H3Error) -> [UInt64] {
        let capacity = try Self.sizeEstimate(polygon, resolution: res)
        let radius = H3Cell.pentagonRadiusKilometers(resolution: res)

        // 1–2: the cells along every loop (outer and holes) start the search; H3 fails when
        // there are more of them than its estimate
        var traced = IndexSet64(resolution: res)
        var search: [UInt64] = []
        for loop in polygon.loops {
            for i in loop.indices {
                let from = loop[i], to = loop[i + 1 == loop.count ? 0 : i + 1]
                let d = GreatCircle.distanceRadians((from.lat, from.lng), (to.lat, to.lng)) * GreatCircle.earthRadiusKilometers
                let steps = (d / (2 * radius)).rounded(.up)
                guard steps.isFinite else { throw .failed }
                let n = max(1, Int64(steps))
                let inverse = 1.0 / Double(n)
                for j in 0..<n {
                    // H3's interpolation, operation for operation: a different rounding would
                    // trace a different cell now and then
                    let p = RadianPoint(
                        lat: from.lat * Double(n - j) * inverse + to.lat * Double(j) * inverse,
                        lng: from.lng * Double(n - j) * inverse + to.lng * Double(j) * inverse)
                    let cell = try H3Cell.containing(p, resolution: res).rawValue
                    if traced.contains(cell) { continue }
                    if Int64(traced.count) >= capacity { throw .failed }
                    traced.insert(cell)
                    search.append(cell)
                }
            }
        }

        // 4: flood: test every cell of the one-ring (the cell and its neighbours, in gridDisk's
        // order) of the last round's cells; those whose centre is inside are kept and searched
        // from next
        // sized for the estimate, up to 65,536 cells, at once: growing from 32 took 3 % of the
        // run at resolution 11
        var found = IndexSet64(resolution: res, minimumCapacity: Int(min(capacity, 1 << 16)))
        // the centres found outside, so that each is tested once: a cell outside the polygon
        // is a neighbour of up to three cells inside
        var outside = IndexSet64(resolution: res)
        var order: [UInt64] = []
        var next: [UInt64] = []
        var ring: [UInt64] = []
        ring.reserveCapacity(7)
        var interior = InteriorBlocks(polygon, resolution: res)
        while !search.isEmpty {
            for h in search {
                if !GridTraversal.oneRingInsideBaseCell(h, into: &ring) {
                    ring.removeAll(keepingCapacity: true)
                    do {
                        try GridTraversal.spiral(h, k: 1) { ring.append($0) }
                    } catch {
                        // by a pentagon: gridDisk's fallback, in its order
                        ring = try! H3Cell(unchecked: h).gridDisk(k: 1).map(\.rawValue)
                    }
                }
                for neighbor in ring {
                    if found.contains(neighbor) { continue }
                    // H3 looks the cell up in its full table before testing it, and fails there
                    if Int64(found.count) >= capacity { throw .failed }
                    if outside.contains(neighbor) { continue }
                    switch interior.verdict(for: neighbor) {
                    case .insideNewBlock(let block) where Int64(found.count) + 49 < capacity:
                        // the whole block at once (its cells are all inside and joined to
                        // this one), and only the cells on its rim searched from: the rings
                        // of the others lie in the block
                        InteriorBlocks.forEachCell(of: block, resolution: res) { cell, onRim in
                            if found.contains(cell) { return }
                            found.insert(cell)
                            order.append(cell)
                            if onRim { next.append(cell) }
                        }
                        continue
                    case .notKnown:
                        guard polygon.contains(H3Cell(unchecked: neighbor).centerRadians) else {
                            outside.insert(neighbor)
                            continue
                        }
                    case .inside, .insideNewBlock:
                        break
                    }
                    found.insert(neighbor)
                    order.append(neighbor)
                    next.append(neighbor)
                }
            }
            swap(&search, &next)
            next.removeAll(keepingCapacity: true)
        }
        return order
    }
}

/// Coarser cells (blocks) whose descendants' centres all lie inside the polygon, so that the
/// flood need not compute those centres: a cell's centre is what costs most in the flood (its
/// face coordinates, six calls of the C library's maths, then the ray cast), and most cells of
/// a polygon many cells wide are far from its edges.
///
/// A block counts when H3's box around all its descendants (`cellToBBox` with
/// `CHILD_SCALE_FACTOR`, which H3's experimental `polygonToCells` relies on in the same way, and
/// which `InteriorBlocksTests` checks on random blocks' descendants), grown by ``margin`` on
/// every side, lies inside the polygon as `cellBoundaryInsidePolygon` decides it. Then every
/// centre in the block is at least about ``margin`` from every edge of the polygon, so the ray
/// cast, whose rounding is some 10⁻¹⁶ radians, says "inside" for it: the same answer as
/// computing it. Blocks near a pole or the antimeridian are not tried (their boxes wrap).
/// Each block is decided once; the flood then takes a new block's cells all at once.
struct InteriorBlocks {
    /// How far inside the polygon every centre of a counted block is at least, in radians
    /// (about 6 mm), far above the ray cast's rounding and far below a cell at resolution 15.
    static let margin = 1e-9
    /// How many resolutions a block is above the cells: 49 cells a block. At 3 levels (343
    /// cells) the blocks along the edges held more cells to compute one by one: the city
    /// polygon's flood took 201 M instructions at resolution 11 against 175 M at 2 (callgrind,
    /// before blocks were taken whole).
    static let levels = 2

    let polygon: RadianPolygon
    /// The blocks' resolution; -1 for none (cells of resolutions 0 and 1).
    let blockResolution: Int
    private var inside: IndexSet64
    private var notInside: IndexSet64

    init(_ polygon: RadianPolygon, resolution res: Int) {
        self.polygon = polygon
        blockResolution = res - Self.levels
        inside = IndexSet64(resolution: max(blockResolution, 0))
        notInside = IndexSet64(resolution: max(blockResolution, 0))
    }

    enum Verdict {
        /// Not known: the centre must be computed.
        case notKnown
        /// Inside, in a block decided before.
        case inside
        /// Inside, in a block of a hexagon base cell decided now: the flood may take the
        /// block's cells at once (``forEachCell(of:resolution:_:)``).
        case insideNewBlock(UInt64)
    }

    /// Whether the centre of `cell` is surely inside the polygon.
    @inline(__always) mutating func verdict(for cell: UInt64) -> Verdict {
        guard blockResolution >= 0 else { return .notKnown }
        let block = H3IndexBits.truncated(cell, toResolution: blockResolution)
        if inside.contains(block) { return .inside }
        if notInside.contains(block) { return .notKnown }
        guard decide(block) else {
            notInside.insert(block)
            return .notKnown
        }
        inside.insert(block)
        return BaseCells.isPentagon(H3IndexBits.baseCell(block)) ? .inside : .insideNewBlock(block)
    }

    /// Calls `body` with each of the 49 cells of resolution `res` in `block` (of a hexagon base
    /// cell), and whether the cell is on the block's rim: one of its six neighbours lies outside
    /// the block. Inside a hexagon base cell that depends only on the cell's last two digits and
    /// the resolution's class (``rim``).
    static func forEachCell(of block: UInt64, resolution res: Int, _ body: (UInt64, Bool) -> Void) {
        let row = (res & 1) * 49
        let top = H3IndexBits.setResolution(block, res)
        for d1 in 0..<7 {
            for d2 in 0..<7 {
                let cell = H3IndexBits.setDigit(H3IndexBits.setDigit(top, res - 1, Direction(unchecked: UInt8(d1))),
                                                res, Direction(unchecked: UInt8(d2)))
                body(cell, rim[row + d1 * 7 + d2])
            }
        }
    }

    /// `rim[(res & 1) · 49 + d1 · 7 + d2]`: whether a cell whose last two digits are d1, d2 has a
    /// neighbour outside its block (the cell two resolutions up), inside a hexagon base cell: a
    /// move from it in some direction carries past digit d1 (``DigitSteps``, whose tables depend
    /// on the resolution's class alone).
    static let rim: [Bool] = (0..<2).flatMap { parity -> [Bool] in
        let res = 10 + parity  // any resolution of that class, 2 or finer
        return (0..<49).map { pattern in
            let d1 = pattern / 7, d2 = pattern % 7
            return (1...6).contains { direction in
                let first = DigitSteps.table[DigitSteps.index(resolution: res, digit: d2, direction: direction)]
                let carry = Int(first >> 3)
                guard carry != 0 else { return false }
                let second = DigitSteps.table[DigitSteps.index(resolution: res - 1, digit: d1, direction: carry)]
                return second >> 3 != 0
            }
        }
    }

    private func decide(_ block: UInt64) -> Bool {
        var box = HierarchicalFill.box(of: H3Cell(unchecked: block), coveringChildren: true)
        let limit = H3Constants.m_pi_2 - 0.1
        guard !box.isTransmeridian, box.north < limit, box.south > -limit,
              box.east < H3Constants.m_pi - 0.1, box.west > -H3Constants.m_pi + 0.1 else { return false }
        box.north += Self.margin
        box.south -= Self.margin
        box.east += Self.margin
        box.west -= Self.margin
        return polygon.box.contains(box) && polygon.containsBoundary(box.corners, box: box)
    }
}

/// A set of non-zero 64-bit indexes of one resolution: open addressing with linear probing,
/// a power-of-two table kept at most half full. The flood above asks it about every cell of
/// every one-ring; Swift's `Set` spent a tenth of the run in `Hasher` there (perf, res 11).
///
/// The slot keeps the cell's finest digit in place, in a block of 8 slots, and scatters the
/// blocks by a multiplicative hash of the coarser digits and the base cell: a cell's siblings,
/// often its neighbours, share its block. With the whole index hashed, the load of a slot
/// was a cache miss each, a fifth of the run at resolution 11 (a 2 MB table). Larger blocks
/// (the finest 5 digits in place) made linear probing collapse: the dense blocks of two
/// coarse cells overlapped, 1.8 s a call at resolution 11.
struct IndexSet64 {
    private var slots: [UInt64]
    private var bits: UInt64  // log2(slots.count)
    private let unitShift: UInt64  // the offset of the finest digit
    private(set) var count = 0

    /// An empty set of cells of resolution `res` that holds `minimumCapacity` of them before
    /// it grows.
    init(resolution res: Int, minimumCapacity: Int = 32) {
        var bits: UInt64 = 6
        while 1 << bits < 2 * minimumCapacity { bits += 1 }
        slots = [UInt64](repeating: 0, count: 1 << bits)
        self.bits = bits
        unitShift = H3IndexBits.digitOffset(max(res, 1))
    }

    @inline(__always) private func slot(_ h: UInt64) -> Int {
        let v = h &>> unitShift
        // siblings (the finest digit) together in a block of 8, blocks scattered
        let scatter = ((v &>> 3) &* 0x9E37_79B9_7F4A_7C15) &>> (64 &- bits)
        return Int(truncatingIfNeeded: (v & 7) | (scatter & ~7))
    }

    @inline(__always) func contains(_ h: UInt64) -> Bool {
        var i = slot(h)
        let mask = slots.count - 1
        while true {
            let v = slots[i]
            if v == h { return true }
            if v == 0 { return false }
            i = (i + 1) & mask
        }
    }

    /// Inserts `h` (non-zero), which is not in the set.
    @inline(__always) mutating func insert(_ h: UInt64) {
        if (count + 1) * 2 > slots.count { grow() }
        var i = slot(h)
        let mask = slots.count - 1
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = h
        count += 1
    }

    private mutating func grow() {
        let old = slots
        bits += 1
        slots = [UInt64](repeating: 0, count: 1 << bits)
        count = 0
        for h in old where h != 0 { insert(h) }
    }
}

// MARK: - polygonToCellsExperimental: the hierarchical walk (polyfill.c)

/// The walk over the global hierarchy of `iterStepPolygonCompact`.
struct HierarchicalFill {
    let polygon: RadianPolygon
    let res: Int
    let mode: ContainmentMode

    /// How much a cell's box is grown to hold the cell (`CELL_SCALE_FACTOR`) or all its
    /// descendants (`CHILD_SCALE_FACTOR`); H3 found both by exhaustive tests.
    static let cellScale = 1.1
    static let childScale = 1.4

    init(_ polygon: RadianPolygon, resolution: Int, mode: ContainmentMode) {
        self.polygon = polygon
        self.res = resolution
        self.mode = mode
    }

    /// Calls `body` with each compact cell in the walk's order.
    func forEachCompactCell(_ body: (H3Cell) throws(H3Error) -> Void) throws(H3Error) {
        guard !polygon.outer.isEmpty else { return }
        var next: UInt64? = H3Cell.resolution0Cells[0].rawValue
        while let h = next {
            let cell = H3Cell(unchecked: h)
            let cellRes = cell.resolution.rawValue
            if cellRes == res, try admits(cell) {
                try body(cell)
                next = Self.successor(h)
                continue
            }
            if cellRes < res {
                let box = Self.box(of: cell, coveringChildren: true)
                if polygon.box.overlaps(box) {
                    // all descendants are in when the box around them is inside the polygon
                    if polygon.box.contains(box) && polygon.containsBoundary(box.corners, box: box) {
                        try body(cell)
                        next = Self.successor(h)
                        continue
                    }
                    next = try! cell.centerChild(at: H3Resolution(unchecked: cellRes + 1)).rawValue
                    continue
                }
            }
            next = Self.successor(h)
        }
    }

    /// The fine test at the target resolution, by mode.
    private func admits(_ cell: H3Cell) throws(H3Error) -> Bool {
        if mode != .full, polygon.contains(cell.centerRadians) { return true }
        if mode == .overlapping || mode == .overlappingBoundingBox {
            // the polygon may lie wholly inside the cell: its first vertex would be in it
            let first = polygon.outer[0]
            if BoundingBox.validRange.contains(first),
               try H3Cell.containing(first, resolution: res) == cell {
                return true
            }
        }
        if mode != .center {
            let boundary = cell.boundaryRadianPoints
            let box = Self.box(of: cell, coveringChildren: false)
            if mode == .full || mode == .overlappingBoundingBox {
                if polygon.containsBoundary(boundary, box: box) { return true }
            }
            if mode == .overlapping || mode == .overlappingBoundingBox {
                // a cell that passed none of the tests above can only meet the polygon at an edge
                if polygon.crosses(boundary, box: box) { return true }
            }
        }
        if mode == .overlappingBoundingBox {
            let box = Self.box(of: cell, coveringChildren: true)
            if polygon.box.overlaps(box) {
                let corners = box.corners
                if box.contains(polygon.box) || polygon.contains(corners[0]) || polygon.crosses(corners, box: box) {
                    return true
                }
            }
        }
        return false
    }

    /// A box around the cell, or around all its descendants (`cellToBBox`): the resolution's
    /// longest edge around the centre, widened by 1/cos(latitude), then grown; a box that
    /// reaches a pole takes in every longitude.
    static func box(of cell: H3Cell, coveringChildren: Bool) -> BoundingBox {
        let res = cell.resolution.rawValue
        var box: BoundingBox
        if res == 0 {
            box = PolyfillTables.resolution0Boxes[cell.baseCellNumber]
        } else {
            let c = cell.centerRadians
            let edge = PolyfillTables.maxEdgeLengthRadians[res]
            let lngRatio = 1 / cos(c.lat)
            box = BoundingBox(north: c.lat + edge, south: c.lat - edge,
                              east: c.lng + edge * lngRatio, west: c.lng - edge * lngRatio)
        }
        box.scale(by: coveringChildren ? childScale : cellScale)
        if cell.rawValue == PolyfillTables.northPoleCells[res] { box.north = H3Constants.m_pi_2 }
        if cell.rawValue == PolyfillTables.southPoleCells[res] { box.south = -H3Constants.m_pi_2 }
        if box.north == H3Constants.m_pi_2 || box.south == -H3Constants.m_pi_2 {
            box.east = H3Constants.m_pi
            box.west = -H3Constants.m_pi
        }
        return box
    }

    /// The next cell of the walk after `h` and its descendants: the next sibling (a pentagon's
    /// children skip the deleted digit 1), else the parent's next sibling, up to the next base
    /// cell; `nil` after the last (`nextCell`).
    static func successor(_ start: UInt64) -> UInt64? {
        var h = start
        var res = H3IndexBits.resolution(h)
        while true {
            if res == 0 {
                let base = H3IndexBits.baseCell(h) + 1
                return base < BaseCells.count ? H3Cell.resolution0Cells[base].rawValue : nil
            }
            let parent = H3IndexBits.setDigit(H3IndexBits.setResolution(h, res - 1), res, Direction(unchecked: 7))
            let digit = H3IndexBits.digit(h, res).rawValue
            if digit < 6 {
                let skip: UInt8 = H3Cell(unchecked: parent).isPentagon && digit == 0 ? 2 : 1
                return H3IndexBits.setDigit(h, res, Direction(unchecked: digit + skip))
            }
            res -= 1
            h = parent
        }
    }
}
