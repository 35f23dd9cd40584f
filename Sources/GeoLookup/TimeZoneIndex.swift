/// The time zone of a point, `data/timezones.bin` memory-mapped: the answer of PyPI
/// `timezonefinder==9.0.0`'s `TimezoneFinder().timezone_at(lng:lat:)` with its data package
/// `timezonefinder-data==3.2026.3.post1` (timezone-boundary-builder 2026c), bit for bit.
///
/// The rule (`scripts/dev/timezones/SPEC.md`): the point's H3 resolution-4 cell, computed from
/// the float degrees, names one zone (the answer, untested) or a list of candidate polygons;
/// those before the list's stop index are tested in order on the point as the integers
/// `trunc(degrees × 1e7)` (even-odd ray casting with exact integer rules, then holes), the first
/// that holds it wins, and when none does, the zone of the list's last candidate, untested.
///
/// How it is fast: a grid of 1° tiles refined by a quadtree (four levels, boxes of 1/16°) names
/// the zone outright wherever the builder proved it is the answer for every point of the box:
/// every resolution-4 cell that can hold a point of the box gives that zone there, by its single
/// zone or by its candidate list evaluated on the box's whole integer rectangle. Every city point
/// of the benchmarks' twelve Canadian cities is answered so, without H3 or a polygon test. The
/// other points (near zone borders, within 3° of the antimeridian, beyond 80° of latitude) take
/// the package's own path: the cell, then the candidate polygons, whose 4.1 M distinct edges lie
/// in blocks of 128 with exact y and x ranges, so a test reads only the blocks at the point's
/// latitude east of it.
///
/// Thread safety: the mapping is read-only and the index holds no mutable state, so one
/// instance serves any number of threads.
public final class TimeZoneIndex: Sendable {
    typealias L = TimeZoneFileLayout

    /// The file the index reads.
    public let file: DataFile
    /// The sections, read in place.
    let tables: TimeZoneTables
    /// Number of zones (444 for 2026c), the same as ``TimeZoneID/count``.
    public let zoneCount: Int
    /// Number of boundary polygons (1,322 for 2026c).
    public let polygonCount: Int
    /// Number of quadtree nodes below the tiles.
    public let nodeCount: Int

