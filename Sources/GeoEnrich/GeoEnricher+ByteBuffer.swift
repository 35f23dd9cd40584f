import EnrichStream
import NIOCore

extension GeoEnricher {
    /// Enriches one line held in a `ByteBuffer` (its readable bytes, without `\n`): a request
    /// body of one SDK payload, as a SwiftNIO server (Hummingbird, Vapor) hands it over.
    public func enrich(line: ByteBuffer) -> EnrichedLine {
        enrich(line: line.readableBytesView)
    }

    /// Enriches a request body of NDJSON lines held in a `ByteBuffer`; see
    /// `enrich(body:)` of `[UInt8]`.
    public func enrich(body: ByteBuffer) async -> EnrichedBody {
        await enrich(body: Array(body.readableBytesView))
    }
}
