import Testing
import TestSupport

@testable import GeoLookup

/// `LocationLookup.locate`, called from many tasks at once, answers what a locator of one's own
/// answers (run under the thread sanitizer by the test command: the pool of locators is shared).
@Suite struct LocationLookupSharingTests {
    @Test func manyTasksGetWhatALocatorOfTheirOwnGets() async throws {
        let seed = testSeed("LocationLookupSharingTests")
        var rng = SplitMix64(seed: seed)
        // Canada and its borders (the postal search), and anywhere
        let points: [(Double, Double)] = (0..<4_000).map { n in
            n % 2 == 0 ? (rng.uniform(42, 60), rng.uniform(-140, -52)) : (rng.uniform(-89, 89), rng.uniform(-180, 180))
        }
        let lookup = LocationLookupTests.lookup
        let own = try lookup.makeLocator()
        let expected = points.map { own.locate(latitude: $0.0, longitude: $0.1) }
        let answers = try await withThrowingTaskGroup(of: [(Int, LocationLookup.Result)].self) { group in
            for lane in 0..<8 {
                group.addTask {
                    try stride(from: lane, to: points.count, by: 8).map { i in
                        (i, try lookup.locate(latitude: points[i].0, longitude: points[i].1))
                    }
                }
            }
            var all = [LocationLookup.Result?](repeating: nil, count: points.count)
            for try await part in group { for (i, r) in part { all[i] = r } }
            return all
        }
        #expect(answers.map { $0! } == expected, "seed \(seed)")
        #expect(expected.contains { $0.postal != nil } && expected.contains { $0.country == nil })
    }
}
