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
/// Reading a list (its JSON, its numbers) takes no lock and counts no reference: the texts and
/// numbers are ThreadSharing's `PublishedBytes`, written once before the handle that reads them
/// exists (its comment says why a reader sees them).
///
/// Memory: each fence's name twice (quoted, and as a one-element array), plus each interned
/// list's numbers (4 bytes a fence) and its JSON text, and 128 KB of directory for each of the
/// two (`PublishedBytes`).
public final class GeofenceListTable: Sendable {
    /// Each fence's id as a JSON string (with its quotes), by fence number.
    private let quotedNames: [[UInt8]]
    /// The `geofences` arrays: `[]` (string 0), then `["id"]` of each fence, the array of a fix
    /// in that fence alone (string 1 + n), then each interned list's (string 1 + count + k).
    private let texts: PublishedBytes
    /// Each interned list's fence numbers (`UInt32`s; string k).
    private let numbers = PublishedBytes()
    /// The interned lists by their hash, under the lock (where new ones are made).
    private let index = Monitor(ListIndex())

    /// - Parameter ids: the fences' ids, by fence number (ascending order of id, UTF-8 bytes).
    public init(ids: [String]) {
        precondition(ids.count <= GeofenceList.largestSingle, "too many fences for a 31-bit handle")
        let names = ids.map(JSONString.quotedBytes)
        let texts = PublishedBytes()
        Array("[]".utf8).withUnsafeBytes { _ = texts.append($0) }
        var single: [UInt8] = []
        for name in names {
            single.removeAll(keepingCapacity: true)
            single.append(UInt8(ascii: "["))
            single += name
            single.append(UInt8(ascii: "]"))
            single.withUnsafeBytes { _ = texts.append($0) }
        }
        quotedNames = names
        self.texts = texts
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
        fences.withUnsafeBufferPointer { fences in
            switch fences.count {
            case 0: return .empty
            case 1: return .single(fences[0])
            default: return intern(fences, hash: Self.hash(fences))
            }
        }
    }

    /// The handle of a list of fence numbers, through a thread's `cache` of the lists it has
    /// met: a list in the cache costs its hash and a comparison, no lock.
    ///
    /// - Parameters:
    ///   - fences: fence numbers in ascending order, none twice.
    ///   - cache: the calling thread's cache (one per thread; it must be used with one table).
    public func list(of fences: [Int], cache: inout GeofenceListCache) -> GeofenceList {
        fences.withUnsafeBufferPointer { list(of: $0, cache: &cache) }
    }

    /// ``list(of:cache:)`` of numbers in memory the caller owns (a locator's scratch: an array
    /// there cost its uniqueness checks and reference counts on every query).
    @inline(__always)
    package func list(of fences: UnsafeBufferPointer<Int>, cache: inout GeofenceListCache) -> GeofenceList {
        switch fences.count {
        case 0: return .empty
        case 1: return .single(fences[0])
        default:
            let hash = Self.hash(fences)
            if let known = cache.handle(of: fences, hash: hash) { return known }
            let list = intern(fences, hash: hash)
            cache.remember(fences, hash: hash, list)
            return list
        }
    }

