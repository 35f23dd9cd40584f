import H3Core
import Testing

@testable import EnrichEngine

@Suite("FixHistory: per-session lists of kept fixes in one pool")
struct FixHistoryTests {
    func enrichment(_ ms: Int64) -> Enrichment {
        Enrichment(latitude: 49.9, longitude: -97.1, accuracy: nil, fixTimestamp: ts(ms),
                   h3: try! H3Cell(string: "8f271c973aa4594"), country: nil, postal: nil)
    }

    // a state's two list ends are distinct stored properties, which one call may take inout
    // together only through the state itself
    func append(_ e: Enrichment, to state: inout SessionState, in history: inout FixHistory) {
        history.append(e, head: &state.olderHead, tail: &state.olderTail)
    }

    func drop(before cutoff: Int64, from state: inout SessionState, in history: inout FixHistory) {
        history.dropFixes(before: cutoff, head: &state.olderHead, tail: &state.olderTail)
    }

    /// The fix times of the list starting at `head`, oldest first.
    func times(_ history: FixHistory, from head: UInt32) -> [Int64] {
        var out: [Int64] = []
        var node = head
        while node != 0 {
            out.append(history.time(node))
            node = history.next(node)
        }
        return out
    }

    @Test("lists keep their order through appends, drops, frees and a compaction")
    func listsAndCompaction() {
        var history = FixHistory()
        var states = (0..<200).map { SessionState(id: sid("s-\($0)"), first: enrichment(0)) }
        var expected = [[Int64]](repeating: [], count: states.count)
        // interleaved appends, so each list's nodes are scattered over the pool
        for t in 1...10 as ClosedRange<Int64> {
            for i in states.indices {
                append(enrichment(t * 1_000 + Int64(i)), to: &states[i], in: &history)
                expected[i].append(t * 1_000 + Int64(i))
            }
        }
        // drop the first half of every list, then free whole lists for two thirds of the sessions
        for i in states.indices {
            drop(before: 6_000, from: &states[i], in: &history)
            expected[i].removeAll { $0 < 6_000 }
        }
        for i in states.indices where i % 3 != 0 {
            history.releaseAll(from: states[i].olderHead)
            states[i].olderHead = 0
            states[i].olderTail = 0
            expected[i] = []
        }
        #expect(history.isSparse)
        // freed nodes are reused before the pool grows
        let before = history.count
        append(enrichment(11_000), to: &states[0], in: &history)
        expected[0].append(11_000)
        #expect(history.count == before + 1)
        history.compact(&states)
        #expect(history.freeCount == 0)
        #expect(history.count == expected.reduce(0) { $0 + $1.count })
        for i in states.indices {
            #expect(times(history, from: states[i].olderHead) == expected[i])
            #expect((states[i].olderTail == 0) == expected[i].isEmpty)
            if states[i].olderTail != 0 { #expect(history.time(states[i].olderTail) == expected[i].last) }
        }
        // the tails still take appends after compaction
        append(enrichment(12_000), to: &states[3], in: &history)
        #expect(times(history, from: states[3].olderHead) == expected[3] + [12_000])
    }
}
