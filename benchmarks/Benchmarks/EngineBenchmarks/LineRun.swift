import Benchmark
import Foundation
import H3Core
import RecordCodec

/// The per-line codec work of `geo-enrich enrich`: the stream's raw lines, parsed with the
/// product's ``RecordParser`` and spliced with a `geo` object rendered once (as the pipeline
/// reuses a session's rendering), into one reused output buffer.
final class LineRun {
    /// The first 100,000 lines of the benchmark stream, as bytes.
    let lines: [[UInt8]]
    let geo: RenderedGeo
    let parser = RecordParser()
    var output: [UInt8] = []
    var next = 0

    init() throws {
        let data = try Data(contentsOf: EngineInputs.streamFile)
        var lines: [[UInt8]] = []
        var start = data.startIndex
        while start < data.endIndex && lines.count < 100_000 {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            if end > start { lines.append(Array(data[start..<end])) }
            start = end + 1
        }
        self.lines = lines
        geo = RenderedGeo(Enrichment(latitude: 49.888171, longitude: -97.131112, accuracy: 12.5,
                                     fixTimestamp: Timestamp(milliseconds: 1_764_237_600_000),
                                     h3: H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!, country: CountryCode("CA"),
                                     postal: PostalMatch(code: PostalCode("R3C 4L9")!, distanceMetres: 19.7)))
        output.reserveCapacity(1 << 20)
    }

    /// Parses the next `count` lines and splices each record's `geo`; returns a checksum.
    func run(_ count: Int) -> Int {
        var checksum = 0
        output.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            let line = lines[next]
            next = next + 1 == lines.count ? 0 : next + 1
            line.withUnsafeBufferPointer { bytes in
                if case .record(let record) = parser.parse(bytes) {
                    Splice.append(line: bytes, closingBrace: record.closingBraceOffset, geo: geo, ageMilliseconds: 12_000,
                                  to: &output)
                    checksum &+= record.closingBraceOffset
                }
            }
        }
        return checksum &+ output.count
    }
}
