import Testing

@testable import GeoModel

/// `GeofenceListTable` and a thread's `GeofenceListCache`: handles through the cache are the
/// table's own, for more lists than the cache's first table holds (it grows and re-places them),
/// met again in another order.
@Suite struct GeofenceListTableTests {
    @Test func theCacheGivesTheTablesHandlesAsItGrows() {
        let table = GeofenceListTable(ids: (0..<3_000).map { "f\($0)" })
        var cache = GeofenceListCache()
        // 5,000 distinct lists of two to four fences (more than 1,024 slots half full, twice over)
        let lists: [[Int]] = (0..<5_000).map { k in
            let first = k % 2_990, width = 2 + k % 3
            return Array(stride(from: first, to: first + width * 3, by: 3))
        }
        let direct = lists.map { table.list(of: $0) }
        let cached = lists.map { table.list(of: $0, cache: &cache) }
        #expect(cached == direct)
        #expect(Set(direct).count == lists.count, "distinct lists, distinct handles")
        // again, backwards: every list from the cache, as the table has it
        #expect(lists.reversed().map { table.list(of: $0, cache: &cache) } == direct.reversed())
        #expect(table.internedLists == lists.count)
        // none and one are no lists at all
        #expect(table.list(of: [], cache: &cache) == .empty && table.list(of: [7], cache: &cache) == .single(7))
        var numbers: [UInt32] = []
        table.fences(of: cached[4_321], into: &numbers)
        #expect(numbers.map(Int.init) == lists[4_321])
    }
}
