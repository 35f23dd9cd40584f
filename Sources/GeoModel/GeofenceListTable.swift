import ThreadSharing

/// The names of a fence set's fences and every list of two or more of them that a fix has been
/// in, each under a ``GeofenceList`` handle: what turns a handle into the `geofences` array of
/// a `geo` object, the fences of a transition into their ids, and a handle back into fence
/// numbers for the engine's comparison of a session's lists.
///
/// One per fence set, shared by every thread: the names are fixed when it is made; interned
/// lists are added under a lock, and only for fixes in two or more fences (a fix in none or one
/// costs no lock, see ``GeofenceList``). Lists are never removed: their number is bounded by the
/// distinct ways the fences overlap (the faces of their arrangement), not by the stream, and a
/// handle kept in any session's history stays readable.
///
/// Reading a list (its JSON, its numbers) takes no lock and counts no reference: every text and
/// every interned list is written once, into memory the table owns and never moves, before the
/// handle that reads it exists. A thread holds a handle only after the lock that made it was
/// released (the handle came from ``list(of:)``, from its own cache of such handles, or in a
/// value handed over by a queue or lock), so it sees what was written. Under `enrich` with
/// 20,000 fences, reading the text under the lock and retaining the array was about 7 % of
/// what the fences added to a line (`perf`, 1 worker). `@unchecked Sendable` for that memory.
///
/// Memory: each fence's name twice (quoted, and as a one-element array), plus each interned
/// list's numbers (4 bytes a fence) and its JSON text.
public final class GeofenceListTable: @unchecked Sendable {
    /// Each fence's id as a JSON string (with its quotes), by fence number.
    private let quotedNames: [[UInt8]]
    /// `[]`, then `["id"]` of each fence (the array of a fix in that fence alone), one after
    /// another, and where each fence's begins (one more for the end).
    private let singleTexts: UnsafeMutableBufferPointer<UInt8>
    private let singleStarts: UnsafeMutableBufferPointer<Int>
    /// The interned lists, read without the lock.
    private let lists: UnsafeMutablePointer<Chunk?>
    /// The handles of the lists, under the lock: also where new lists are written.
    private let interned: Monitor<Interned>

    /// An interned list: its fence numbers and its JSON text.
    private struct Entry {
        var numbers: UnsafeBufferPointer<UInt32>
        var text: UnsafeBufferPointer<UInt8>
    }
    private typealias Chunk = UnsafeMutablePointer<Entry>
    /// Lists a chunk holds, and chunks at most: 2^26 distinct lists (over a gigabyte of text).
    private static let chunkBits = 12, mostChunks = 1 << 14

    private struct Interned {
        var count = 0
        var handles: [[UInt32]: UInt32] = [:]
    }

    /// - Parameter ids: the fences' ids, by fence number (ascending order of id, UTF-8 bytes).
    public init(ids: [String]) {
        precondition(ids.count <= GeofenceList.largestSingle, "too many fences for a 31-bit handle")
        quotedNames = ids.map { Array(JSONString.quoted($0).utf8) }
        singleStarts = .allocate(capacity: ids.count + 1)
        var total = 2
        for (n, name) in quotedNames.enumerated() {
            singleStarts[n] = total
            total += name.count + 2
        }
        singleStarts[ids.count] = total
        singleTexts = .allocate(capacity: total)
        singleTexts[0] = UInt8(ascii: "[")
        singleTexts[1] = UInt8(ascii: "]")
        for (n, name) in quotedNames.enumerated() {
            var at = singleStarts[n]
            singleTexts[at] = UInt8(ascii: "[")
            for byte in name { at += 1; singleTexts[at] = byte }
            singleTexts[at + 1] = UInt8(ascii: "]")
        }
        lists = .allocate(capacity: Self.mostChunks)
        lists.initialize(repeating: nil, count: Self.mostChunks)
        interned = Monitor(Interned())
    }

