import CMemoryHints
import GeoModel

/// The ``SessionID``s a reader made lately, by their bytes, so that a line of a session seen
/// before gets its id (its `String` and its ``SessionID/stableHash``) without making them again.
///
/// Making them was about 240 instructions a line of the benchmark stream (`String(decoding:)`
/// checks the UTF-8 the scanner had checked already, then the hash goes over the new string);
/// found here, an id costs a copy of its bytes into a key, two multiplies for the slot and
/// five compares in one cache line (seven, and another line, for an id longer than 32 bytes).
/// The stream's reader looks up in two steps, ``begin(utf8:count:readable:)`` before it checks
/// the record's other fields and ``id(utf8:lookup:)`` after, so that the slot's cache line
/// arrives meanwhile.
///
/// Direct-mapped: ``slotCount`` slots, chosen by a multiplicative hash of the key's words; a new
/// id takes its slot's place. Ids longer than ``longestKept`` bytes are made every time. The
/// result is the same `SessionID` either way; the cache only saves the work. (48 bytes hold the
/// SDKs' ids: the clickstream SDK's 27 characters, a UUID's 36.)
///
/// Not thread-safe: one per reading thread (``ParallelRunner`` keeps one per worker).
package struct SessionIDCache {
    /// Slots: a power of two. 4,096 hold the benchmark stream's 2,000 sessions with few
    /// collisions, in 256 KB (and 64 KB for the ends of keys longer than 32 bytes).
    package static let slotCount = 1 << slotBits
    private static let slotBits = 12
    /// The longest id kept, in bytes: the key is six words.
    package static let longestKept = 48

    /// An id's bytes, zero-padded to six words, and its length.
    package struct Key {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var count = 0

        /// The key of the `count` (at most ``longestKept``) bytes at `base`.
        @inline(__always) init(_ base: UnsafePointer<UInt8>, count: Int) {
            self.count = count
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
        }

        /// The key of the `count` bytes at `base`, of which `readable` may be read: an id of at
        /// most 16 bytes with 16 readable is two loads and two masks, not a copy (`memcpy`).
        @inline(__always) init(_ base: UnsafePointer<UInt8>, count: Int, readable: Int) {
            guard count <= 16 && readable >= 16 else {
                self.init(base, count: count)
                return
            }
            self.init()
            self.count = count
            let raw = UnsafeRawPointer(base)
            // little-endian: the first bytes are the low ones
            let low: UInt64 = count >= 8 ? ~0 : (1 &<< UInt64(8 &* count)) &- 1
            let high: UInt64 = count >= 16 ? ~0 : count <= 8 ? 0 : (1 &<< UInt64(8 &* (count &- 8))) &- 1
            words.0 = raw.loadUnaligned(as: UInt64.self).littleEndian & low
            words.1 = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian & high
        }

        init() {}

        /// The key's slot: a multiplicative hash, whose high bits depend on every byte.
        @inline(__always) var slot: Int {
            let folded = words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15) ^ words.2 ^ (words.3 &* 0x94D0_49BB_1331_11EB)
                ^ words.4 ^ words.5 ^ UInt64(count)
            return Int(truncatingIfNeeded: (folded &* 0xBF58_476D_1CE4_E5B9) >> (64 - SessionIDCache.slotBits))
        }
    }

    /// One slot, one cache line: the key's first four words, its length (0: empty) and the id.
    /// A key longer than 32 bytes keeps its last two words in ``Storage/tails``, read only then.
    /// (Keys and ids in two arrays, 56 and 24 bytes a slot, took two or three cache lines a
    /// lookup: the table's misses were half of its time, perf.)
    private struct Slot {
        var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
        var count = 0
        var id: SessionID? = nil
    }

    /// The slots, 64-byte aligned, and the long keys' last words.
    private final class Storage {
        let slots: UnsafeMutablePointer<Slot>
        let tails: UnsafeMutablePointer<(UInt64, UInt64)>

        init() {
            precondition(MemoryLayout<Slot>.stride == 64, "a slot is a cache line")
            slots = UnsafeMutableRawPointer.allocate(byteCount: 64 * SessionIDCache.slotCount, alignment: 64)
                .bindMemory(to: Slot.self, capacity: SessionIDCache.slotCount)
            slots.initialize(repeating: Slot(), count: SessionIDCache.slotCount)
            tails = .allocate(capacity: SessionIDCache.slotCount)
            tails.initialize(repeating: (0, 0), count: SessionIDCache.slotCount)
        }

        deinit {
            slots.deinitialize(count: SessionIDCache.slotCount)
            UnsafeMutableRawPointer(slots).deallocate()
            tails.deallocate()
        }
    }

    /// Shared by copies of the cache until one of them looks up: it then takes slots of its own
    /// (empty), so that a copy never writes into another's.
    private var storage = Storage()
    /// With far more live sessions than slots (a million), nearly every lookup misses, and the
    /// table only adds its cache misses to each line: then it is turned off a while.
    private var bypass = CacheBypass()

    package init() {}

    /// A lookup begun (``begin(utf8:count:readable:)``).
    package enum Lookup {
        /// The id's key and slot, whose cache line is on its way.
        case slot(Key, Int)
        /// The id is made without the table (too long, or the table is off a while). (Not
        /// `none`: the parser passes an optional lookup, nil for an escaped id.)
        case unkept
    }

    /// Begins the lookup of the id whose UTF-8 is the `count` bytes at `base` (of which
    /// `readable` may be read): its slot is asked for now, to be read by
    /// ``id(utf8:lookup:)`` once the rest of the record is checked. The slot was a cache miss
    /// on nearly every line: 78 % of the lookup's samples sat on its first load, 4.8 % of all
    /// with `--workers 1` (perf, the benchmark stream). Begun before the record's other fields
    /// are checked, the load waits for 1.9 % of all; CPU 0.96× with both cores, 1.00× with one
    /// (two A/B runs of 11 and 21 pairs), for 27 instructions more a line (callgrind).
    @inline(__always)
    package mutating func begin(utf8 base: UnsafePointer<UInt8>, count: Int, readable: Int) -> Lookup {
        guard count <= Self.longestKept, bypass.shouldLookUp() else { return .unkept }
        if !isKnownUniquelyReferenced(&storage) { storage = Storage() }
        let key = Key(base, count: count, readable: readable)
        let slot = key.slot
        geo_prefetch_for_reading(storage.slots + slot)
        return .slot(key, slot)
    }

    /// The id whose UTF-8 is `bytes` (valid UTF-8, not empty: the scanner checked it), from
    /// the cache when it holds it.
    package mutating func id(utf8 bytes: UnsafeBufferPointer<UInt8>) -> SessionID {
        guard let base = bytes.baseAddress else { return Self.make(bytes) }
        return id(utf8: bytes, lookup: begin(utf8: base, count: bytes.count, readable: 0))
    }

    /// ``id(utf8:)`` with its lookup begun by ``begin(utf8:count:readable:)`` of the same bytes.
    @inline(__always)
    package mutating func id(utf8 bytes: UnsafeBufferPointer<UInt8>, lookup: Lookup) -> SessionID {
        guard case .slot(let key, let slot) = lookup else { return Self.make(bytes) }
        assert(key.count == bytes.count, "a lookup of other bytes")
        let s = storage.slots + slot
        let w = key.words
        if s.pointee.count == key.count, s.pointee.w0 == w.0, s.pointee.w1 == w.1, s.pointee.w2 == w.2, s.pointee.w3 == w.3,
           key.count <= 32 || (storage.tails[slot].0 == w.4 && storage.tails[slot].1 == w.5), let id = s.pointee.id {
            bypass.hit()
            return id
        }
        let id = Self.make(bytes)
        s.pointee = Slot(w0: w.0, w1: w.1, w2: w.2, w3: w.3, count: key.count, id: id)
        if key.count > 32 { storage.tails[slot] = (w.4, w.5) }
        return id
    }

    /// Whether ids are being made without the table (too few hits lately).
    var isBypassed: Bool { bypass.isOff }

    /// The slot of the id whose UTF-8 is `bytes` (at most ``longestKept`` of them; the tests
    /// make ids collide with it).
    static func slot(ofUTF8 bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { Key($0.baseAddress!, count: $0.count).slot }
    }

    private static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> SessionID {
        SessionID(String(decoding: bytes, as: UTF8.self))!
    }
}
