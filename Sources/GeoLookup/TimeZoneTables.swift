import H3Core

/// The mapped sections of `data/timezones.bin`, as a trivial value (the lookup copies it without
/// reference counting), and the lookup's steps over them. Every index read here was checked when
/// the file was opened (``TimeZoneIndex/init(path:)``), so the unchecked pointer reads stay
/// inside the mapping; only the edge bytes are not decoded at open, and their decoding can
/// neither read past its block nor trap, whatever the bytes (see ``blockFlips(_:x:y:)``).
///
/// What timezonefinder 9.0.0's `timezone_at` does, and so what this does, is written step by step
/// in `scripts/dev/timezones/SPEC.md` (with the package's files and lines for each step).
struct TimeZoneTables: @unchecked Sendable {
    typealias L = TimeZoneFileLayout

    let polygonZone: UnsafeBufferPointer<UInt16>
    /// Four per polygon: xmin, xmax, ymin, ymax.
    let polygonBox: UnsafeBufferPointer<Int32>
    /// Two per polygon: first hole, hole count.
    let polygonHoles: UnsafeBufferPointer<UInt32>
    /// Four per polygon: x0, x1, y0, y1, the union of its holes' boxes.
    let holeUnion: UnsafeBufferPointer<Int32>
    let holeRing: UnsafeBufferPointer<UInt32>
    /// Four per hole: xmin, xmax, ymin, ymax.
    let holeBox: UnsafeBufferPointer<Int32>
    /// Ring r's groups are `ringGroups[r] ..< ringGroups[r + 1]`.
    let ringGroups: UnsafeBufferPointer<UInt32>
    /// ``TimeZoneFileLayout/groupFields`` per group, and a last group that only ends the one before.
    let groups: UnsafeBufferPointer<Int32>
    let ringBlocks: UnsafeBufferPointer<UInt32>
    /// ``TimeZoneFileLayout/blockFields`` per block.
    let blocks: UnsafeBufferPointer<Int32>
    let edgeData: UnsafeBufferPointer<UInt8>
    let slots: UnsafeBufferPointer<UInt16>
    let listStart: UnsafeBufferPointer<UInt32>
    let listStop: UnsafeBufferPointer<UInt16>
    let listPolygons: UnsafeBufferPointer<UInt16>
    let tiles: UnsafeBufferPointer<UInt32>
    let nodes: UnsafeBufferPointer<UInt32>

    // MARK: the acceleration tree

    /// The tree's entry for a point in range: a zone id (below ``TimeZoneFileLayout/kindNode``)
    /// that is the answer for every point of its box, or ``TimeZoneFileLayout/entryCell``.
    ///
    /// - Complexity: O(depth), at most ``TimeZoneFileLayout/maxDepth`` (4 in the bundled file).
    @inline(__always)
    func treeEntry(latitude: Double, longitude: Double) -> UInt32 {
        TileQuadtree.leaf(latitude: latitude, longitude: longitude, tiles: tiles, nodes: nodes)
    }

    // MARK: the shortcut of the H3 cell

    /// The slot value of the point's resolution-4 cell: a zone id, `0x8000 | list`, or
    /// ``TimeZoneFileLayout/slotEmpty`` (for no valid cell: unreachable).
    ///
    /// - Complexity: O(1): `latLngToCell` at resolution 4 and one table read.
    @inline(__always)
    func cellSlot(latitude: Double, longitude: Double) -> UInt16 {
        // from the float degrees, as the package (SPEC.md §2); finite: the caller checked the range
        guard let cell = try? H3Cell(LatLng(latitude: latitude, longitude: longitude), resolution: L.resolution)
        else { return L.slotEmpty }
        // a valid resolution-4 cell: base cell < 122 and digits 1...4 in 0...6, so the slot is
        // below 122 · 7⁴, the table's size (checked at open)
        var slot = cell.baseCellNumber
        for r in 1...L.resolution.rawValue {
            let digit = (try? cell.indexDigit(at: H3Resolution(rawValue: r) ?? .coarsest)) ?? 0
            slot = slot &* 7 &+ digit
        }
        return slots[slot]
    }

    // MARK: candidate lists

    /// The zone a candidate list gives a point (SPEC.md §3): the first of the candidates before
    /// the stop index whose polygon holds the point, else the last candidate's zone, untested.
    ///
    /// - Parameters:
    ///   - list: the list's number.
    ///   - x: `trunc(longitude × 1e7)`.
    ///   - y: `trunc(latitude × 1e7)`.
    /// - Complexity: the polygon tests of ``polygonContains(_:x:y:)`` for up to `stop` candidates.
    func listZone(_ list: Int, x: Int64, y: Int64) -> UInt16 {
        let start = Int(listStart[list]), end = Int(listStart[list &+ 1]), stop = Int(listStop[list])
        var i = start
        while i < start &+ stop {
            let p = Int(listPolygons[i])
            if polygonContains(p, x: x, y: y) { return polygonZone[p] }
            i &+= 1
        }
        return polygonZone[Int(listPolygons[end &- 1])]
    }

