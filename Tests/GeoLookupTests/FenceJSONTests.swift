import TestSupport
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

    /// Numbers of every length of integer and fraction (leading zeros, 1 to 24 digits, so the
    /// fraction's eight-at-a-time path and the fallback past 19 digits both run), with and
    /// without an exponent, read as the standard library's correctly rounded `Double(_:)`.
    @Test func numbersOfEveryLengthAreReadAsTheStandardLibraryReadsThem() {
        let seed = testSeed("FenceJSONTests.numbersOfEveryLengthAreReadAsTheStandardLibraryReadsThem")
        var rng = SplitMix64(seed: seed)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(rng.next() % 10)) }) }
        var texts: [String] = []
        for _ in 0..<4_000 {
            var integer = digits(1 + Int(rng.next() % 4))
            if integer.count > 1 && integer.first == "0" { integer = "0" }
            var text = (rng.next() % 2 == 0 ? "-" : "") + integer
            if rng.next() % 8 != 0 { text += "." + String(repeating: "0", count: Int(rng.next() % 3)) + digits(1 + Int(rng.next() % 22)) }
            if rng.next() % 6 == 0 { text += "e" + (rng.next() % 2 == 0 ? "-" : "") + String(rng.next() % 30) }
            texts.append(text)
        }
        guard case .numbers(let values)? = parse("[" + texts.joined(separator: ",") + "]"), values.count == texts.count else {
            Issue.record("seed \(seed): not read as numbers"); return
        }
        for (text, value) in zip(texts, values) where value.bitPattern != Double(text)!.bitPattern {
            Issue.record("seed \(seed): \(text) read as \(value), not \(Double(text)!)")
        }
    }

    @Test func positionsAreNumberArraysRingsOfPairsFlatAndEverythingElseATree() {
        guard case .array(let rings)? = parse("[[[0, 1.5], [2, 3]], []]") else { Issue.record("not an array"); return }
        guard case .pairs([0, 1.5, 2, 3]) = rings[0], case .numbers([]) = rings[1] else {
            Issue.record("\(rings)"); return
        }
        #expect(rings[0].elements?.count == 2, "a ring of pairs still reads as its positions")
        // not pairs: a position of three numbers, of one, an element that is not an array
        for text in ["[[0, 1, 2], [3, 4]]", "[[0, 1], [2]]", "[[0, 1], 5]", "[[0, 1], [\"a\", 2]]"] {
            guard case .array? = parse(text) else { Issue.record("\(text) is not a tree"); continue }
        }
        // a broken pair is refused as the tree reader refuses it, with where
        #expect(failure("[[0, 1], [2, 01]]")?.contains("leading zero") == true)
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

    func layout(_ text: String) -> (type: String, features: [String], others: [String])? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            FenceJSON.collectionLayout(buffer).map { layout in
                func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
                return (text(layout.type), layout.features.map(text), layout.others.map(text))
            }
        }
    }

    @Test func aCollectionsPartsAreFoundByTheirBrackets() {
        let text = #" { "features" : [ {"a":"}]\"{["} , {"b":[1,[2]]},3,"x\\" ] , "type":"FeatureCollection","bbox":[0,1] } "#
        let found = layout(text)
        #expect(found?.type == #""FeatureCollection""#)
        #expect(found?.features == [#"{"a":"}]\"{["}"#, #"{"b":[1,[2]]}"#, "3", #""x\\""#])
        #expect(found?.others == ["[0,1]"])
        #expect(layout(#"{"type":"FeatureCollection","features":[]}"#)?.features == [])
        // anything unusual is left to the reader
        for odd in [#"{"type":"FeatureCollection","features":[],"features":[]}"#, #"{"type":"FeatureCollection"}"#,
                    #"{"type":"FeatureCollection","features":[1,]}"#, #"{"type":"FeatureCollection","features":[1]} x"#,
                    #"{"t\u0079pe":"FeatureCollection","features":[]}"#, #"[{"type":"FeatureCollection","features":[]}]"#,
                    #"{"type":"FeatureCollection","features":[{"a":1}"#,
                    "{\"type\":\"FeatureCollection\",\"b\u{01}\":1,\"features\":[]}",
                    "{\"type\":\"FeatureCollection\",\"é\":1,\"features\":[]}"] {
            #expect(layout(odd) == nil, "\(odd)")
        }
    }

    /// The skimmer passes plain bytes sixteen at a time and counts a block's brackets: features of
    /// random nesting, strings holding brackets, quotes and escapes, and white space of random
    /// length (so every kind of byte falls at every place in a block), found whole.
    @Test func featuresOfEveryShapeAreFoundWholeWhereverTheirBracketsFall() {
        let seed = testSeed("FenceJSONTests.featuresOfEveryShapeAreFoundWholeWhereverTheirBracketsFall")
        var rng = SplitMix64(seed: seed)
        func space() -> String { String(repeating: " ", count: Int(rng.next() % 10)) }
        func value(_ depth: Int) -> String {
            switch rng.next() % (depth > 5 ? 3 : 5) {
            case 0: return String(Double(Int64(rng.next() % 2_000_000) - 1_000_000) / 7)
            case 1:
                let parts = ["a", "[", "]", "{", "}", "\\\"", "\\\\", "é", ",", "12345678"]
                return "\"" + (0..<Int(rng.next() % 6)).map { _ in parts[Int(rng.next() % UInt64(parts.count))] }.joined() + "\""
            case 2: return ["true", "null", "0"][Int(rng.next() % 3)]
            case 3: return "[" + space() + (0..<Int(rng.next() % 4)).map { _ in value(depth + 1) }.joined(separator: "," + space()) + "]"
            default:
                return "{" + (0..<Int(rng.next() % 4)).map { k in "\"k\(k)\"" + space() + ":" + value(depth + 1) }.joined(separator: ",") + space() + "}"
            }
        }
        for _ in 0..<200 {
            let features = (0..<Int(rng.next() % 8)).map { _ in value(0) }
            let text = "{\"type\":\"FeatureCollection\"," + space() + "\"features\":[" + space()
                + features.joined(separator: space() + "," + space()) + space() + "]}"
            #expect(layout(text)?.features == features, "seed \(seed): \(text)")
        }
    }

    @Test func aDuplicateKeyReadsAsItsLastValue() {
        #expect(parse(#"{"id":"a","id":"b"}"#)?["id"]?.string == "b")
    }
}

