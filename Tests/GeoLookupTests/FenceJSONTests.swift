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

    /// Numbers of every length of integer (1 to 9 digits) and fraction (leading zeros, 1 to 24
    /// digits, so the word-at-a-time reader, the fraction's eight-at-a-time path and the
    /// fallback past 19 digits all run), with and
    /// without an exponent, read as the standard library's correctly rounded `Double(_:)`.
    @Test func numbersOfEveryLengthAreReadAsTheStandardLibraryReadsThem() {
        let seed = testSeed("FenceJSONTests.numbersOfEveryLengthAreReadAsTheStandardLibraryReadsThem")
        var rng = SplitMix64(seed: seed)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(rng.next() % 10)) }) }
        var texts: [String] = []
        for _ in 0..<4_000 {
            var integer = digits(1 + Int(rng.next() % 9))
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

    /// The direct reader of a feature gives what the tree gives (``GeofenceFile/RawFeature``'s
    /// every field), or leaves the feature to the tree; on features of the usual shapes it reads
    /// them itself. Random features: members in any order, repeated, missing or of the wrong
    /// type; geometries of every kind with rings of pairs, altitudes, empty arrays; names with
    /// escapes; broken JSON.
    @Test func theDirectReaderOfAFeatureGivesWhatTheTreeGives() {
        let seed = testSeed("FenceJSONTests.theDirectReaderOfAFeatureGivesWhatTheTreeGives")
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
        func space() -> String { pick(["", "", " ", "\n  "]) }
        func number() -> String {
            pick([String(Double(Int64(rng.next() % 36_000_000) - 18_000_000) / 100_000), "12", "-0", "1e2", "0.5", "99.000000000000000001"])
        }
        func position() -> String {
            pick(["[\(number()),\(space())\(number())]", "[\(number()), \(number())]", "[\(number()), \(number()), 3]", "[]", "[1]"])
        }
        func ring() -> String {
            let n = pick([0, 1, 4, 4, 5, 9])
            return pick(["[" + (0..<n).map { _ in position() }.joined(separator: "," + space()) + "]", "[]", "[[1,2],[3,4],[1,2]"])
        }
        func polygon() -> String { "[" + (0..<pick([0, 1, 1, 2])).map { _ in ring() }.joined(separator: ",") + "]" }
        func coordinates(_ type: String) -> String {
            switch type {
            case "Polygon": return pick([polygon(), polygon(), position(), "null"])
            case "MultiPolygon": return pick(["[" + (0..<pick([0, 1, 2])).map { _ in polygon() }.joined(separator: ",") + "]", polygon()])
            default: return pick([position(), position(), polygon(), "{}"])
            }
        }
        func geometry() -> String {
            let type = pick(["Polygon", "MultiPolygon", "Point", "LineString"])
            func member(_ k: Int) -> String {
                k == 0 ? pick(["\"type\": \"\(type)\"", "\"type\":\"\(type)\"", "\"type\": 7", "\"t\\u0079pe\": \"\(type)\"", "\"type\": \"Point\""])
                       : "\"coordinates\": " + coordinates(type)
            }
            var members = [member(0), member(1)]
            if rng.next() % 4 == 0 { members.append("\"bbox\": [0, 1, 2, 3]") }
            if rng.next() % 6 == 0 { members.append(member(Int(rng.next() % 2))) }  // repeated, with another value
            if rng.next() % 5 == 0 { members.swapAt(0, 1) }
            if rng.next() % 8 == 0 { members.removeFirst() }
            return pick(["{" + members.joined(separator: "," + space()) + space() + "}", "{" + members.joined(separator: ",") + "}", "null", "[]"])
        }
        func properties() -> String {
            pick(["{}", "{\"radius_m\": \(number())}", "{\"radius_m\": null}", "{\"radius_m\": \"5\"}", "{\"id\": \"q\", \"name\": [1, {\"a\": true}]}",
                  "{\"id\": 12}", "null", "[]"])
        }
        func feature() -> String {
            func member(_ k: Int) -> String {
                switch k {
                case 0: pick(["\"type\": \"Feature\"", "\"type\":\"Feature\"", "\"type\": \"Fea\\u0074ure\"", "\"type\": null"])
                case 1: "\"id\": " + pick(["\"p1\"", "\"c\\\"2\"", "3", "-4", "1.5", "null", "[]", "\"\"", "\"é\""])
                case 2: "\"properties\": " + properties()
                default: "\"geometry\": " + geometry()
                }
            }
            var members = (0..<4).map(member)
            if rng.next() % 4 == 0 { members.append(pick(["\"extra\": {\"deep\": [[[]]]}", "\"i\\u0064\": \"x\"", "\"é\": 1"])) }
            if rng.next() % 3 == 0 { members.append(member(Int(rng.next() % 4))) }  // repeated, with another value
            if rng.next() % 8 == 0 { members.removeAll { _ in rng.next() % 4 == 0 } }
            members.shuffle(using: &rng)
            let text = "{" + space() + members.joined(separator: "," + space()) + space() + "}"
            return pick([text, text, text, text + " ", text + ",", String(text.dropLast()), "[" + text + "]", " 17 "])
        }
        func describe(_ raw: GeofenceFile.RawFeature?) -> String { raw.map { String(describing: $0) } ?? "nil" }

        var direct = 0
        for _ in 0..<3_000 {
            let text = feature()
            let bytes = Array(text.utf8)
            let (fast, tree) = bytes.withUnsafeBufferPointer { b in
                (FenceJSON.feature(b, range: 0..<b.count, depth: 2),
                 (try? FenceJSON.parse(b, range: 0..<b.count, depth: 2)).map(GeofenceFile.RawFeature.init))
            }
            guard let fast else { continue }
            direct += 1
            #expect(describe(fast) == describe(tree), "seed \(seed): \(text)")
        }
        #expect(direct > 300, "seed \(seed): only \(direct) of 3,000 features read directly")

        // the usual shapes are read directly
        for text in [#"{"type": "Feature", "id": "p0", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [3, 4], [5, 2], [1, 2]]]}}"#,
                     #"{"type":"Feature","id":"c1","properties":{"radius_m":140.5},"geometry":{"type":"Point","coordinates":[-135.09, 60.7]}}"#,
                     #"{"type":"Feature","properties":{"id":7},"geometry":{"type":"MultiPolygon","coordinates":[[[[1,2],[3,4],[5,2],[1,2]]],[[[1,2],[3,4],[5,2],[1,2]],[[1,2],[3,4],[5,2],[1,2]]]]}}"#] {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { FenceJSON.feature($0, range: 0..<$0.count, depth: 2) }
            let tree = (try? FenceJSON.parse(bytes)).map(GeofenceFile.RawFeature.init)
            #expect(fast != nil && describe(fast) == describe(tree), "\(text)")
        }
    }

    @Test func aDuplicateKeyReadsAsItsLastValue() {
        #expect(parse(#"{"id":"a","id":"b"}"#)?["id"]?.string == "b")
    }
}

