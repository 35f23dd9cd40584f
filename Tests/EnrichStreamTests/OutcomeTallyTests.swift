import Testing
import TestSupport
@testable import EnrichStream

/// The writer's tally of line outcomes, added to the statistics once a batch, against the
/// statistics counted one outcome at a time.
@Suite struct OutcomeTallyTests {
    @Test("every outcome has its own count in the tally")
    func roomForEveryOutcome() {
        #expect(LineOutcome.allCases.count <= 16)
        var tally = OutcomeTally()
        for (k, outcome) in LineOutcome.allCases.enumerated() { for _ in 0...k { tally.add(outcome) } }
        for (k, outcome) in LineOutcome.allCases.enumerated() { #expect(tally[outcome] == k + 1, "\(outcome)") }
    }

    @Test("a tally adds to the statistics what counting each outcome adds")
    func tallyEqualsCountingOneByOne() {
        let seed = testSeed("OutcomeTallyTests.tallyEqualsCountingOneByOne")
        var random = SplitMix64(seed: seed)
        var oneByOne = EnrichStatistics(), tallied = EnrichStatistics()
        // both start from the same earlier figures
        oneByOne.count(.fixAccepted, times: 3)
        tallied.count(.fixAccepted, times: 3)
        for _ in 0..<20 {
            var tally = OutcomeTally()
            for _ in 0..<Int(random.next() % 500) {
                let outcome = LineOutcome.allCases[Int(random.next() % UInt64(LineOutcome.allCases.count))]
                oneByOne.count(outcome)
                tally.add(outcome)
            }
            tallied.count(tally)
            #expect(tallied == oneByOne, "seed 0x\(String(seed, radix: 16))")
        }
        #expect(oneByOne.reconciles && oneByOne.records > 1_000)
    }
}
