import Foundation
import GeoEnrich
import NIOCore
import Testing

/// What `import GeoEnrich` adds for a service: the enricher takes a SwiftNIO `ByteBuffer` as
/// a server hands it over, and gives what it gives for the same bytes as an array.
@Suite struct ServiceEntryTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data").path

    @Test func aByteBufferIsEnrichedAsItsBytes() async throws {
        let lookup = try LocationLookup(dataDirectory: Self.data)
        let lines = [#"{"type":"location","session_id":"a","timestamp":1764237600000,"latitude":49.888171,"longitude":-97.131112}"#,
                     #"{"type":"track","session_id":"a","timestamp":1764237601000}"#,
                     #"{"type":"track","session_id":"a","timestamp":"#]
        let viaArrays = try GeoEnricher(lookup: lookup)
        let viaBuffers = try GeoEnricher(lookup: lookup)
        for line in lines {
            let expected = viaArrays.enrich(line: Array(line.utf8))
            #expect(viaBuffers.enrich(line: ByteBuffer(string: line)) == expected)
        }
        let body = lines.joined(separator: "\n") + "\n"
        let a = await try GeoEnricher(lookup: lookup).enrich(body: Array(body.utf8))
        let b = await try GeoEnricher(lookup: lookup).enrich(body: ByteBuffer(string: body))
        #expect(a.ndjson == b.ndjson && a.lines == b.lines && a.lines.count == 3)
        #expect(b.lines[0].decisions.first?.enrichment?.postal?.fsa == "R3C")
    }
}
