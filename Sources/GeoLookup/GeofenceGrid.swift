#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CMemoryHints
import GeoBridge
import GeoMath
import ThreadSharing

/// The index that decides most membership questions of a ``GeofenceSet`` without geometry.
///
/// Each fence is laid on a grid of square cells 2^-k degrees on a side and each cell its box
/// meets is marked:
/// *inside* (every point of the closed cell is in the fence) or *edge* (the fence's boundary
/// may pass through it); cells wholly outside are left out. A point finds its cell at each level
/// in use by `floor(coordinate · 2^k)`, which is exact (a power-of-two scale and a floor), so the
/// cell found always holds the point, even on a grid line; an inside mark answers at once and an
/// edge mark leaves the point to the exact test (``GeofenceLocator``).
///
/// One level serves most fences: the one at which the median fence spans ``medianAcross`` cells.
/// A fence that would span more than ``mostAcross`` cells there takes the finest level at which
/// it spans that many or fewer, so a few coarser levels serve the large ones. A point costs one
/// table probe per level in use (a cache miss each, in a table of megabytes), so few levels
/// matter more than few marks: with a level per fence size (8 cells across each), 20,000 city
/// fences used 7 levels and a point cost about 2 µs, most of it in the probes' misses.
///
/// Why not H3 (issue 20's polygonToCells, item 5): rule 11 puts polygon membership in the plane
/// of longitude and latitude (GEOS `covers`), where a power-of-two grid's cells are exact closed
/// rectangles and a point's cell costs two floors; H3 cells are curved in that plane (an inside
/// cell would need a margin) and a point's cell costs a projection per resolution.
///
/// Marks are conservative: a cell is *inside* only when no edge of the fence comes within
/// `margin` of it and its centre is inside, so floating-point rounding in the marking (about
/// 1e-13 degrees) can never mark wrongly; circles are marked from distances with
/// ``LocalDistance``'s error bound added.
///
/// `@unchecked Sendable`: its table is memory it allocates, fills in `init` and only reads after
/// (as ``PostalIndex``'s tables), so threads share it as they share the arrays of a `let`.
final class GeofenceGrid: @unchecked Sendable {
    /// Cells the median fence spans each way, and the most any fence may span on its level.
    ///
    /// Measured on 20,000 city fences from 30 m to 1 km across (`make bench`, "geofence
    /// membership"; a loaded machine, medians): at 8 and 16, three levels, 2.3 million marks
    /// (75 % inside) and a point about 680-970 ns; at 4 and 64 one level, 1.2 million marks,
    /// about 580-640 ns; at 2 and 64 one level, 370,000 marks (a third inside, so more exact
    /// tests), about 600-870 ns, and 100,000 fences load in 2.9 s with a 360 MB peak against
    /// 4.1 s and 580 MB. Measured again with the slots' inline marks (a quiet machine, CPU time,
    /// best of 7): 2 and 64 about 345 ns, 4 and 64 about 360, and 4 loads 100,000 fences in
    /// twice the time and memory.
    static let medianAcross = 2.0, mostAcross = 64.0
    /// The coarsest and finest levels (a cell of 256° and of 2^-20° ≈ 11 cm).
    static let coarsest = -8, finest = 20
    /// Degrees by which marking keeps away from a fence's edges (≈ 0.1 mm).
    static let margin = 1e-9

