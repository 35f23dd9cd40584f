/// The Natural Earth 10 m admin-0 countries of `data/countries.bin`, memory-mapped: a grid of 1°
/// tiles refined by a quadtree that names the record of most points outright, and the records'
/// polygons as WKB for the rest.
///
/// The rule it answers: a point, taken planar as x = longitude and y = latitude, belongs to the
/// lowest-index shapefile record whose geometry intersects it (a point on a boundary is
/// inside); the country is that record's `ISO_A2_EH`, none where that is `-99` or no record
/// intersects the point.
///
/// Lookups go through a ``CountryLocator``, one per thread, which owns the GEOS state that the
/// few points near a border or a coast need. The file's layout is in ``CountryFileLayout``.
///
/// Thread safety: the mapping is read-only and everything else is immutable, so one index
/// serves any number of threads (each with its own locator).
public final class CountryIndex: Sendable {
    /// The file the index reads.
    public let file: DataFile
    /// The records, in shapefile order.
    let records: [CountryRecord]
    /// The sections read in place.
    let tables: Tables

    /// Number of admin-0 records (250 for Natural Earth v5.1.1).
    public var recordCount: Int { records.count }

    /// Views into the mapped payload. They stay valid as long as `file` lives, which the index
    /// guarantees by holding it; the mapping is never written, so sharing them is safe.
    struct Tables: @unchecked Sendable {
        /// 180 × 360 entries, row-major from (−90°, −180°).
        let tiles: UnsafeBufferPointer<UInt32>
        /// Four child entries per node.
        let nodes: UnsafeBufferPointer<UInt32>
        /// Candidate lists: a count, then record indices.
        let lists: UnsafeBufferPointer<UInt32>
        /// The records' geometries.
        let wkb: UnsafeRawBufferPointer
    }

    /// Opens a countries file and validates its whole structure, so that no lookup can fail
    /// or trap on bad data later.
    ///
    /// - Parameter path: the file, normally `data/countries.bin`.
    /// - Throws: ``DataFileError`` naming the file and what is wrong with it: unreadable,
    ///   truncated, another kind of file or version, a checksum mismatch, or (for a file whose
    ///   checksum matches but whose content is inconsistent) `corrupt` with the first problem.
    /// - Complexity: O(n) in the file size: the checksum, the records' WKB structure, and one
    ///   pass over the tiles, the nodes and the lists they reference.
    public init(path: String) throws(DataFileError) {
        typealias L = CountryFileLayout
        let file = try DataFile(path: path, magic: L.magic, version: L.version)
        func corrupt(_ message: String) -> DataFileError { DataFileError(path: path, .corrupt(message)) }

        let counts = file.counts
        guard counts[0] > 0, counts[0] <= UInt64(L.valueMask), counts[1] <= UInt64(L.valueMask),
              counts[2] <= UInt64(L.valueMask), counts[3] == L.tilesPerDegree else {
            throw corrupt("implausible counts \(counts)")
        }
        let recordCount = Int(counts[0]), nodeCount = Int(counts[1]), listWords = Int(counts[2])
        let tileCount = L.tileRows * L.tileColumns
        let recordBytes = L.recordSize * recordCount
        let tileBytes = L.padded(UInt32.self, count: tileCount)
        let nodeBytes = L.padded(UInt32.self, count: L.childrenPerNode * nodeCount)
        let listBytes = L.padded(UInt32.self, count: listWords)
        let fixed = recordBytes + tileBytes + nodeBytes + listBytes
        guard fixed <= file.payload.count, (file.payload.count - fixed) % 8 == 0 else {
            throw corrupt("a payload of \(file.payload.count) bytes cannot hold the sections the counts \(counts) need")
        }
        let wkbBytes = file.payload.count - fixed

        let recordSection = UnsafeRawBufferPointer(rebasing: file.payload[0..<recordBytes])
        let tiles = try file.array(of: UInt32.self, at: recordBytes, count: tileCount)
        let wkb = UnsafeRawBufferPointer(rebasing: file.payload[(recordBytes + tileBytes)..<(recordBytes + tileBytes + wkbBytes)])
        let nodes = try file.array(of: UInt32.self, at: recordBytes + tileBytes + wkbBytes,
                                   count: L.childrenPerNode * nodeCount)
        let lists = try file.array(of: UInt32.self, at: recordBytes + tileBytes + wkbBytes + nodeBytes, count: listWords)

        do throws(CountryFileProblem) {
            var records: [CountryRecord] = []
            records.reserveCapacity(recordCount)
            // checked once, the WKB's pages leave the resident set until a lookup needs them: a
            // megabyte or more at a time, the records' ranges checked since the last release
            // (one `madvise` a record, each a TLB shootdown on the other core while the postal
            // file is checked there, was about 6 ms of a start-up's 38 ms of CPU, perf)
            let offset = recordBytes + tileBytes
            var unreleased: Range<Int>? = nil
            for i in 0..<recordCount {
                let record = try CountryRecord(recordSection, index: i, wkbSectionSize: wkbBytes)
                if let problem = WKBStructure.problem(in: UnsafeRawBufferPointer(rebasing: wkb[record.wkb])) {
                    throw CountryFileProblem("record \(i): its WKB is malformed: \(problem)")
                }
                let checked = unreleased.map { min($0.lowerBound, record.wkb.lowerBound)..<max($0.upperBound, record.wkb.upperBound) }
                    ?? record.wkb
                if checked.count >= 1 << 20 {
                    file.releasePages((offset + checked.lowerBound)..<(offset + checked.upperBound))
                    unreleased = nil
                } else {
                    unreleased = checked
                }
                records.append(record)
            }
            try Self.validateTree(tiles: tiles, nodes: nodes, lists: lists, recordCount: recordCount)
            self.records = records
        } catch {
            throw corrupt(error.message)
        }
        file.releaseAllPages()
        self.file = file
        tables = Tables(tiles: tiles, nodes: nodes, lists: lists, wkb: wkb)
    }