    deinit {
        singleTexts.deallocate()
        singleStarts.deallocate()
        let count = interned.withLock { $0.count }
        for k in 0..<count {
            let entry = lists[k >> Self.chunkBits]![k & (1 << Self.chunkBits - 1)]
            entry.numbers.deallocate()
            entry.text.deallocate()
        }
        for c in 0..<Self.mostChunks { lists[c]?.deallocate() }
        lists.deallocate()
    }

    /// Fences named.
    public var count: Int { quotedNames.count }

    /// Fence `n`'s id as a JSON string literal, quotes included.
    public func quotedName(of n: Int) -> [UInt8] { quotedNames[n] }

    /// The handle of a list of fence numbers.
    ///
    /// - Parameter fences: fence numbers in ascending order, none twice.
    /// - Complexity: O(1) for none or one; else a hash of the list under the table's lock, and
    ///   the first time a list is seen, its JSON text made.
    public func list(of fences: [Int]) -> GeofenceList {
        switch fences.count {
        case 0: return .empty
        case 1: return .single(fences[0])
        default: return intern(fences.map { UInt32(truncatingIfNeeded: $0) })
        }
    }

    /// The handle of a list of fence numbers, through a thread's `cache` of the lists it has
    /// met: a list in the cache costs its hash and a comparison, no lock.
    ///
    /// - Parameters:
    ///   - fences: fence numbers in ascending order, none twice.
    ///   - cache: the calling thread's cache (one per thread; it must be used with one table).
    public func list(of fences: [Int], cache: inout GeofenceListCache) -> GeofenceList {
        switch fences.count {
        case 0: return .empty
        case 1: return .single(fences[0])
        default:
            if let known = cache.handle(of: fences) { return known }
            let list = intern(fences.map { UInt32(truncatingIfNeeded: $0) })
            cache.remember(fences, list)
            return list
        }
    }

    private func intern(_ numbers: [UInt32]) -> GeofenceList {
        let handle: UInt32 = interned.withLock { table in
            if let known = table.handles[numbers] { return known }
            let k = table.count
            precondition(k < min(GeofenceList.largestSingle, Self.mostChunks << Self.chunkBits), "too many distinct fence lists")
            var text: [UInt8] = [UInt8(ascii: "[")]
            for (i, n) in numbers.enumerated() {
                if i > 0 { text.append(UInt8(ascii: ",")) }
                text += quotedNames[Int(n)]
            }
            text.append(UInt8(ascii: "]"))
            let chunk = k >> Self.chunkBits
            if lists[chunk] == nil { lists[chunk] = .allocate(capacity: 1 << Self.chunkBits) }
            let ownNumbers = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: numbers.count)
            _ = ownNumbers.initialize(from: numbers)
            let ownText = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
            _ = ownText.initialize(from: text)
            (lists[chunk]! + (k & (1 << Self.chunkBits - 1))).initialize(
                to: Entry(numbers: UnsafeBufferPointer(ownNumbers), text: UnsafeBufferPointer(ownText)))
            table.count = k + 1
            table.handles[numbers] = UInt32(k)
            return UInt32(k)
        }
        return GeofenceList(rawValue: GeofenceList.internedBit | handle)
    }

    /// Interned list `k` (a handle's), read without the lock (see the type's comment).
    @inline(__always)
    private func entry(_ k: Int) -> Entry {
        lists[k >> Self.chunkBits].unsafelyUnwrapped[k & (1 << Self.chunkBits - 1)]
    }

    /// The `geofences` array of a list, as JSON: `["a","b"]`, `[]` for none.
    public func json(of list: GeofenceList) -> [UInt8] { Array(text(of: list)) }

    /// The `geofences` array of a list, as JSON, in memory the table owns: valid while the
    /// table lives. No lock, no reference counted.
    @inline(__always)
    package func text(of list: GeofenceList) -> UnsafeBufferPointer<UInt8> {
        if list.isEmpty { return UnsafeBufferPointer(rebasing: singleTexts[0..<2]) }
        if let n = list.single {
            return UnsafeBufferPointer(rebasing: singleTexts[singleStarts[n]..<singleStarts[n + 1]])
        }
        return entry(list.interned!).text
    }

    /// The fence numbers of a list, ascending, in `numbers` (emptied first).
    public func fences(of list: GeofenceList, into numbers: inout [UInt32]) {
        numbers.removeAll(keepingCapacity: true)
        if list.isEmpty { return }
        if let n = list.single {
            numbers.append(UInt32(n))
            return
        }
        numbers.append(contentsOf: entry(list.interned!).numbers)
    }

    /// Distinct lists of two or more interned so far.
    public var internedLists: Int { interned.withLock { $0.count } }
}

