import ThreadSharing

/// The names of a fence set's fences and every list of two or more of them that a fix has been
/// in, each under a ``GeofenceList`` handle: what turns a handle into the `geofences` array of
/// a `geo` object, the fences of a transition into their ids, and a handle back into fence
/// numbers for the engine's comparison of a session's lists.
///
/// One per fence set, shared by every thread: the names are fixed when it is made; a list of
/// two or more is found, or added, in an index under a lock (a fix in none or one costs no
/// lock, see ``GeofenceList``). Lists are never removed: their number is bounded by the
/// distinct ways the fences overlap (the faces of their arrangement), not by the stream, and a
/// handle kept in any session's history stays readable.
///
/// Reading a list (its JSON, its numbers) takes no lock and counts no reference: the texts and
/// numbers are ThreadSharing's `PublishedBytes`, written once before the handle that reads them
/// exists (its comment says why a reader sees them).
///
/// Memory: each fence's name twice (quoted, and as a one-element array), plus each interned
/// list's numbers (4 bytes a fence), its JSON text and 16 to 32 bytes of index, and 128 KB of
/// directory for each of the two (`PublishedBytes`).
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
    /// - Complexity: O(1) for none or one; else a hash of the list and a probe of the table's
    ///   index under its lock, and the first time a list is seen, its JSON text made.
    public func list(of fences: [Int]) -> GeofenceList {
        fences.withUnsafeBufferPointer { list(of: $0) }
    }

    /// ``list(of:)`` of numbers in memory the caller owns (a locator's scratch: an array there
    /// cost its uniqueness checks and reference counts on every query).
    ///
    /// No cache of its own per thread in front of the lock: with one (an open-addressing table
    /// of the lists a thread had met, up to 6 MB), `enrich` with 20,000 fences ran the same
    /// (paired medians 0.994 and 1.002 of the lines, 15 runs each way) once interning was
    /// cheap; the lock is held for a probe, two threads take it about 26,000 times a million
    /// lines.
    @inline(__always)
    package func list(of fences: UnsafeBufferPointer<Int>) -> GeofenceList {
        switch fences.count {
        case 0: return .empty
        case 1: return .single(fences[0])
        default: return intern(fences, hash: Self.hash(fences))
        }
    }

    /// A list's hash, for the table's index.
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
    /// where a sixth of the fixes in two or more fences are in a list their thread has not met.
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