    /// Opens a time-zone file and validates its structure, so that no lookup can fail or trap on
    /// it later, and that its zones are the ones compiled into ``TimeZoneID/names``.
    ///
    /// - Parameter path: the file, normally `data/timezones.bin`.
    /// - Throws: ``DataFileError`` naming the file and what is wrong with it: unreadable,
    ///   truncated, another kind of file or version, a checksum mismatch, or (for a file whose
    ///   checksum matches but whose content is inconsistent or whose zone names differ from this
    ///   build's) `corrupt` with the first problem.
    /// - Complexity: O(n) in the file size: the checksum, one pass over every table, and a count
    ///   of the varints' last bytes in each block: `lookup --timezone` starts about 11 ms later
    ///   than `lookup` (44 ms), the checksum of the 21 MB and the pages the checks read again.
    public init(path: String) throws(DataFileError) {
        let file = try DataFile(path: path, magic: L.magic, version: L.version)
        func corrupt(_ m: String) -> DataFileError { DataFileError(path: path, .corrupt(m)) }
        var offset = 0
        func section<T>(_ t: T.Type, _ count: Int) throws(DataFileError) -> UnsafeBufferPointer<T> {
            let b = try file.array(of: t, at: offset, count: count)
            offset += (MemoryLayout<T>.stride * count + 7) & ~7
            return b
        }
        let params = try section(UInt32.self, L.parameterCount)
        func param(_ i: Int) -> Int { Int(params[i]) }
        typealias P = L.Parameter
        let zones = param(P.zones), polygons = param(P.polygons), holes = param(P.holes), rings = param(P.rings)
        let blockCount = param(P.blocks), ringBlockCount = param(P.ringBlocks), edgeBytes = param(P.edgeBytes)
        let lists = param(P.lists), listEntries = param(P.listEntries), nodeCount = param(P.nodes), groupCount = param(P.groups)
        guard file.counts == [UInt64(zones), UInt64(polygons), UInt64(holes), UInt64(rings)] else {
            throw corrupt("the header's counts \(file.counts) differ from the parameters \(Array(params[0..<4]))")
        }
        guard param(P.resolution) == L.resolution.rawValue, param(P.tilesPerDegree) == 1, param(P.slots) == L.slotCount,
              param(P.maxDepth) <= L.maxDepth else {
            throw corrupt("unknown layout parameters \(Array(params)) (resolution 4, 1 tile per degree, \(L.slotCount) slots)")
        }
        // polygon and zone ids are stored in 16 bits, list numbers in 15 (a slot's high bit says "list")
        guard zones > 0, zones < Int(L.slotList), polygons > 0, polygons <= Int(UInt16.max) + 1, rings >= polygons,
              lists < Int(L.slotList) - 1, nodeCount < Int(L.valueMask), blockCount > 0, groupCount >= rings
        else { throw corrupt("implausible parameters \(Array(params))") }

        let nameStart = try section(UInt32.self, zones + 1)
        let nameBytes = try section(UInt8.self, param(P.nameBytes))
        // (the sections in the file's order: the arguments are evaluated left to right)
        let tables = try TimeZoneTables(
            polygonZone: section(UInt16.self, polygons),
            polygonBox: section(Int32.self, L.boxFields * polygons),
            polygonHoles: section(UInt32.self, 2 * polygons),
            holeUnion: section(Int32.self, L.boxFields * polygons),
            holeRing: section(UInt32.self, holes),
            holeBox: section(Int32.self, L.boxFields * holes),
            ringGroups: section(UInt32.self, rings + 1),
            groups: section(Int32.self, L.groupFields * (groupCount + 1)),
            ringBlocks: section(UInt32.self, ringBlockCount),
            blocks: section(Int32.self, L.blockFields * blockCount),
            edgeData: section(UInt8.self, edgeBytes),
            slots: section(UInt16.self, L.slotCount),
            listStart: section(UInt32.self, lists + 1),
            listStop: section(UInt16.self, lists),
            listPolygons: section(UInt16.self, listEntries),
            tiles: section(UInt32.self, L.tileRows * L.tileColumns),
            nodes: section(UInt32.self, L.childrenPerNode * nodeCount))
        guard offset == file.payload.count else { throw corrupt("payload of \(file.payload.count) bytes, its sections need \(offset)") }

        do throws(TimeZoneFileProblem) {
            try Self.checkNames(nameStart: nameStart, nameBytes: nameBytes)
            try Self.checkPolygons(tables, zones: zones, holes: holes, rings: rings, groups: groupCount, blocks: blockCount)
            try Self.checkBlocks(tables)
            try Self.checkShortcuts(tables, zones: zones, polygons: polygons)
            try Self.checkTree(tables, zones: zones, maxDepth: param(P.maxDepth))
        } catch {
            throw corrupt(error.message)
        }
        // the checks read every page once; lookups keep resident only what they touch
        file.releaseAllPages()
        self.file = file
        self.tables = tables
        zoneCount = zones
        polygonCount = polygons
        self.nodeCount = nodeCount
    }

    /// The time zone of a point, as `TimezoneFinder().timezone_at(lng: longitude, lat: latitude)`.
    ///
    /// - Parameters:
    ///   - latitude: degrees, −90...90 (both ends included, as the package).
    ///   - longitude: degrees, −180...180; no wrapping: −180 and 180 are different points
    ///     (SPEC.md §7).
    /// - Returns: the zone; `nil` for a coordinate out of range or not a number (where the
    ///   package raises `ValueError`). Every point in range has a zone (the ocean zones
    ///   `Etc/GMT±N` cover the globe).
    /// - Complexity: O(1) where the tree answers (most points: a tile and up to four node
    ///   reads, tens of nanoseconds); elsewhere `latLngToCell` at resolution 4 and, in a cell
    ///   that several zones share, the candidate polygons' tests (microseconds near a long
    ///   coastline).
    public func zone(latitude: Double, longitude: Double) -> TimeZoneID? {
        // the package's range check: inclusive bounds; NaN fails every comparison
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        let tables = self.tables
        let entry = tables.treeEntry(latitude: latitude, longitude: longitude)
        if entry < L.kindNode { return TimeZoneID(unchecked: UInt16(truncatingIfNeeded: entry)) }
        return cellZone(tables, latitude: latitude, longitude: longitude)
    }

    /// ``zone(latitude:longitude:)`` without the tree: the package's own path for every point
    /// (for the tests, which check that both agree, and for measuring what the tree saves).
    func zoneWithoutTree(latitude: Double, longitude: Double) -> TimeZoneID? {
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        return cellZone(tables, latitude: latitude, longitude: longitude)
    }

    @inline(__always)
    private func cellZone(_ tables: TimeZoneTables, latitude: Double, longitude: Double) -> TimeZoneID? {
        let slot = tables.cellSlot(latitude: latitude, longitude: longitude)
        if slot < L.slotList { return TimeZoneID(unchecked: slot) }
        guard slot != L.slotEmpty else { return nil }
        // trunc(d × 1e7): the product rounded to nearest, then toward zero, as Python's
        // int(d * 10**7) (SPEC.md §4; not floor, not round); in range, so no trap
        let x = Int64(longitude * L.coordinateFactor), y = Int64(latitude * L.coordinateFactor)
        return TimeZoneID(unchecked: tables.listZone(Int(slot & ~L.slotList), x: x, y: y))
    }
}

