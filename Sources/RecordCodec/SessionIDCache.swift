import GeoModel

/// The ``SessionID``s a reader made lately, by their bytes, so that a line of a session seen
/// before gets its id (its `String` and its ``SessionID/stableHash``) without making them again.
///
/// Making them was about 240 instructions a line of the benchmark stream (`String(decoding:)`
/// checks the UTF-8 the scanner had checked already, then the hash goes over the new string);
/// found here, an id costs a copy of its bytes into a key, two multiplies for the slot and
/// seven compares.
///
/// Direct-mapped: ``slotCount`` slots, chosen by a multiplicative hash of the key's words; a new
/// id takes its slot's place. Ids longer than ``longestKept`` bytes are made every time. The
/// result is the same `SessionID` either way; the cache only saves the work. (48 bytes hold the
/// SDKs' ids: the clickstream SDK's 27 characters, a UUID's 36.)
///
/// Not thread-safe: one per reading thread (``ParallelRunner`` keeps one per worker).
package struct SessionIDCache {
    /// Slots: a power of two. 4,096 hold the benchmark stream's 2,000 sessions with few
    /// collisions, in 352 KB.
    package static let slotCount = 1 << slotBits
    private static let slotBits = 12
    /// The longest id kept, in bytes: the key is six words.
    package static let longestKept = 48

    /// An id's bytes, zero-padded to six words, and its length.
    private struct Key: Equatable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        var count = 0

        /// The key of the `count` (at most ``longestKept``) bytes at `base`.
        @inline(__always) init(_ base: UnsafePointer<UInt8>, count: Int) {
            self.count = count
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
        }

        init() {}

        /// The key's slot: a multiplicative hash, whose high bits depend on every byte.
        @inline(__always) var slot: Int {
            let folded = words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15) ^ words.2 ^ (words.3 &* 0x94D0_49BB_1331_11EB)
                ^ words.4 ^ words.5 ^ UInt64(count)
            return Int(truncatingIfNeeded: (folded &* 0xBF58_476D_1CE4_E5B9) >> (64 - SessionIDCache.slotBits))
        }

        static func == (a: Key, b: Key) -> Bool {
            a.count == b.count && a.words.0 == b.words.0 && a.words.1 == b.words.1
                && a.words.2 == b.words.2 && a.words.3 == b.words.3 && a.words.4 == b.words.4
                && a.words.5 == b.words.5
        }
    }

    /// Each slot's key and id, in two arrays: the keys are plain words, compared in place
    /// (slots of both, read as one value, were copied out whole, with the id's retain).
    private var keys: [Key]
    private var ids: [SessionID?]
    /// With far more live sessions than slots (a million), nearly every lookup misses, and the
    /// table only adds its cache misses to each line: then it is turned off a while.
    private var bypass = CacheBypass()

    package init() {
        keys = Array(repeating: Key(), count: Self.slotCount)
        ids = Array(repeating: nil, count: Self.slotCount)
    }

    /// The id whose UTF-8 is `bytes` (valid UTF-8, not empty: the scanner checked it), from
    /// the cache when it holds it.
    package mutating func id(utf8 bytes: UnsafeBufferPointer<UInt8>) -> SessionID {
        guard bytes.count <= Self.longestKept, let base = bytes.baseAddress else { return Self.make(bytes) }
        guard bypass.shouldLookUp() else { return Self.make(bytes) }
        let key = Key(base, count: bytes.count)
        let slot = key.slot
        let found = keys.withUnsafeBufferPointer { $0[slot] == key }
        if found, let id = ids[slot] {
            bypass.hit()
            return id
        }
        let id = Self.make(bytes)
        keys[slot] = key
        ids[slot] = id
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
