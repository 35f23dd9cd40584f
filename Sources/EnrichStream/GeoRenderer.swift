import CMemoryHints
import EnrichEngine
import GeoModel
import RecordCodec

/// Writes output lines for one partition: what a record's line gets after its first
/// `closingBraceOffset` bytes (its enrichment and closing brace, or its rejection), in the
/// stream's ``RecordFormat``. The input's bytes before that are not copied: the writer gathers
/// them from the batch (see ``DecidedLine/prefix``).
///
/// The `geo` object of a fix is the same on every line it enriches but for `age_ms`, so the
/// renderer keeps sessions' last rendered objects and reuses one while its session's
/// enrichment is unchanged (a fix's own line and its events cost one rendering).
///
/// The cache is direct-mapped: ``cacheSlots`` slots, a session's slot chosen by its id's
/// ``SessionID/stableHash``, which was computed once when the line was read. A `Dictionary`
/// here hashed every id again (SipHash, `Hasher._seed`, `find` and `_finalize` were 3.2 % of
/// the 1 M-line stream's samples); two sessions that share a slot only render more often, the
/// output is the same. Its memory is fixed: the slots, and one rendering buffer each, which a
/// slot renders over rather than allocating anew.
///
/// The slots and their buffers are plain memory that ``Slots`` owns, not arrays: a rendering
/// kept as a `[UInt8]` was retained and released twice on each line it was spliced into (read
/// from memory and passed on, as Swift must copy it), atomic operations that were most of the
/// runtime's 7 % of `enrich`'s samples (perf, one worker).
///
/// With many more live sessions than slots (a million), most events find their session's
/// rendering gone and render again: in the growth benchmark's million-session stream, more
/// than half of the instructions it spends a line beyond the 1,000-session stream's (callgrind).
/// When so few tails find their rendering that the cache only costs its misses, it is turned
/// off a while (``CacheBypass``).
struct GeoRenderer {
    /// A rendering and the enrichment it renders. The rendering depends on the enrichment alone,
    /// so that is the key; the session only chooses the slot.
    fileprivate struct Slot {
        var enrichment: Enrichment?
        /// The rendering (``RecordCodec/RenderedGeo/render(_:geofences:_:)``'s text), `count`
        /// bytes of a buffer of `capacity`; nil until the slot's first rendering.
        var bytes: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        var count = 0
        /// Where the `age_ms` value goes in the rendering.
        var ageOffset = 0
    }

    /// The slots and their buffers, freed with it.
    fileprivate final class Slots {
        let base: UnsafeMutablePointer<Slot>
        /// A power of two.
        let count: Int

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
            base.initialize(repeating: Slot(), count: count)
        }

        /// The slot of the session whose ``SessionID/stableHash`` is `hash`: its low bits
        /// (`count` is a power of two). The one place a hash chooses a slot.
        @inline(__always)
        func slot(ofHash hash: UInt64) -> UnsafeMutablePointer<Slot> {
            base + (Int(truncatingIfNeeded: hash) & (count - 1))
        }