    /// Whether boundary polygon `p` holds the point (timezonefinder's `inside_of_polygon`, SPEC.md
    /// §5): its bounding box (strict comparisons), then its holes (an inclusive union box, then
    /// each hole's strict box and ring), then its own ring. The boxes contain their rings, so
    /// they only save work; the order of the checks is the package's.
    @inline(__always)
    func polygonContains(_ p: Int, x: Int64, y: Int64) -> Bool {
        let b = L.boxFields &* p
        if x > Int64(polygonBox[b &+ 1]) || x < Int64(polygonBox[b]) || y > Int64(polygonBox[b &+ 3]) || y < Int64(polygonBox[b &+ 2]) {
            return false
        }
        if x >= Int64(holeUnion[b]), x <= Int64(holeUnion[b &+ 1]), y >= Int64(holeUnion[b &+ 2]), y <= Int64(holeUnion[b &+ 3]) {
            let first = Int(polygonHoles[2 &* p]), count = Int(polygonHoles[2 &* p &+ 1])
            var h = first
            while h < first &+ count {
                let hb = L.boxFields &* h
                let outside = x > Int64(holeBox[hb &+ 1]) || x < Int64(holeBox[hb]) || y > Int64(holeBox[hb &+ 3]) || y < Int64(holeBox[hb &+ 2])
                if !outside && ringContains(Int(holeRing[h]), x: x, y: y) { return false }
                h &+= 1
            }
        }
        return ringContains(p, x: x, y: y)
    }

    // MARK: ray casting

    /// Even-odd ray casting toward +x over ring `r`'s edges, block by block (SPEC.md §6): the
    /// parity of the edges that flip, over the ring's blocks whose exact y range holds `y` and
    /// whose largest x is not below `x` (an edge wholly west of the point, or whose y range
    /// misses it, never flips), found group by group (sixteen blocks under one header with the
    /// union of their ranges: near borders 59 header reads a test instead of 342). A ring's
    /// blocks may be shared with the ring across a border; the parity does not depend on the
    /// edges' order or direction.
    ///
    /// - Complexity: O(groups of the ring) header reads, then those of the blocks of the groups
    ///   that pass, plus the edges of the blocks that pass (up to 128 each).
    @inline(__always)
    func ringContains(_ r: Int, x: Int64, y: Int64) -> Bool {
        var odd = false
        var g = Int(ringGroups[r])
        let lastGroup = Int(ringGroups[r &+ 1])
        while g < lastGroup {
            let gh = L.groupFields &* g
            g &+= 1
            if y < Int64(groups[gh &+ L.groupYMin]) || y > Int64(groups[gh &+ L.groupYMax]) || x > Int64(groups[gh &+ L.groupXMax]) {
                continue
            }
            var k = Int(groups[gh &+ L.groupFirst])
            let end = Int(groups[gh &+ L.groupFields &+ L.groupFirst])
            while k < end {
                let h = L.blockFields &* Int(ringBlocks[k])
                k &+= 1
                if y < Int64(blocks[h &+ L.blockYMin]) || y > Int64(blocks[h &+ L.blockYMax]) || x > Int64(blocks[h &+ L.blockXMax]) {
                    continue
                }
                if blockFlips(h, x: x, y: y) { odd.toggle() }
            }
        }
        return odd
    }

    /// The parity of the flipping edges of the block whose header starts at `h`.
    ///
    /// An edge (x1, y1)–(x2, y2) flips when `(y > y1) != (y > y2)` and the point is at or west
    /// of the edge at height y: both ends east (`x <= x1 && x <= x2`), or, with one end east,
    /// by the exact integer comparison of `(y2 − y)(x2 − x1)` with `(y2 − y1)(x2 − x)`, whose
    /// direction depends on which end is below (timezonefinder's `inside_polygon_int.c`,
    /// lines 167–195). The products are below 1.8e9 · 3.6e9 ≈ 6.5e18 < 2⁶³ for valid data; the
    /// arithmetic wraps rather than traps, so damaged bytes give a wrong parity, never a crash.
    ///
    /// The block's bytes end with a varint's last byte and hold an even number of varints
    /// (checked at open), so reading pairs while `pos < end` never passes the block.
    @inline(__always)
    func blockFlips(_ h: Int, x: Int64, y: Int64) -> Bool {
        let data = edgeData.baseAddress.unsafelyUnwrapped
        var pos = Int(blocks[h &+ L.blockDataStart])
        let end = Int(blocks[h &+ L.blockDataEnd])
        var u = Int64(blocks[h &+ L.blockX0]), v = Int64(blocks[h &+ L.blockY0])
        var x1 = u &* L.vertexScale, y1 = v &* L.vertexScale
        var odd = false
        while pos < end {
            u &+= Self.zigzagVarint(data, &pos)
            v &+= Self.zigzagVarint(data, &pos)
            let x2 = u &* L.vertexScale, y2 = v &* L.vertexScale
            let above1 = y > y1
            if above1 != (y > y2) {
                let east1 = x <= x1, east2 = x <= x2
                if east1 && east2 {
                    odd.toggle()
                } else if east1 != east2 {
                    let slope1 = (y2 &- y) &* (x2 &- x1)
                    let slope2 = (y2 &- y1) &* (x2 &- x)
                    if above1 ? slope1 <= slope2 : slope1 >= slope2 { odd.toggle() }
                }
            }
            x1 = x2
            y1 = y2
        }
        return odd
    }

    /// One zigzag LEB128 varint at `pos` (advanced past it): 7 bits a byte, low first, the high
    /// bit set on all but the last byte; zigzag maps 0, 1, 2, 3 to 0, −1, 1, −2.
    @inline(__always)
    static func zigzagVarint(_ data: UnsafePointer<UInt8>, _ pos: inout Int) -> Int64 {
        var byte = data[pos]
        pos &+= 1
        var value = UInt64(byte & 0x7F)
        var shift: UInt64 = 7
        while byte >= 0x80 {
            byte = data[pos]
            pos &+= 1
            // (a masking shift: a damaged run of continuation bytes cannot trap)
            value |= UInt64(byte & 0x7F) &<< shift
            shift &+= 7
        }
        return Int64(bitPattern: (value &>> 1) ^ (0 &- (value & 1)))
    }
}
