@testable import EnrichStream
import Foundation
import RecordCodec
import Testing
import TestSupport

/// The writer's gather list, and the stream's output gathered from the input's bytes and the
/// partitions' outputs (`writev(2)`), against the same lines processed one by one.
@Suite struct GatherListTests {
    @Test func piecesThatFollowEachOtherBecomeOne() {
        let bytes = Array("abcdefgh".utf8)
        bytes.withUnsafeBufferPointer { b in
            var list = GatherList()
            list.append(b.baseAddress!, count: 2)
            list.append(b.baseAddress! + 2, count: 3)
            list.append(b.baseAddress! + 6, count: 2)
            list.close()
            #expect(list.pieces.count == 2)
            #expect(list.pieces[0].iov_len == 5 && list.pieces[1].iov_len == 2)
            #expect(list.byteCount == 7)
        }
    }

    @Test func aShortWriteLeavesTheRestInOrder() {
        let bytes = Array("0123456789".utf8)
        bytes.withUnsafeBufferPointer { b in
            var list = GatherList()
            list.append(b.baseAddress!, count: 3)      // 012
            list.append(b.baseAddress! + 4, count: 2)  // 45
            list.append(b.baseAddress! + 7, count: 3)  // 789
            list.close()
            func rest(from k: Int) -> String {
                list.pieces[k...].map { String(decoding: UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len), as: UTF8.self) }
                    .joined()
            }
            var k = list.consume(2, from: 0)
            #expect(k == 0 && rest(from: k) == "245789")
            k = list.consume(1, from: k)
            #expect(k == 1 && rest(from: k) == "45789")
            k = list.consume(3, from: k)
            #expect(k == 2 && rest(from: k) == "89")
            k = list.consume(2, from: k)
            #expect(k == 3)
        }
    }

    /// Lines ending in `\r\n`, blank ones, and a last line without its `\n`: each output line
    /// is the one the line gives alone, whether a batch is copied into the output's buffer
    /// (small) or gathered with `writev` (large).
    @Test(arguments: [1 << 12, 1 << 20])
    func gatheredLinesEqualTheLinesProcessedAlone(batchBytes: Int) throws {
        let seed = testSeed("GatherListTests.gathered \(batchBytes)")
        var rng = SplitMix64(seed: seed)
        let lines = StreamRun.lines(WorkersTests.stream(.canonical, lines: 6_000, sessions: 400, seed: seed))
        var input: [UInt8] = []
        for (n, line) in lines.enumerated() {
            input += line
            if n + 1 < lines.count { input += Bool.random(using: &rng) ? [0x0D, 0x0A] : [0x0A] }
        }
        var options = EnrichOptions()
        options.emitRejected = true
        options.batchBytes = batchBytes
        let run = try StreamRun.run([input], options: options)

        var processor = try RecordProcessorTests.processor(.canonical, emitRejected: true)
        let alone = lines.compactMap { processor.process(line: $0).output }
        #expect(alone.count > 3_000, "seed \(seed)")
        #expect(WorkersTests.firstDifference(run.outputLines, alone) == nil, "seed \(seed)")
        #expect(run.output.last == 0x0A, "seed \(seed)")
    }
}