    /// Checks every entry reachable or not: values in range, lists well formed, and child nodes
    /// numbered after their parents (so a descent always ends) no deeper than the maximum.
    private static func validateTree(tiles: UnsafeBufferPointer<UInt32>, nodes: UnsafeBufferPointer<UInt32>,
                                     lists: UnsafeBufferPointer<UInt32>, recordCount: Int) throws(CountryFileProblem) {
        typealias L = CountryFileLayout
        let nodeCount = nodes.count / L.childrenPerNode
        // one tight pass over the ~800,000 entries (this runs at every start); the messages are
        // only built for an entry that fails
        var depth = [UInt8](repeating: 0, count: nodeCount)
        // a list's index → it was checked already (many entries share one list). Memory of its
        // own, not a local array: captured by `check`, the array's 181,260 accesses each took a
        // dynamic exclusivity check (swift_beginAccess and its runtime access set: 14.5 M
        // instructions at every start, callgrind)
        let listChecked = UnsafeMutableBufferPointer<Bool>.allocate(capacity: lists.count)
        listChecked.initialize(repeating: false)
        defer { listChecked.deallocate() }
        try depth.withUnsafeMutableBufferPointer { (depth) throws(CountryFileProblem) in
            @inline(__always)
            func check(_ raw: UInt32, parent: Int, where place: () -> String) throws(CountryFileProblem) {
                let value = Int(raw & L.valueMask)
                switch raw & L.kindMask {
                case L.kindRecord:
                    guard value < recordCount else { throw CountryFileProblem("\(place()) names record \(value) of \(recordCount)") }
                case L.kindNode:
                    guard value > parent, value < nodeCount else {
                        throw CountryFileProblem("\(place()) points to node \(value) (of \(nodeCount)), not after its own")
                    }
                    let d = (parent >= 0 ? Int(depth[parent]) : 0) + 1
                    guard d <= L.maxDepth else { throw CountryFileProblem("\(place()) goes deeper than \(L.maxDepth) levels") }
                    if UInt8(d) > depth[value] { depth[value] = UInt8(d) }
                case L.kindList:
                    if value < listChecked.count && listChecked[value] { return }
                    guard value < lists.count, lists[value] > 0, Int(lists[value]) <= lists.count - value - 1 else {
                        throw CountryFileProblem("\(place()) points to a list at word \(value) that does not fit the \(lists.count) words")
                    }
                    var previous = -1
                    for k in (value + 1)...(value + Int(lists[value])) {
                        let r = Int(lists[k])
                        guard r > previous, r < recordCount else {
                            throw CountryFileProblem("the list at word \(value) is not ascending record indices below \(recordCount)")
                        }
                        previous = r
                    }
                    listChecked[value] = true
                default:
                    guard raw == L.emptyEntry else { throw CountryFileProblem("\(place()) has the unused entry value \(raw)") }
                }
            }
            for t in 0..<tiles.count {
                try check(tiles[t], parent: -1) { "tile \(t)" }
            }
            // Parents come before children, so a node's depth is final when its turn comes.
            for n in 0..<nodeCount {
                for c in 0..<L.childrenPerNode {
                    try check(nodes[L.childrenPerNode * n + c], parent: n) { "child \(c) of node \(n)" }
                }
            }
        }
    }

    /// The entry that answers a point: `.none`, `.record`, or `.list` (never `.node`).
    ///
    /// Points outside −90…90 × −180…180, or not finite, get `.none`: no record reaches there.
    /// - Complexity: O(depth of the quadtree at the point), at most ``CountryFileLayout/maxDepth``.
    func entry(latitude: Double, longitude: Double) -> CountryEntry {
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return .none }
        let raw = TileQuadtree.leaf(latitude: latitude, longitude: longitude, tiles: tables.tiles, nodes: tables.nodes)
        return CountryEntry(raw) ?? .none
    }

    /// The record indices of the candidate list at word `offset`, ascending.
    func candidates(at offset: Int) -> UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(rebasing: tables.lists[(offset + 1)..<(offset + 1 + Int(tables.lists[offset]))])
    }

    /// The WKB of record `index`.
    func wkb(ofRecord index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: tables.wkb[records[index].wkb])
    }
}
