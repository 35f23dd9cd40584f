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

    /// The JSON of each kind of list, as the fences' ids spell it, escapes included, read back
    /// from strings past the first chunk of the table's store (4,096 strings a chunk).
    @Test func theTextOfEachKindOfList() {
        let ids = (0..<3_000).map { $0 == 7 ? "a\"quote\\and\u{1}control" : "f\($0)" }
        let table = GeofenceListTable(ids: ids)
        func text(_ list: GeofenceList) -> String { String(decoding: table.text(of: list), as: UTF8.self) }
        #expect(text(.empty) == "[]")
        #expect(text(.single(0)) == #"["f0"]"#)
        #expect(text(.single(2_999)) == #"["f2999"]"#)
        #expect(text(.single(7)) == #"["a\"quote\\and\u0001control"]"#)
        // 2,000 lists: strings 3,001 to 5,000 of the texts, across the chunk boundary
        let lists = (0..<2_000).map { k in table.list(of: [k, k + 7, 2_999]) }
        for k in [1, 1_094, 1_095, 1_096, 1_999] {
            #expect(text(lists[k]) == "[\"f\(k)\",\"f\(k + 7)\",\"f2999\"]", "list \(k)")
        }
        #expect(text(lists[0]) == #"["f0","a\"quote\\and\u0001control","f2999"]"#)
        #expect(table.json(of: lists[1_500]) == Array(#"["f1500","f1507","f2999"]"#.utf8))
        var numbers: [UInt32] = []
        table.fences(of: lists[1_999], into: &numbers)
        #expect(numbers == [1_999, 2_006, 2_999])
    }
}