/// One thread's memory of the fence lists it has turned into handles
/// (``GeofenceListTable/list(of:cache:)``): an open-addressing table of the lists, each found by
/// a hash of its numbers and confirmed by comparing them, so that a list met again costs no lock.
///
/// It grows (at half full) to ``mostSlots``: the 200,000 fixes of `make bench`'s stream in
/// 20,000 city fences are in 17,224 distinct lists of two or more, and a direct-mapped table of
/// 4,096 lists sent most of them back to the table's lock and dictionary.
///
/// Memory: 24 bytes a slot and 4 a remembered fence number; everything is forgotten when the
/// slots would pass ``mostSlots`` (6 MB) or the numbers ``poolLimit`` (4 MB).
public struct GeofenceListCache {
    private struct Slot {
        var hash: UInt64 = 0
        var start: UInt32 = 0
        var count: UInt16 = 0  // 0: an empty slot (a cached list has two or more fences)
        var handle = GeofenceList.empty
    }

    static let firstSlots = 1 << 10, mostSlots = 1 << 18
    static let poolLimit = 1 << 20
    private var table: [Slot] = []  // allocated at the first list remembered
    private var used = 0
    private var pool: [UInt32] = []

    public init() {}

    @inline(__always)
    private static func hash(_ fences: [Int]) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        for n in fences { h = (h ^ UInt64(truncatingIfNeeded: n)) &* 0x9E37_79B9_7F4A_7C15 }
        return h ^ (h >> 29)
    }

    /// The handle of `fences`, if remembered.
    @inline(__always)
    func handle(of fences: [Int]) -> GeofenceList? {
        guard !table.isEmpty else { return nil }
        let h = Self.hash(fences)
        return table.withUnsafeBufferPointer { table in
            pool.withUnsafeBufferPointer { pool in
                let mask = table.count - 1
                var i = Int(truncatingIfNeeded: h) & mask
                while true {
                    let slot = table[i]
                    if slot.count == 0 { return nil }
                    if slot.hash == h && Int(slot.count) == fences.count {
                        var same = true
                        for (k, n) in fences.enumerated() where pool[Int(slot.start) + k] != UInt32(truncatingIfNeeded: n) {
                            same = false
                            break
                        }
                        if same { return slot.handle }
                    }
                    i = (i + 1) & mask
                }
            }
        }
    }

    /// Remembers `fences`' handle (a list of two or more not remembered yet).
    mutating func remember(_ fences: [Int], _ list: GeofenceList) {
        guard fences.count >= 2, fences.count <= Int(UInt16.max) else { return }
        if pool.count + fences.count > Self.poolLimit || 2 * (used + 1) > Self.mostSlots {
            pool.removeAll(keepingCapacity: true)
            table = [Slot](repeating: Slot(), count: Self.firstSlots)
            used = 0
        }
        if table.isEmpty { table = [Slot](repeating: Slot(), count: Self.firstSlots) }
        if 2 * (used + 1) > table.count {
            let old = table
            table = [Slot](repeating: Slot(), count: 2 * old.count)
            for slot in old where slot.count > 0 { place(slot) }
        }
        place(Slot(hash: Self.hash(fences), start: UInt32(pool.count), count: UInt16(fences.count), handle: list))
        used += 1
        for n in fences { pool.append(UInt32(truncatingIfNeeded: n)) }
    }

    private mutating func place(_ slot: Slot) {
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: slot.hash) & mask
        while table[i].count != 0 { i = (i + 1) & mask }
        table[i] = slot
    }
}
