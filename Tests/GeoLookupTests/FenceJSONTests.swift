import Testing

@testable import GeoLookup

/// The fence files' JSON reader alone: RFC 8259 strictly (what it refuses, with where), numbers
/// read exactly, strings with every escape, and positions kept as number arrays.
@Suite struct FenceJSONTests {
    func parse(_ text: String) -> FenceJSONValue? { try? FenceJSON.parse(Array(text.utf8)) }

    func failure(_ text: String) -> String? {
        do { _ = try FenceJSON.parse(Array(text.utf8)); return nil } catch { return error.message }
    }

    @Test("refused, with what and where", arguments: [
        ("[1, 2", "end of file"), ("{\"a\":1,}", "expected a member name"), ("[01]", "leading zero"),
        ("[1.]", "after its '.'"), ("[1e]", "exponent"), ("[-]", "needs digits"), ("{\"a\" 1}", "expected ':'"),
        ("[1] x", "after the JSON value"), ("\"\\x\"", "invalid escape"), ("\"\\ud800\"", "lone surrogate"),
        ("\"a\u{01}\"", "control character"), ("[tru]", "unexpected"), ("[1e999]", "too large"), ("", "end of file"),
        (String(repeating: "[", count: 600), "nested deeper"),
    ])
    func refusals(text: String, says: String) {
        let message = failure(text)
        #expect(message?.contains(says) == true, "\(String(describing: message))")
    }

    @Test func theFailureSaysWhereByLineAndColumn() {
        #expect(failure("{\n  \"a\": [1,\n  2,]\n}")?.hasSuffix("at line 3, column 5") == true)
    }

    @Test func numbersAreReadExactlyAndIntegersKept() {
        guard case .object(let members)? = parse(#"{"a":-0.1,"b":18446744073709551616,"c":123,"d":-9223372036854775808,"e":1.0,"f":2.5e-3}"#)
        else { Issue.record("not an object"); return }
        let values = members.map(\.value)
        guard case .number(let a, nil) = values[0], case .number(let b, nil) = values[1],
              case .number(_, 123?) = values[2], case .number(_, Int64.min?) = values[3],
              case .number(1.0, nil) = values[4], case .number(let f, nil) = values[5] else {
            Issue.record("\(values)"); return
        }
        #expect(a == -0.1 && b == 18446744073709551616.0 && f == 0.0025)
    }

    @Test func positionsAreNumberArraysAndEverythingElseATree() {
        guard case .array(let rings)? = parse("[[[0, 1.5], [2, 3]], []]") else { Issue.record("not an array"); return }
        guard case .array(let ring) = rings[0], case .numbers([0, 1.5]) = ring[0], case .numbers([]) = rings[1] else {
            Issue.record("\(rings)"); return
        }
        guard case .array(let mixed)? = parse(#"[1, "a", null, true]"#), mixed.count == 4,
              case .number(1, nil) = mixed[0], case .string("a") = mixed[1], case .null = mixed[2], case .bool(true) = mixed[3]
        else { Issue.record("mixed array"); return }
    }

    @Test func stringsDecodeEveryEscapeAndKeepUTF8() {
        let text = #"["\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "é日本"]"#
        guard case .array(let strings)? = parse(text) else { Issue.record("not an array"); return }
        #expect(strings.map(\.string) == ["\"\\/\u{08}\u{0C}\n\r\t", "é😀", "é日本"])
        #expect((try? FenceJSON.parse([0x22, 0xFF, 0x22])) == nil, "invalid UTF-8 in a string is refused")
    }

    @Test func aDuplicateKeyReadsAsItsLastValue() {
        #expect(parse(#"{"id":"a","id":"b"}"#)?["id"]?.string == "b")
    }
}
