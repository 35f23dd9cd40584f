import EnrichEngine
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
    /// Sessions whose rendering is kept, at most.
    static let cacheLimit = 1 << 16

    init() {}

    /// Appends `line` enriched with `enrichment` seen `age` milliseconds after its fix.
    mutating func write(line: UnsafeBufferPointer<UInt8>, record: ParsedRecord, session: SessionID,
                        enrichment: Enrichment, age: Int64, to out: inout [UInt8]) {
        let geo: RenderedGeo
        if let cached = cache[session], cached.enrichment == enrichment {
            geo = cached.geo
        } else {
            geo = RenderedGeo(Self.fields(enrichment))
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

    /// The `geo` values of an enrichment seen `age` milliseconds after its fix.
    static func fields(_ e: Enrichment, age: Int64) -> GeoFields {
        var f = fields(e)
        f.ageMilliseconds = age
        return f
    }

    /// The `geo` values of an enrichment, numbers in the form the fix wrote them.
    static func fields(_ e: Enrichment) -> GeoFields {
        GeoFields(latitude: number(e.latitude, integer: e.tag & NumberForms.latitudeInteger != 0),
                  longitude: number(e.longitude, integer: e.tag & NumberForms.longitudeInteger != 0),
                  accuracy: e.accuracy.map { number($0, integer: e.tag & NumberForms.accuracyInteger != 0) },
                  fixTimestamp: e.fixTimestamp.milliseconds, ageMilliseconds: 0, h3: e.h3.rawValue,
                  country: e.country?.description,
                  postal: e.postal.map { PostalFields(code: $0.code.formatted, fsa: $0.fsa,
                                                      distanceMetres: $0.distanceMetres) })
    }

    /// A number as JSON gave it: an integer stays one. (An integer accuracy beyond 2^53 m has
    /// passed through a double and is written as that double's integer.)
    static func number(_ value: Double, integer: Bool) -> JSONNumber {
        guard integer else { return .double(value) }
        if let v = Int64(exactly: value) { return .integer(v) }
        if let v = UInt64(exactly: value) { return .unsignedInteger(v) }
        return .double(value)
    }
}
