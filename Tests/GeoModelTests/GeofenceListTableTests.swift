import Testing

@testable import GeoModel

/// `GeofenceListTable`: each list interned once under a handle of its own, found again as its
/// index grows (it starts at 1,024 slots, half full at most), and read back.
@Suite struct GeofenceListTableTests {
    @Test func eachListHasOneHandleAsTheIndexGrows() {
        let table = GeofenceListTable(ids: (0..<3_000).map { "f\($0)" })
        // 5,000 distinct lists of two to four fences (more than 1,024 slots half full, twice over)
        let lists: [[Int]] = (0..<5_000).map { k in
            let first = k % 2_990, width = 2 + k % 3
            return Array(stride(from: first, to: first + width * 3, by: 3))
        }
        let handles = lists.map { table.list(of: $0) }
        #expect(Set(handles).count == lists.count, "distinct lists, distinct handles")
        #expect(table.internedLists == lists.count)
        // again, backwards, once the index has grown: the same handles, nothing added
        #expect(lists.reversed().map { table.list(of: $0) } == handles.reversed())
        #expect(table.internedLists == lists.count)
        // none and one are no lists at all
        #expect(table.list(of: []) == .empty && table.list(of: [7]) == .single(7))
        var numbers: [UInt32] = []
        table.fences(of: handles[4_321], into: &numbers)
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