        deinit {
            for i in 0..<count { base[i].bytes?.deallocate() }
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// Shared by copies of the renderer until one of them writes: it then takes slots of its
    /// own (empty: a cache), so that a copy never writes into another's.
    private var slots: Slots
    /// The fence set's table, when enrichments carry fence lists.
    private let geofences: GeofenceListTable?
    /// The cache's slots (a power of two).
    var cacheSlots: Int { slots.count }
    /// Slots of a renderer's cache unless its maker says otherwise. A slot in use costs about
    /// 300 bytes (the enrichment, and a buffer a little longer than its rendering, about 230
    /// bytes without fences).
    static let defaultCacheSlots = 1 << 11
    /// The slots of all the stream's renderers together (``ParallelRunner`` divides them among
    /// its partitions, ``defaultCacheSlots`` at least each): 16,384 keep the benchmark stream's
    /// 2,000 sessions with few collisions however they are partitioned.
    static let streamCacheSlots = 1 << 14

    /// With far more live sessions than slots (a million), nearly every event finds another
    /// session's rendering in its slot: reading that slot, and writing the new rendering over
    /// it, are cache misses that keep nothing for later. Then the cache is turned off a while,
    /// the tails rendered on the stack and copied to the output alone. (Without this, on the
    /// growth benchmark's million-session stream, copying renderings was about a tenth of the
    /// samples, perf.)
    private var bypass = CacheBypass()

    /// - Parameters:
    ///   - geofences: the fence set's table, when enrichments carry fence lists.
    ///   - cacheSlots: the cache's slots: a power of two.
    init(geofences: GeofenceListTable? = nil, cacheSlots: Int = defaultCacheSlots) {
        precondition(cacheSlots > 0 && cacheSlots & (cacheSlots - 1) == 0, "cacheSlots must be a power of two")
        self.geofences = geofences
        slots = Slots(count: cacheSlots)
    }

    /// Appends the tail of a record's line enriched with `enrichment` seen `age` milliseconds
    /// after its fix, and the line's `\n`: `,"geo":{…}}` (``Splice/appendTail(_:ageMilliseconds:to:)``).
    /// The `\n` comes in the same append: in one of its own, about 20 instructions an enriched
    /// line (callgrind).
    mutating func writeTail(session: SessionID, enrichment: Enrichment, age: Int64, to out: inout [UInt8]) {
        guard bypass.shouldLookUp() else {
            RenderedGeo.render(enrichment, geofences: geofences) { text, ageOffset in
                Splice.appendTail(text, ageOffset: ageOffset, ageMilliseconds: age, terminator: 0x0A, to: &out)
            }
            return
        }
        if !isKnownUniquelyReferenced(&slots) { slots = Slots(count: slots.count) }
        let s = slots.slot(ofHash: session.stableHash)
        if s.pointee.enrichment == enrichment {
            bypass.hit()
        } else {
            s.pointee.enrichment = enrichment
            // over the slot's old rendering, in its buffer: no allocation once the slot has one
            RenderedGeo.render(enrichment, geofences: geofences) { text, ageOffset in
                if text.count > s.pointee.capacity {
                    s.pointee.bytes?.deallocate()
                    // a little room, so that a slightly longer rendering later fits
                    let capacity = (text.count + 63) & ~63
                    s.pointee.bytes = .allocate(capacity: capacity)
                    s.pointee.capacity = capacity
                }
                s.pointee.bytes!.update(from: text.baseAddress!, count: text.count)
                s.pointee.count = text.count
                s.pointee.ageOffset = ageOffset
            }
        }
        Splice.appendTail(UnsafeBufferPointer(start: s.pointee.bytes!, count: s.pointee.count), ageOffset: s.pointee.ageOffset,
                          ageMilliseconds: age, terminator: 0x0A, to: &out)
    }

    /// A hint that a record of the session with this ``SessionID/stableHash`` comes some
    /// records from now: its slot's cache lines are asked for. The slots are spread over
    /// 120 bytes × ``cacheSlots`` (1.9 MB for the whole stream), far more than the level-2
    /// cache, so a slot read unasked misses: the slot's compare in ``writeTail(session:enrichment:age:to:)``
    /// was 6.5 % of `enrich --workers 1`'s samples (perf, the 1 M-line stream), nearly all of
    /// it on the load. With this and ``prefetchRendering(ofHash:)``: CPU a line 0.956 × with
    /// one worker, 0.986 × with both (A/B in `make bench`), for 40 instructions a line more.
    @inline(__always)
    func prefetchSlot(ofHash hash: UInt64) {
        let s = UnsafeRawPointer(slots.slot(ofHash: hash))
        geo_prefetch_for_reading(s)
        geo_prefetch_for_reading(s + (MemoryLayout<Slot>.size - 1))
    }

    /// A hint that a record of this session comes next or nearly: its slot's rendering is
    /// asked for (the copy of an unasked one into the output was most of `memmove`'s 6 % of the
    /// samples, perf). Reads the slot, so call it records after ``prefetchSlot(ofHash:)`` for
    /// the same session, when the slot has arrived.
    @inline(__always)
    func prefetchRendering(ofHash hash: UInt64) {
        let s = slots.slot(ofHash: hash)
        let count = s.pointee.count
        guard let bytes = s.pointee.bytes, count > 0 else { return }
        var offset = 0
        while offset < count {
            geo_prefetch_for_reading(bytes + offset)
            offset &+= 64
        }
        geo_prefetch_for_reading(bytes + (count &- 1))
    }

    /// Whether tails are being rendered without the cache (too few hits lately).
    var isBypassed: Bool { bypass.isOff }

    /// The enrichment whose rendering `session`'s slot holds (for tests).
    func cachedEnrichment(session: SessionID) -> Enrichment? {
        slots.slot(ofHash: session.stableHash).pointee.enrichment
    }

    /// Appends the tail of a rejected fix's line and its `\n`: `,"rejected":"<reason>"}`.
    static func writeRejectedTail(reason: RejectReason, to out: inout [UInt8]) {
        out.append(contentsOf: #","rejected":""#.utf8)
        out.append(contentsOf: reason.rawValue.utf8)
        out.append(contentsOf: "\"}\n".utf8)
    }
}
