import EnrichEngine
import GeoModel
import RecordCodec

/// Writes output lines for one partition: a record's line with its enrichment spliced in, in the
/// stream's ``RecordFormat``.
///
/// The `geo` object of a fix is the same on every line it enriches but for `age_ms`, so the
/// renderer keeps each session's last rendered object and reuses it while the session's
/// enrichment is unchanged (a fix's own line and its events cost one rendering). The cache is
/// emptied when it reaches ``cacheLimit`` sessions, so its memory is bounded.
struct GeoRenderer {
    private var cache: [SessionID: (enrichment: Enrichment, geo: RenderedGeo)] = [:]
    /// Sessions whose rendering is kept, at most, per partition. An entry costs about 450 bytes
    /// (the key, the enrichment, the rendered bytes' buffer); at 65,536 the caches of one
    /// worker's four partitions held about 120 MB on a stream of 1 M live sessions, the
    /// larger part of what the README called 150 bytes a session. 4,096 still holds every
    /// session of the benchmark stream (2,000 sessions over the partitions), where reuse pays.
    static let cacheLimit = 1 << 12

    init() {}

    /// Appends `line` enriched with `enrichment` seen `age` milliseconds after its fix.
    mutating func write(line: UnsafeBufferPointer<UInt8>, record: ParsedRecord, session: SessionID,
                        enrichment: Enrichment, age: Int64, to out: inout [UInt8]) {
        let geo: RenderedGeo
        if let cached = cache[session], cached.enrichment == enrichment {
            geo = cached.geo
        } else {
            geo = RenderedGeo(enrichment)
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[session] = (enrichment, geo)
        }
        Splice.append(line: line, closingBrace: record.closingBraceOffset, geo: geo, ageMilliseconds: age, to: &out)
    }

    /// Appends a rejected fix's line with `"rejected":"<reason>"` added before its final `}`.
    static func writeRejected(line: UnsafeBufferPointer<UInt8>, record: ParsedRecord, reason: RejectReason,
                       to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<record.closingBraceOffset]))
        out.append(contentsOf: #","rejected":""#.utf8)
        out.append(contentsOf: reason.rawValue.utf8)
        out.append(contentsOf: #""}"#.utf8)
    }
}
