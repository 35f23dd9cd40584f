import CMemoryHints

/// An open-addressing hash index from a session's id to its place in the session table's dense
/// array of states (``SessionState``).
///
/// Why not `Dictionary<SessionID, SessionState>`: the id already carries a 64-bit hash
/// (``SessionID/stableHash``), which `Dictionary` would feed through SipHash again (`Hasher`'s
/// seed and finalisation cost more than the rest of a lookup); its values are read by copy
/// through `Dictionary.Values`; and it keeps key and value in buckets sized for its 75 % load,
/// so a million sessions take 2²¹ buckets of about 150 bytes each. Here a slot is 8 bytes and
/// the states live in a dense array of exactly as many entries as there are sessions.
///
/// A slot holds 0 when empty, or `fingerprint << 32 | (entry + 1)`: the low 32 bits of the id's
/// hash and the entry's position. A lookup compares the fingerprint first and the full id (hash,
/// then string) only on a match. Linear probing from a home slot taken from the hash's top bits
/// after a Fibonacci multiply (FNV-1a's own low bits are weak, and ``LocationEngine`` already
/// spends the hash's bits 32… on choosing a shard). Deletion shifts later slots back (Knuth's
/// algorithm R), so there are no tombstones and probe lengths stay those of the load factor.
///
/// The capacity is a power of two, at least ``minimumCapacity``, and at most 3/4 full.
struct SessionIndex {
    /// The smallest number of slots.
    static let minimumCapacity = 16

    /// The slots, `capacity` of them.
    private var slots: [UInt64]
    /// 64 − log₂(capacity): the home slot is the top log₂(capacity) bits of the mixed hash.
    private var shift: UInt64

    /// An index of `capacity` empty slots.
    ///
    /// - Parameter capacity: a power of two, at least ``minimumCapacity``.
    init(capacity: Int = minimumCapacity) {
        precondition(capacity >= Self.minimumCapacity && capacity & (capacity - 1) == 0)
        slots = [UInt64](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    /// The number of slots.
    var capacity: Int { slots.count }

    /// The smallest capacity that holds `count` entries at most half full, so that a rebuilt
    /// index has room to grow by half before it must grow again.
    static func capacity(for count: Int) -> Int {
        var capacity = minimumCapacity
        while capacity < 2 * count { capacity <<= 1 }
        return capacity
    }

    /// Whether one more entry would take the index past 3/4 full.
    @inline(__always)
    func isFull(count: Int) -> Bool { 4 * (count + 1) > 3 * slots.count }

    @inline(__always)
    private func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private static func fingerprint(_ hash: UInt64) -> UInt64 { hash << 32 }

    @inline(__always)
    private static func entry(_ slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }

    /// Where `id` is, or the empty slot where it would go.
    ///
    /// - Parameters:
    ///   - id: the session.
    ///   - states: the table's states, which the slots point into.
    /// - Returns: the slot and, when `id` is present, its entry (else `nil`).
    /// - Complexity: O(1) expected: a few slots at a load of at most 3/4.
    @inline(__always)
    func find(_ id: SessionID, in states: [SessionState]) -> (slot: Int, entry: Int?) {
        let mask = slots.count - 1
        let fingerprint = Self.fingerprint(id.stableHash)
        var slot = home(id.stableHash)
        while true {
            let s = slots[slot]
            if s == 0 { return (slot, nil) }
            if s & 0xFFFF_FFFF_0000_0000 == fingerprint {
                let entry = Self.entry(s)
                if states[entry].id == id { return (slot, entry) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Asks for the home slot of the id whose hash is `hash` (``SessionStore/prefetch(slotOf:stateOf:)``).
    @inline(__always)
    func prefetchSlot(_ hash: UInt64) {
        slots.withUnsafeBufferPointer { geo_prefetch_for_reading($0.baseAddress! + home(hash)) }
    }

    /// The entry that the home slot of `hash` points at when the slot's fingerprint is the
    /// hash's (most likely that id's: a lookup checks the id), else `nil`. Reads one slot.
    @inline(__always)
    func likelyEntry(_ hash: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let s = slots[home(hash)]
            return s != 0 && s & 0xFFFF_FFFF_0000_0000 == Self.fingerprint(hash) ? Self.entry(s) : nil
        }
    }

    /// Points the empty `slot` (from ``find(_:in:)``, with nothing inserted since) at `entry`.
    @inline(__always)
    mutating func insert(_ id: SessionID, entry: Int, at slot: Int) {
        precondition(entry < Int(UInt32.max), "more sessions than a 32-bit entry number holds")
        slots[slot] = Self.fingerprint(id.stableHash) | UInt64(entry + 1)
    }

    /// Empties `slot` and shifts back the slots after it that probed past it.
    ///
    /// - Complexity: O(1) expected: the run of occupied slots after `slot`.
    mutating func remove(at slot: Int, in states: [SessionState]) {
        let mask = slots.count - 1
        var hole = slot
        var next = (slot + 1) & mask
        while slots[next] != 0 {
            let wanted = home(states[Self.entry(slots[next])].id.stableHash)
            // the entry at `next` may move to the hole unless its home lies cyclically in (hole, next]
            let distanceToHole = (next - hole) & mask
            let distanceToHome = (next - wanted) & mask
            if distanceToHome >= distanceToHole {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }

    /// Repoints the slot of the state now at `to` (it was at `from`), after the table moved it.
    ///
    /// - Complexity: O(1) expected.
    mutating func move(entry from: Int, to: Int, in states: [SessionState]) {
        let mask = slots.count - 1
        let target = UInt64(from + 1)
        var slot = home(states[to].id.stableHash)
        var probes = 0
        while slots[slot] & 0xFFFF_FFFF != target {
            probes += 1
            precondition(probes < slots.count, "session index: a moved state's slot is missing")
            slot = (slot + 1) & mask
        }
        slots[slot] = slots[slot] & 0xFFFF_FFFF_0000_0000 | UInt64(to + 1)
    }

    /// An index of `capacity` slots over all of `states`.
    ///
    /// - Complexity: O(capacity + states.count).
    init(capacity: Int, states: [SessionState]) {
        self.init(capacity: capacity)
        let mask = capacity - 1
        for (entry, state) in states.enumerated() {
            var slot = home(state.id.stableHash)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            insert(state.id, entry: entry, at: slot)
        }
    }
}