    /// The levels in use, ascending.
    let levels: [Int]
    /// Open-addressing table of the cells, each by its key's hash (0 = empty) with its marks:
    /// up to ``Slot/inlineCount`` in the slot itself, more in ``overflow``. One 32-byte slot, so
    /// a probe that finds its cell touches one cache line and, most often, no other: a slot of
    /// 16 bytes pointing into an array of marks cost a second miss, a tenth of a point's time
    /// (`perf annotate` of the membership benchmark).
    ///
    /// The cells are in ascending order of hash from the first slot to the last: a cell's home
    /// slot grows with its hash (the hash's high part times ``homes``), and each is placed at
    /// its home or just after the cell before it, never wrapping round. So a search stops at
    /// the first slot with a greater hash, as at an empty one (an ordered hash table, Amble and
    /// Knuth 1974), and threads fill the table's parts at once (``init(fences:shapes:boxes:)``).
    private struct Slot {
        static let inlineCount = 5
        var hash: UInt64 = 0
        var count: UInt32 = 0
        /// The marks, or `marks.0` the first of them in ``overflow`` when there are more than
        /// fit.
        var marks: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0)
        /// Where `marks` is in a slot (a homogeneous tuple's elements are laid out as an array's):
        /// after the hash and the count, as `init` checks. A constant, not `offset(of:)`, whose
        /// key path made it a lazily set global, a `swift_once` on every probe.
        static var marksOffset: Int { MemoryLayout<UInt64>.size + MemoryLayout<UInt32>.size }
    }
    /// The table (``slotCount`` slots, ``homes`` of them home slots and the rest the cells
    /// placed past the last home, then an empty one) and the marks of cells with more than
    /// ``Slot/inlineCount``, in memory the grid owns and never changes after `init`: a point's
    /// lookup reads them through these pointers, where reading arrays of the class retained and
    /// released them, two atomic operations a point (a tenth of its time in `perf`).
    private let slots: UnsafeMutablePointer<Slot>
    private let slotCount: Int
    /// A mark is the fence's number << 2, | 2 for a circle (0 for a polygon), | 1 when the
    /// cell is inside the fence (0 for an edge cell, where the point is tested).
    private let overflow: UnsafeMutablePointer<UInt32>
    private let overflowCount: Int
    private let homes: UInt64
    /// Cells a home slot, at most: ordered, a search that finds no cell stops as soon as one
    /// that finds its cell would, so the table needs no more room than that search's length
    /// asks (at most half full before, when a power of two, so 0.25 to 0.5 and 16 MB for
    /// 20,000 fences; now 13.5 MB).
    static let load = 0.5

    deinit {
        munmap(slots, slotCount * MemoryLayout<Slot>.stride)
        overflow.deallocate()
    }

    /// `count` empty slots in pages of their own: page-aligned (so on a cache line's boundary:
    /// `allocate(capacity:)` aligns to 8 bytes only, and glibc's large blocks start 16 bytes into
    /// a page, so every other 32-byte slot straddled two lines and its probe cost two misses),
    /// and zero, which is an empty slot, as the kernel gives them: clearing 16 MB for 20,000
    /// fences was 17 M instructions (callgrind) on the one thread that filled the table then.
    /// The kernel zeroes a page when it is first written, so on the thread that fills that part.
    private static func emptySlots(_ count: Int) -> UnsafeMutablePointer<Slot> {
        let bytes = count * MemoryLayout<Slot>.stride
        guard let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else {
            fatalError("cannot map \(bytes) bytes for the geofence grid: \(String(cString: strerror(errno)))")
        }
        #if os(Linux)
        // in 2 MB pages where the kernel has transparent huge pages (a hint: ignored where it
        // has not): filled in 4 KB pages, the table's 16 MB for 20,000 fences cost 4,096 page
        // faults on the one thread that fills it, about a tenth of the loading, and a probe's
        // address a TLB miss most times (Linux aligns a mapping this large to 2 MB itself)
        _ = madvise(p, bytes, MADV_HUGEPAGE)
        #endif
        return p.bindMemory(to: Slot.self, capacity: count)
    }

    /// The marks of the cell holding (`latitude`, `longitude`) at level `k` (none when no
    /// fence marks it), valid while the grid lives.
    @inline(__always)
    func marks(level k: Int, latitude: Double, longitude: Double) -> UnsafeBufferPointer<UInt32> {
        let (hash, start) = home(level: k, latitude: latitude, longitude: longitude)
        var slot = slots + start
        while true {
            let found = slot.pointee.hash
            if found == hash {
                let count = Int(slot.pointee.count)
                if count <= Slot.inlineCount {
                    let inline = UnsafeRawPointer(slot) + Slot.marksOffset
                    return UnsafeBufferPointer(start: inline.assumingMemoryBound(to: UInt32.self), count: count)
                }
                return UnsafeBufferPointer(start: overflow + Int(slot.pointee.marks.0), count: count)
            }
            // a greater hash, or an empty slot (0, the greatest once less one), ends the search:
            // the cell would have come before it
            if found &- 1 >= hash { return UnsafeBufferPointer(start: nil, count: 0) }
            slot += 1
        }
    }

    /// Starts bringing in the slot where ``marks(level:latitude:longitude:)`` begins its search
    /// at level `k`, without waiting for it: a caller that has other work before the query
    /// (the H3 cell, the country and the postal code of a fix) hides the table's cache miss
    /// behind it.
    @inline(__always)
    func prefetch(level k: Int, latitude: Double, longitude: Double) {
        geo_prefetch_for_reading(slots + home(level: k, latitude: latitude, longitude: longitude).slot)
    }

    /// The hash of the key of the cell holding (`latitude`, `longitude`) at level `k`, and the
    /// slot where its search begins.
    @inline(__always)
    private func home(level k: Int, latitude: Double, longitude: Double) -> (hash: UInt64, slot: Int) {
        let hash = Self.key(level: k, x: Self.cellIndex(longitude, k), y: Self.cellIndex(latitude, k)) &* Self.hash
        return (hash, Self.home(hash, homes))
    }

    /// The home slot of a hash among `homes`: its high part times `homes`, which grows with it.
    @inline(__always)
    private static func home(_ hash: UInt64, _ homes: UInt64) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: homes).high)
    }

    /// `floor(value · 2^k)`: exact for any double (scaling by a power of two only moves the
    /// exponent), so the cell's closed square holds the value. ``floorToInt(_:)``, not
    /// `rounded(.down)`, which was a call to libm's `floor` for each coordinate of each probe.
    @inline(__always)
    static func cellIndex(_ value: Double, _ k: Int) -> Int64 {
        Int64(floorToInt(value * Double(sign: .plus, exponent: k, significand: 1)))
    }

    /// A non-zero 62-bit key: the level (5 bits), x (29 bits, offset) and y (28 bits, offset).
    @inline(__always)
    static func key(level k: Int, x: Int64, y: Int64) -> UInt64 {
        let level = UInt64(k - coarsest + 1)  // 1...29, never 0: a key is never the empty slot
        let ux = UInt64(truncatingIfNeeded: x &+ (1 << 28)) & ((1 << 29) - 1)
        let uy = UInt64(truncatingIfNeeded: y &+ (1 << 27)) & ((1 << 28) - 1)
        return level << 57 | ux << 28 | uy
    }

    /// The finest level at which `span` degrees covers at most `across` cells.
    static func level(span: Double, across: Double) -> Int {
        guard span > 0 else { return finest }
        let k = Int((across / span).log2Ceiling)
        return min(finest, max(coarsest, k))
    }

    /// A box in degrees.
    typealias Box = (west: Double, east: Double, south: Double, north: Double)

    /// A fence's box in degrees (a circle's generously, see ``circleBox(center:radius:)``).
    static func box(of fence: Geofence) -> Box {
        switch fence.shape {
        case .circle(let center, let radius):
            return circleBox(center: center, radius: radius)
        case .polygons(let polygons):
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for rings in polygons { for p in rings[0] {
                minX = min(minX, p.longitude); maxX = max(maxX, p.longitude)
                minY = min(minY, p.latitude); maxY = max(maxY, p.latitude)
            } }
            return (minX, maxX, minY, maxY)
        }
    }

    /// A circle's box: a degree of latitude is at least 110,574 m, of longitude at least
    /// 111,320 m · cos(latitude) at the box's edge nearest a pole; 1 % more. Longitudes may pass
    /// ±180° (the marking wraps them); a box reaching 89.9° takes every longitude.
    static func circleBox(center: GeoPoint, radius: Double) -> Box {
        let dLat = radius / 110_574 * 1.01 + 1e-9
        let south = center.latitude - dLat, north = center.latitude + dLat
        let polar = max(abs(south), abs(north))
        var dLng = 360.0
        if polar < 89.9 {
            dLng = min(360, radius / (111_320 * cos(polar * .pi / 180)) * 1.01 + 1e-9)
        }
        if dLng >= 180 { return (-180, 180, south, north) }
        return (center.longitude - dLng, center.longitude + dLng, south, north)
    }

    // MARK: building

    /// Marks every fence's cells.
    ///
    /// The marks are gathered per fence (a cell key and a mark each), in parts of the fences on
    /// ``ForkJoin``'s threads, then sorted by the hash of their key and by mark, so each cell's
    /// marks come out together and in ascending fence order.
    /// - Parameter boxes: each fence's ``box(of:)``, by fence number.
    init(fences: [Geofence], shapes: FenceShapes, boxes: [Box]) {
        precondition(fences.count < 1 << 30, "a mark keeps a fence's number in 30 bits")
        precondition(boxes.count == fences.count, "a box for each fence")
        precondition(MemoryLayout<Slot>.offset(of: \Slot.marks) == Slot.marksOffset, "a slot's marks are not where they are read")
        let spans = boxes.map { max($0.east - $0.west, $0.north - $0.south) }.sorted()
        let common = spans.isEmpty ? Self.finest : Self.level(span: spans[spans.count / 2], across: Self.medianAcross)
        // each fence's marks, in parts of the fences, each part's already in runs by the top
        // bits of their hash. A part takes every other block of 256 fences (with two parts):
        // in id order the fences of one kind often come together (ids "c…" for circles before
        // "p…" for polygons), and halves took unequal times, one thread waiting.
        let parts = ForkJoin.parts(for: fences.count, least: 1_000)
        let block = 256
        let marked = ForkJoin.map(parts: parts) { part in
            let blocks = stride(from: part * block, to: fences.count, by: parts * block).map { $0..<min($0 + block, fences.count) }
            let (keys, marks, levels) = Self.mark(fences, blocks, boxes: boxes, shapes: shapes, common: common)
            return (runs: MarkRuns(keys: keys, marks: marks), levels: levels)
        }
        levels = marked.reduce(into: Set<Int>()) { $0.formUnion($1.levels) }.sorted()
        // the table: the marks sorted by their key's hash, so that each cell's marks are in a
        // row (in fence order) and the cells come in the order of their slots. Then the table
        // is sized for the cells, not the marks (100,000 city fences have 1.8 million marks in
        // 430,000 cells), and each run of hashes fills its part of it in one pass, in about the
        // time that counting and placing the marks by hashing into a table sized for the marks
        // took on one thread.
        let sorted = Self.sortedByHash(marked.map(\.runs))
        // each run's cells, and marks beyond a slot's (a cell's marks are never split between
        // two runs: the runs part the top bits); then each run's last slot were it the first,
        // from which its first slot once the runs before it are placed
        let counted = ForkJoin.map(parts: sorted.count) { r in Self.count(sorted[r]) }
        let cells = counted.reduce(0) { $0 + $1.cells }
        let homes = UInt64(max(64, (Double(cells) / Self.load).rounded(.up)))
        let lasts = ForkJoin.map(parts: sorted.count) { r in Self.place(sorted[r], homes: homes, after: -1, into: nil) }
        var after: [Int] = []  // the slot before each run's first
        var last = -1, overflowStarts: [Int] = [], overflowCount = 0
        for r in sorted.indices {
            after.append(last)
            overflowStarts.append(overflowCount)
            // placed after `last`, the run's k-th cell is at max(its own place, last + 1 + k)
            last = max(lasts[r], last + counted[r].cells)
            overflowCount += counted[r].overflow
        }
        let slotCount = max(last, Int(homes) - 1) + 2  // and an empty slot after every search's start
        let table = Self.emptySlots(slotCount)
        let overflow = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, overflowCount))
        // the runs' parts of the table (and of the overflow) on their own threads: each part's
        // pages are first written, so zeroed by the kernel, on its thread. One thread filling
        // the table was 5 % of the time of `lookup --geofences` with 20,000 fences on no input
        // and, with the kernel's zeroing, about 10 ms of it with one processor idle.
        let into = (table: UInt(bitPattern: table), overflow: UInt(bitPattern: overflow))
        _ = ForkJoin.map(parts: sorted.count) { [after, overflowStarts] r in
            Self.place(sorted[r], homes: homes, after: after[r],
                       into: (UnsafeMutablePointer(bitPattern: into.table)!, UnsafeMutablePointer(bitPattern: into.overflow)!, overflowStarts[r]))
        }
        self.slots = table
        self.slotCount = slotCount
        self.overflow = overflow
        self.overflowCount = overflowCount
        self.homes = homes
    }

    /// A run's cells (distinct hashes) and the marks of those with more than a slot holds.
    private static func count(_ run: [HashedMark]) -> (cells: Int, overflow: Int) {
        var cells = 0, overflow = 0
        forEachCell(run) { _, marks in
            cells += 1
            if marks.count > Slot.inlineCount { overflow += marks.count }
        }
        return (cells, overflow)
    }

    /// Places a run's cells in ascending order of hash, each at its home slot or the slot after
    /// the one before it, the first after slot `after`; with `into`, writes them in the table
    /// (and the marks beyond a slot's in the overflow from `overflowStart` on). Returns the last
    /// slot used (`after` for an empty run).
    private static func place(_ run: [HashedMark], homes: UInt64, after: Int,
                              into: (table: UnsafeMutablePointer<Slot>, overflow: UnsafeMutablePointer<UInt32>, overflowStart: Int)?) -> Int {
        var at = after
        var overflowAt = into?.overflowStart ?? 0
        forEachCell(run) { hash, marks in
            at = max(home(hash, homes), at + 1)
            guard let into else { return }
            var slot = Slot(hash: hash, count: UInt32(marks.count))
            if marks.count <= Slot.inlineCount {
                withUnsafeMutableBytes(of: &slot.marks) { out in
                    for (i, m) in marks.enumerated() { out.storeBytes(of: m.mark, toByteOffset: 4 * i, as: UInt32.self) }
                }
            } else {
                slot.marks.0 = UInt32(overflowAt)
                for m in marks { into.overflow[overflowAt] = m.mark; overflowAt += 1 }
            }
            into.table[at] = slot
        }
        return at
    }

    /// Calls `body` with each cell of a run sorted by hash: its hash and its marks.
    @inline(__always)
    private static func forEachCell(_ run: [HashedMark], _ body: (UInt64, UnsafeBufferPointer<HashedMark>) -> Void) {
        run.withUnsafeBufferPointer { pairs in
            var i = 0
            while i < pairs.count {
                let h = pairs[i].hash
                var j = i + 1
                while j < pairs.count && pairs[j].hash == h { j += 1 }
                body(h, UnsafeBufferPointer(rebasing: pairs[i..<j]))
                i = j
            }
        }
    }

    /// A cell key's hash is `key &* hash` (its high part gives its home slot); odd, so the hash
    /// is a bijection of 64-bit values: two cells never share one, and the table keeps the hash
    /// in place of the key. Never 0 (the empty slot's), as a key is never 0.
    static let hash: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A cell key's hash with one of its marks.
    struct HashedMark { var hash: UInt64; var mark: UInt32 }

    /// One part's marks, hashed, in runs by the top ``MarkRuns/digitBits`` bits of their hash
    /// (a stable counting sort: in the part's order within a run).
    struct MarkRuns: Sendable {
        static let digitBits = 11
        static let digitShift = UInt64(64 - digitBits)
        let pairs: [HashedMark]
        /// Run d is `pairs[starts[d]..<starts[d + 1]]`.
        let starts: [Int]

        init(keys: [UInt64], marks: [UInt32]) {
            let digits = 1 << Self.digitBits
            var starts = [Int](repeating: 0, count: digits + 1)
            for key in keys { starts[Int(truncatingIfNeeded: (key &* GeofenceGrid.hash) >> Self.digitShift) + 1] += 1 }
            for d in 0..<digits { starts[d + 1] += starts[d] }
            var next = starts
            pairs = [HashedMark](unsafeUninitializedCapacity: keys.count) { out, count in
                for (key, mark) in zip(keys, marks) {
                    let h = key &* GeofenceGrid.hash
                    let d = Int(truncatingIfNeeded: h >> Self.digitShift)
                    (out.baseAddress! + next[d]).initialize(to: HashedMark(hash: h, mark: mark))
                    next[d] += 1
                }
                count = keys.count
            }
            self.starts = starts
        }
    }

    /// The marks of all parts sorted by hash and, for one cell's, by mark (so in fence order:
    /// a fence marks a cell once), as runs to be read one after the other: the runs of the top
    /// bits are shared out between ``ForkJoin``'s threads (about as many marks each), and each
    /// thread gathers its runs from the parts, then sorts each run (``sortRun``). Sorting all
    /// the marks on one thread (a radix sort of two passes of 11 bits) was 15 % of loading
    /// 100,000 fences (a perf timeline), none of it in parallel.
    private static func sortedByHash(_ parts: [MarkRuns]) -> [[HashedMark]] {
        let digits = 1 << MarkRuns.digitBits
        let total = parts.reduce(0) { $0 + $1.pairs.count }
        let threads = ForkJoin.parts(for: total, least: 50_000)
        // the digits each thread takes: about total / threads marks
        var bounds = [0]
        var sum = 0
        for d in 0..<digits {
            sum += parts.reduce(0) { $0 + $1.starts[d + 1] - $1.starts[d] }
            if bounds.count < threads && sum * threads >= total * bounds.count { bounds.append(d + 1) }
        }
        while bounds.count <= threads { bounds.append(digits) }
        bounds[threads] = digits
        return ForkJoin.map(parts: threads) { [bounds] thread in
            let range = bounds[thread]..<bounds[thread + 1]
            let count = parts.reduce(0) { $0 + $1.starts[range.upperBound] - $1.starts[range.lowerBound] }
            var counts = [Int](repeating: 0, count: digits + 1)
            var scratch: [HashedMark] = []
            return [HashedMark](unsafeUninitializedCapacity: count) { out, filled in
                var at = 0
                for d in range {
                    let start = at
                    for part in parts {
                        for i in part.starts[d]..<part.starts[d + 1] { (out.baseAddress! + at).initialize(to: part.pairs[i]); at += 1 }
                    }
                    sortRun(UnsafeMutableBufferPointer(rebasing: out[start..<at]), counts: &counts, scratch: &scratch)
                }
                filled = at
            }
        }
    }

    /// Sorts a run of marks whose hashes share their top bits by hash, and a cell's by mark: a
    /// counting sort by the next bits, about as many of them as the run has marks (a run of
    /// 175 marks, 20,000 fences' average, takes 8 bits and 256 counters: with 2,048 for every
    /// run, clearing and summing them was most of the sort's instructions), then an insertion
    /// sort of what is left out of place.
    private static func sortRun(_ run: UnsafeMutableBufferPointer<HashedMark>, counts: inout [Int], scratch: inout [HashedMark]) {
        if run.count > 32 {
            let bits = min(MarkRuns.digitBits, Int.bitWidth - run.count.leadingZeroBitCount)
            let shift = MarkRuns.digitShift - UInt64(bits)
            let mask = UInt64(1 << bits - 1)
            counts.withUnsafeMutableBufferPointer { counts in
                let counted = 1 << bits + 1
                for d in 0..<counted { counts[d] = 0 }
                for p in run { counts[Int(truncatingIfNeeded: (p.hash >> shift) & mask) + 1] += 1 }
                for d in 1..<counted { counts[d] += counts[d - 1] }
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: run)
                for p in scratch {
                    let d = Int(truncatingIfNeeded: (p.hash >> shift) & mask)
                    run[counts[d]] = p
                    counts[d] += 1
                }
            }
        }
        var i = 1
        while i < run.count {
            let p = run[i]
            var j = i
            while j > 0 && (run[j - 1].hash > p.hash || (run[j - 1].hash == p.hash && run[j - 1].mark > p.mark)) {
                run[j] = run[j - 1]
                j -= 1
            }
            run[j] = p
            i += 1
        }
    }

    /// The marks of the fences of `ranges`, in their order: each cell's key with its mark (fence
    /// number << 2 | circle << 1 | inside), and the levels used.
    private static func mark(_ fences: [Geofence], _ ranges: [Range<Int>],
                             boxes: [Box],
                             shapes: FenceShapes, common: Int) -> (keys: [UInt64], marks: [UInt32], levels: Set<Int>) {
        var keys: [UInt64] = []
        var marked: [UInt32] = []
        var levels = Set<Int>()
        var seen = Set<UInt64>()
        var scratch = PolygonScratch()
        for n in ranges.joined() {
            let number = UInt32(n)
            let box = boxes[n]
            let k = min(common, Self.level(span: max(box.east - box.west, box.north - box.south), across: Self.mostAcross))
            switch fences[n].shape {
            case .polygons(let polygons):
                Self.markPolygon(polygons, shapes.polygons[n], shapes, box: box, level: k, &scratch) { key, inside in
                    keys.append(key)
                    marked.append(number << 2 | (inside ? 1 : 0))
                }
            case .circle(let center, let radius):
                seen.removeAll(keepingCapacity: true)
                Self.markCircle(center: center, radius: radius, box: box, level: k) { key, inside, mayRepeat in
                    if mayRepeat && !seen.insert(key).inserted { return }
                    keys.append(key)
                    marked.append(number << 2 | 2 | (inside ? 1 : 0))
                }
            }
            levels.insert(k)
        }
        return (keys, marked, levels)
    }

    /// Bytes the index holds.
    var bytes: Int { slotCount * MemoryLayout<Slot>.stride + overflowCount * 4 + levels.count * 8 }

    /// What marking a polygon writes as it goes, kept from one polygon to the next: made for
    /// each, the two arrays were allocated and freed 20,000 times for 10,000 polygons.
    struct PolygonScratch {
        /// Whether each cell of the polygon's box is an edge cell, row after row.
        var edge: [Bool] = []
        /// A row's crossings (``FenceShapes/crossings(_:y:into:)``).
        var crossings: [Double] = []
    }

    /// Marks a polygon fence's cells at level `k`. Edge cells: every cell within `margin`
    /// of an edge, found row by row along each edge. Inside cells: the rest whose centre is
    /// inside by the even-odd rule over all rings (a valid multipolygon's rings never cross).
    private static func markPolygon(_ polygons: [[[GeoPoint]]], _ entry: FenceShapes.Polygon, _ shapes: FenceShapes, box: Box,
                                    level k: Int, _ scratch: inout PolygonScratch, _ mark: (UInt64, Bool) -> Void) {
        let (minX, maxX, minY, maxY) = box
        let scale = Double(sign: .plus, exponent: k, significand: 1)
        let size = 1 / scale
        let x0 = cellIndex(minX - margin, k), x1 = cellIndex(maxX + margin, k)
        let y0 = cellIndex(minY - margin, k), y1 = cellIndex(maxY + margin, k)
        let columns = Int(x1 - x0 + 1), rows = Int(y1 - y0 + 1)
        scratch.edge.removeAll(keepingCapacity: true)
        scratch.edge.append(contentsOf: repeatElement(false, count: columns * rows))
        // slack for the rounding of the interpolation below, far under the margin
        let pad = 2 * margin
        for rings in polygons { for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                let lowY = min(a.latitude, b.latitude), highY = max(a.latitude, b.latitude)
                for row in cellIndex(lowY - pad, k)...cellIndex(highY + pad, k) {
                    let bandLow = max(lowY, Double(row) * size - pad), bandHigh = min(highY, Double(row + 1) * size + pad)
                    var xa: Double, xb: Double
                    if a.latitude == b.latitude {
                        xa = min(a.longitude, b.longitude); xb = max(a.longitude, b.longitude)
                    } else {
                        let t0 = (bandLow - a.latitude) / (b.latitude - a.latitude)
                        let t1 = (bandHigh - a.latitude) / (b.latitude - a.latitude)
                        let u = a.longitude + (b.longitude - a.longitude) * min(1, max(0, t0))
                        let v = a.longitude + (b.longitude - a.longitude) * min(1, max(0, t1))
                        xa = min(u, v); xb = max(u, v)
                    }
                    let r = Int(row - y0)
                    let first = max(x0, cellIndex(xa - pad, k)), last = min(x1, cellIndex(xb + pad, k))
                    guard r >= 0 && r < rows && first <= last else { continue }
                    for column in first...last {
                        scratch.edge[r * columns + Int(column - x0)] = true
                    }
                }
            }
        } }
        // the rest by the locator's own even-odd rule at their centres (an unmarked cell's centre
        // is far from every edge), a row at a time from the row's crossings: a ring walk for
        // each cell was a fifth of loading 20,000 fences' marking
        for r in 0..<rows {
            let y = Double(y0 + Int64(r)) * size + size / 2
            shapes.crossings(entry, y: y, into: &scratch.crossings)
            let crossings = scratch.crossings
            var passed = 0  // crossings at or left of the centre: the cell is inside when the rest are odd
            for c in 0..<columns {
                let isEdge = scratch.edge[r * columns + c]
                if !isEdge {
                    let x = Double(x0 + Int64(c)) * size + size / 2
                    while passed < crossings.count && crossings[passed] <= x { passed += 1 }
                    guard (crossings.count - passed) & 1 == 1 else { continue }
                }
                mark(key(level: k, x: x0 + Int64(c), y: y0 + Int64(r)), !isEdge)
            }
        }
    }

    /// Marks a circle fence's cells at level `k`. A cell is inside when its farthest point
    /// is surely within the radius, outside when its nearest surely beyond, else an edge cell;
    /// where ``LocalDistance`` does not hold (beyond ±84° or 15 km) every cell is an edge cell.
    /// Columns past ±180° wrap, and the column at exactly 180° is marked with the one at −180°;
    /// where that can happen a cell can be marked twice, and `mark` is told so (its third
    /// argument; the caller keeps the first).
    ///
    /// A cell's half diagonal in metres depends only on its row (the local plane's distances
    /// do not change along a parallel), so it is computed once a row.
    private static func markCircle(center: GeoPoint, radius: Double, box: Box,
                                   level k: Int, _ mark: (UInt64, Bool, Bool) -> Void) {
        var (west, east) = (box.west, box.east)
        let (south, north) = (box.south, box.north)
        let polar = max(abs(south), abs(north))
        // at k < −3 a turn is not a whole number of columns: take every longitude, unwrapped
        if k < -3 {
            west = -180
            east = 180
        }
        let scale = Double(sign: .plus, exponent: k, significand: 1)
        let size = 1 / scale
        let exact = radius <= 15_000 && polar <= 84
        let fullTurn = cellIndex(360, k)  // 360 · 2^k columns (an integer for k ≥ −3)
        let x0 = cellIndex(west, k), x1 = cellIndex(east, k)
        let y0 = cellIndex(max(-90, south), k), y1 = cellIndex(min(90, north), k)
        let local = LocalDistance.Point(latitude: center.latitude, longitude: center.longitude)
        // a box past ±180° or a full turn of columns can meet a wrapped column twice
        let mayRepeat = k < -3 || west < -180 || east > 180 || x1 - x0 + 1 >= fullTurn
        for y in y0...y1 {
            let lat0 = Double(y) * size
            let midLat = lat0 + size / 2
            var half = 0.0
            if exact {
                // the farthest corner from the centre of a cell of this row (the four are at two
                // latitudes: the one nearer the equator is the farther in longitude). A corner
                // east of the centre is as far as the one west of it, to the bit: their
                // longitude differences are ±size/2 exactly (a power of two) and enter the
                // formula squared; so two distances, not four (with their sines and cosines, two
                // thirds of marking a circle's cells: callgrind of 20,000 fences)
                let midLng = size / 2
                half = max(LocalDistance.metres(lat1: midLat, lng1: midLng, lat2: lat0, lng2: 0),
                           LocalDistance.metres(lat1: midLat, lng1: midLng, lat2: lat0 + size, lng2: 0))
                half = half * 1.02 + LocalDistance.errorBound(distance: half, absTan: local.absTanLatitude) + 1e-6
            }
            for x in x0...x1 {
                var inside = false
                if exact {
                    let midLng = Double(x) * size + size / 2
                    let d = LocalDistance.metres(from: local, lat2: midLat, lng2: midLng)
                    let bound = LocalDistance.errorBound(distance: d, absTan: local.absTanLatitude)
                    if d - bound - half > radius { continue }          // wholly outside
                    inside = d + bound + half < radius
                }
                // wrap the column into −180…180; the columns starting at −180° and at 180° hold
                // the same places (a point at 180° finds the second), so each is marked with both
                var wx = x
                let halfTurn = fullTurn / 2
                if k >= -3 {
                    while wx > halfTurn { wx -= fullTurn }
                    while wx < -halfTurn { wx += fullTurn }
                }
                if k >= -3 && (wx == halfTurn || wx == -halfTurn) {
                    mark(key(level: k, x: -halfTurn, y: y), inside, true)
                    mark(key(level: k, x: halfTurn, y: y), inside, true)
                } else {
                    mark(key(level: k, x: wx, y: y), inside, mayRepeat)
                }
            }
        }
    }
}

extension Double {
    /// ⌈log₂ self⌉ for a positive finite value.
    var log2Ceiling: Double {
        let e = exponent  // self = m · 2^e, 1 ≤ m < 2
        return significand == 1 ? Double(e) : Double(e + 1)
    }
}
