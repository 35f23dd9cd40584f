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
/// slot renders over (``RenderedGeo/render(_:geofences:)``) rather than allocating anew.
///
/// With many more live sessions than slots (a million), most events find their session's
/// rendering gone and render again: in the growth benchmark's million-session stream, more
/// than half of the instructions it spends a line beyond the 1,000-session stream's (callgrind).
struct GeoRenderer {
    /// A rendering and the enrichment it renders. The rendering depends on the enrichment alone,
    /// so that is the key; the session only chooses the slot.
    private struct Slot {
        var enrichment: Enrichment?
        /// Empty until the slot's first rendering.
        var geo = RenderedGeo()
    }

    private var slots: [Slot]
    /// The fence set's table, when enrichments carry fence lists.
    private let geofences: GeofenceListTable?
    /// Slots of the cache, per partition: a power of two. A slot in use costs about 350 bytes
    /// (the enrichment, and a buffer as long as its rendering, about 230 bytes without fences);
    /// 2,048 per partition keep the benchmark stream's 2,000 sessions (spread over the
    /// partitions) with few collisions.
    static let cacheSlots = 1 << 11

    init(geofences: GeofenceListTable? = nil) {
        slots = Array(repeating: Slot(), count: Self.cacheSlots)
        self.geofences = geofences
    }

    /// Appends the tail of a record's line enriched with `enrichment` seen `age` milliseconds
    /// after its fix: `,"geo":{…}}` (``Splice/appendTail(_:ageMilliseconds:to:)``).
    mutating func writeTail(session: SessionID, enrichment: Enrichment, age: Int64,
                            to out: inout [UInt8]) {
        let slot = Int(truncatingIfNeeded: session.stableHash) & (Self.cacheSlots - 1)
        slots.withUnsafeMutableBufferPointer { slots in
            // through the slot's address: read as `slots[slot]`, the slot was copied whole (its
            // enrichment and rendering, with their retains) to compare and to splice
            let s = slots.baseAddress! + slot
            if s.pointee.enrichment != enrichment {
                s.pointee.enrichment = enrichment
                // over the slot's old rendering, in its buffer: no allocation once the slot has one
                s.pointee.geo.render(enrichment, geofences: geofences)
            }
            Splice.appendTail(s.pointee.geo, ageMilliseconds: age, to: &out)
        }
    }

    /// Appends the tail of a rejected fix's line: `,"rejected":"<reason>"}`.
    static func writeRejectedTail(reason: RejectReason, to out: inout [UInt8]) {
        out.append(contentsOf: #","rejected":""#.utf8)
        out.append(contentsOf: reason.rawValue.utf8)
        out.append(contentsOf: #""}"#.utf8)
    }
}