/// What is wrong inside a time-zone file whose checksum matches.
struct TimeZoneFileProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension TimeZoneIndex {
    /// The file's zone names must be the compiled table's, id for id.
    static func checkNames(nameStart: UnsafeBufferPointer<UInt32>, nameBytes: UnsafeBufferPointer<UInt8>) throws(TimeZoneFileProblem) {
        let zones = nameStart.count - 1
        guard zones == TimeZoneID.count else {
            throw TimeZoneFileProblem("it has \(zones) zones, this build's table (Sources/GeoModel/TimeZoneNames.swift) \(TimeZoneID.count)")
        }
        guard nameStart[0] == 0, Int(nameStart[zones]) == nameBytes.count else { throw TimeZoneFileProblem("the zone names' offsets do not span their bytes") }
        for z in 0..<zones {
            let a = Int(nameStart[z]), b = Int(nameStart[z + 1])
            guard a <= b, b <= nameBytes.count else { throw TimeZoneFileProblem("the offsets of zone \(z)'s name are out of order") }
            let stored = UnsafeBufferPointer(rebasing: nameBytes[a..<b])
            let compiled = TimeZoneID.names[z]
            let equal = compiled.withUTF8Buffer { $0.elementsEqual(stored) }
            guard equal else {
                throw TimeZoneFileProblem("zone \(z) is \(String(decoding: stored, as: UTF8.self).debugDescription) in the file but "
                    + "\(compiled.description.debugDescription) in this build's table (Sources/GeoModel/TimeZoneNames.swift); "
                    + "the file and the build come from different data")
            }
        }
    }

    /// Zones, holes, rings, groups and blocks referenced by the polygons, rings and groups exist;
    /// each ring has groups and each group blocks, in order.
    static func checkPolygons(_ t: TimeZoneTables, zones: Int, holes: Int, rings: Int, groups: Int, blocks: Int) throws(TimeZoneFileProblem) {
        for p in 0..<t.polygonZone.count {
            guard Int(t.polygonZone[p]) < zones else { throw TimeZoneFileProblem("polygon \(p) has zone \(t.polygonZone[p]) of \(zones)") }
            let first = Int(t.polygonHoles[2 * p]), count = Int(t.polygonHoles[2 * p + 1])
            guard first <= holes, count <= holes - first else {
                throw TimeZoneFileProblem("polygon \(p) names holes \(first)..<\(first + count) of \(holes)")
            }
        }
        for h in 0..<t.holeRing.count where Int(t.holeRing[h]) >= rings {
            throw TimeZoneFileProblem("hole \(h) names ring \(t.holeRing[h]) of \(rings)")
        }
        guard t.ringGroups[0] == 0, Int(t.ringGroups[rings]) == groups else {
            throw TimeZoneFileProblem("the rings' offsets do not span their \(groups) groups")
        }
        for r in 0..<rings where t.ringGroups[r] >= t.ringGroups[r + 1] {
            throw TimeZoneFileProblem("ring \(r) has no group, or its offsets are out of order")
        }
        func first(_ g: Int) -> Int { Int(t.groups[L.groupFields * g + L.groupFirst]) }
        guard first(0) == 0, first(groups) == t.ringBlocks.count else {
            throw TimeZoneFileProblem("the groups do not span the \(t.ringBlocks.count) block references")
        }
        for g in 0..<groups where first(g) >= first(g + 1) {
            throw TimeZoneFileProblem("group \(g) has no block, or its offsets are out of order")
        }
        for k in 0..<t.ringBlocks.count where Int(t.ringBlocks[k]) >= blocks {
            throw TimeZoneFileProblem("a ring names block \(t.ringBlocks[k]) of \(blocks)")
        }
    }