    /// A list's hash, for the table's index and the threads' caches.
    @inline(__always)
    static func hash(_ fences: UnsafeBufferPointer<Int>) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3
        for n in fences { h = (h ^ UInt64(truncatingIfNeeded: n)) &* 0x9E37_79B9_7F4A_7C15 }
        return h ^ (h >> 29)
    }

    /// The handle of a list of two or more, made the first time the list is seen: its numbers
    /// and JSON text written in place in the published strings, and its hash in the index.
    ///
    /// With a dictionary keyed by the list's numbers as an array, interning cost about 2,500
    /// instructions a new list (the array key made, hashed by `Hasher` and kept; the text made
    /// whole, then copied): a third of what 20,000 fences cost a line of `make bench`'s stream,
    /// where about a quarter of the fixes in two or more fences are in a list their thread has
    /// not met (6,618 of 28,345 in 200,000 lines, one worker).
    private func intern(_ fences: UnsafeBufferPointer<Int>, hash: UInt64) -> GeofenceList {
        let handle: UInt32 = index.withLock { index in
            if let known = index.find(hash, fences, numbers) { return known }
            let k = index.count
            precondition(k < GeofenceList.largestSingle, "too many distinct fence lists")
            // both written before the handle exists (the lock is released after)
            let numbersIndex = numbers.append(byteCount: 4 * fences.count) { out in
                for (i, n) in fences.enumerated() {
                    out.storeBytes(of: UInt32(truncatingIfNeeded: n), toByteOffset: 4 * i, as: UInt32.self)
                }
            }
            // `[` and `]`, a comma between each two names, and the names
            let size = fences.reduce(fences.count + 1) { $0 + quotedNames[$1].count }
            let textIndex = texts.append(byteCount: size) { out in
                var at = 0
                func put(_ byte: UInt8) { out[at] = byte; at += 1 }
                put(UInt8(ascii: "["))
                for (i, n) in fences.enumerated() {
                    if i > 0 { put(UInt8(ascii: ",")) }
                    quotedNames[n].withUnsafeBytes { name in
                        UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + name.count)]).copyMemory(from: name)
                        at += name.count
                    }
                }
                put(UInt8(ascii: "]"))
                precondition(at == size, "a list's text is not the size it was given")
            }
            precondition(textIndex == 1 + quotedNames.count + k && numbersIndex == k, "lists appended out of order")
            index.insert(hash, UInt32(k))
            return UInt32(k)
        }
        return GeofenceList(rawValue: GeofenceList.internedBit | handle)
    }

    /// The `geofences` array of a list, as JSON: `["a","b"]`, `[]` for none.
    public func json(of list: GeofenceList) -> [UInt8] { Array(text(of: list)) }

    /// The `geofences` array of a list, as JSON, in memory the table owns: valid while the
    /// table lives. No lock, no reference counted.
    /// - Precondition: `list` was made by this table.
    @inline(__always)
    package func text(of list: GeofenceList) -> UnsafeBufferPointer<UInt8> {
        let k: Int
        if list.isEmpty {
            k = 0
        } else if let n = list.single {
            precondition(n < quotedNames.count, "a fence list of another table")
            k = 1 + n
        } else {
            k = 1 + quotedNames.count + list.interned!
        }
        return texts[k].assumingMemoryBound(to: UInt8.self)
    }

    /// The fence numbers of a list, ascending, in `numbers` (emptied first).
    public func fences(of list: GeofenceList, into numbers: inout [UInt32]) {
        numbers.removeAll(keepingCapacity: true)
        if list.isEmpty { return }
        if let n = list.single {
            numbers.append(UInt32(n))
            return
        }
        numbers.append(contentsOf: self.numbers[list.interned!].assumingMemoryBound(to: UInt32.self))
    }

    /// Distinct lists of two or more interned so far.
    public var internedLists: Int { index.withLock { $0.count } }
}

/// The table's interned lists by hash: open addressing, each slot a list's hash and 1 + its
/// number (0 an empty slot), confirmed by comparing the list's numbers as the table keeps them.
/// At most half full.
private struct ListIndex {
    private struct Slot {
        var hash: UInt64 = 0
        var handle: UInt32 = 0  // 1 + the list's number; 0: empty
    }
    private var slots = [Slot](repeating: Slot(), count: 1 << 10)
    private(set) var count = 0

    /// The number of the list `fences` (whose hash is `hash`), if interned.
    func find(_ hash: UInt64, _ fences: UnsafeBufferPointer<Int>, _ numbers: PublishedBytes) -> UInt32? {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i].handle != 0 {
            if slots[i].hash == hash {
                let k = slots[i].handle - 1
                let stored = numbers[Int(k)].assumingMemoryBound(to: UInt32.self)
                if stored.count == fences.count && zip(stored, fences).allSatisfy({ Int($0) == $1 }) { return k }
            }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Adds list `k` (not in the index) under its hash.
    mutating func insert(_ hash: UInt64, _ k: UInt32) {
        if 2 * (count + 1) > slots.count {
            let old = slots
            slots = [Slot](repeating: Slot(), count: 2 * old.count)
            for slot in old where slot.handle != 0 { place(slot) }
        }
        place(Slot(hash: hash, handle: k + 1))
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: slot.hash) & mask
        while slots[i].handle != 0 { i = (i + 1) & mask }
        slots[i] = slot
    }
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

    /// The handle of `fences` (whose ``GeofenceListTable/hash(_:)`` is `h`), if remembered.
    @inline(__always)
    func handle(of fences: UnsafeBufferPointer<Int>, hash h: UInt64) -> GeofenceList? {
        guard !table.isEmpty else { return nil }
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

    /// Remembers `fences`' handle (a list of two or more not remembered yet, whose hash is
    /// `hash`).
    mutating func remember(_ fences: UnsafeBufferPointer<Int>, hash: UInt64, _ list: GeofenceList) {
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
        place(Slot(hash: hash, start: UInt32(pool.count), count: UInt16(fences.count), handle: list))
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