    /// Each block's bytes lie in the edge data, are not empty, end with a varint's last byte and
    /// hold an even number of varints: the decoder then never reads past its block.
    static func checkBlocks(_ t: TimeZoneTables) throws(TimeZoneFileProblem) {
        let data = t.edgeData
        for b in 0..<(t.blocks.count / L.blockFields) {
            let start = Int(t.blocks[L.blockFields * b + L.blockDataStart]), end = Int(t.blocks[L.blockFields * b + L.blockDataEnd])
            guard start >= 0, start < end, end <= data.count, data[end - 1] < 0x80 else {
                throw TimeZoneFileProblem("block \(b)'s bytes \(start)..<\(end) are empty, outside the \(data.count) edge bytes or cut in a varint")
            }
            // a varint's last byte has its high bit clear: counted eight bytes at a time (this
            // loop sees 15 MB at every open; byte by byte it took 13 % of a one-line run's
            // profile, now 6 %, mostly the page faults of reading the bytes again)
            var ends = 0
            var i = start
            let bytes = UnsafeRawPointer(data.baseAddress!)
            while i &+ 8 <= end {
                let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                ends &+= (~word & 0x8080_8080_8080_8080).nonzeroBitCount
                i &+= 8
            }
            while i < end {
                ends &+= Int(truncatingIfNeeded: (~data[i]) >> 7)
                i &+= 1
            }
            guard ends % 2 == 0 else { throw TimeZoneFileProblem("block \(b) holds an odd number of varints (\(ends))") }
        }
    }

    /// Every slot names a zone, a list or nothing; as many slots as cells are used; lists are
    /// in order and name polygons, with a stop index inside them.
    static func checkShortcuts(_ t: TimeZoneTables, zones: Int, polygons: Int) throws(TimeZoneFileProblem) {
        let lists = t.listStop.count
        var used = 0
        for s in 0..<t.slots.count {
            let v = t.slots[s]
            if v == L.slotEmpty { continue }
            used += 1
            if v & L.slotList != 0 {
                guard Int(v & ~L.slotList) < lists else { throw TimeZoneFileProblem("slot \(s) names list \(v & ~L.slotList) of \(lists)") }
            } else {
                guard Int(v) < zones else { throw TimeZoneFileProblem("slot \(s) names zone \(v) of \(zones)") }
            }
        }
        guard used == L.cellCount else { throw TimeZoneFileProblem("\(used) slots are used; resolution 4 has \(L.cellCount) cells") }
        guard t.listStart[0] == 0, Int(t.listStart[lists]) == t.listPolygons.count else {
            throw TimeZoneFileProblem("the lists' offsets do not span their \(t.listPolygons.count) entries")
        }
        for l in 0..<lists {
            let start = Int(t.listStart[l]), end = Int(t.listStart[l + 1]), stop = Int(t.listStop[l])
            guard start < end, end - start >= 2, stop >= 1, stop < end - start else {
                throw TimeZoneFileProblem("list \(l) has \(end - start) candidates and stop index \(stop)")
            }
        }
        for i in 0..<t.listPolygons.count where Int(t.listPolygons[i]) >= polygons {
            throw TimeZoneFileProblem("a list names polygon \(t.listPolygons[i]) of \(polygons)")
        }
    }

    /// Every tile and node entry is a zone, a later node no deeper than allowed, or "the cell".
    static func checkTree(_ t: TimeZoneTables, zones: Int, maxDepth: Int) throws(TimeZoneFileProblem) {
        let nodeCount = t.nodes.count / L.childrenPerNode
        var depth = [UInt8](repeating: 0, count: nodeCount)
        func check(_ entry: UInt32, parent: Int, _ place: @autoclosure () -> String) throws(TimeZoneFileProblem) {
            if entry == L.entryCell { return }
            switch entry & L.kindMask {
            case 0:
                guard Int(entry) < zones else { throw TimeZoneFileProblem("\(place()) names zone \(entry) of \(zones)") }
            case L.kindNode:
                let n = Int(entry & L.valueMask)
                guard n > parent, n < nodeCount else { throw TimeZoneFileProblem("\(place()) points to node \(n) (of \(nodeCount)), not after its own") }
                let d = (parent >= 0 ? Int(depth[parent]) : 0) + 1
                guard d <= maxDepth else { throw TimeZoneFileProblem("\(place()) goes deeper than \(maxDepth) levels") }
                depth[n] = Swift.max(depth[n], UInt8(d))
            default:
                throw TimeZoneFileProblem("\(place()) has the unused entry value \(entry)")
            }
        }
        // (most entries are a zone or "the cell": settled inline, the rest by `check`)
        let zoneLimit = UInt32(zones)
        for i in 0..<t.tiles.count where t.tiles[i] >= zoneLimit && t.tiles[i] != L.entryCell {
            try check(t.tiles[i], parent: -1, "tile \(i)")
        }
        // parents come before their children, so a node's depth is final when its turn comes
        for n in 0..<nodeCount {
            for c in 0..<L.childrenPerNode {
                let entry = t.nodes[L.childrenPerNode * n + c]
                if entry < zoneLimit || entry == L.entryCell { continue }
                try check(entry, parent: n, "child \(c) of node \(n)")
            }
        }
    }
}
