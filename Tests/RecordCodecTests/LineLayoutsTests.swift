import Testing
import TestSupport
@testable import RecordCodec

/// ``LineLayouts`` against the scanner's general walk: the same verdict and the same slots for
/// every line, whether a layout matched it or not.
@Suite("LineLayouts")
struct LineLayoutsTests {
    /// Lines as a producer writes them: a few layouts (keys, nesting, white space, an escaped
    /// key), their values drawn from valid and invalid ones.
    static let templates: [[String]] = [
        [#"{"type":"#, #","session_id":"#, #","timestamp":"#, #","latitude":"#, #","longitude":"#, #","accuracy":"#, "}"],
        [#"{"type":"#, #","brand_id":"#, #","session_id":"#, #","timestamp":"#, #","event_name":"#, #","data":{"seq":"#,
         #","screen":"#, #","price":"#, "}}"],
        [#" { "session_id" : "#, #" , "timestamp":"#, #", "consent": "#, #", "typ\u0065":"#, #",  "latitude" :"#, "}\t"],
        [#"{"timestamp":"#, #","session_id":"#, #","meta":{},"tags":"#, #","type":"#, #","longitude":"#, #","latitude":"#, #","accuracy":"#, "}"],
        [#"{"session_id":"#, #","timestamp":"#, #","type":"#, #","session_id":"#, "}"],  // a duplicate key: the last wins
    ]
    static let values = [
        #""location""#, #""track""#, #""s-000386""#, #""s-\u0031""#, #""é""#, #""""#, #""a\"b""#, #""2025-11-27T10:00:01.558Z""#,
        #""optIn""#, "1764237602805", "43.566461", "-79.368094", "8.3", "0", "-0", "1e3", "-0.5E-2", "925", "26.60",
        "123456789012345678901234", "1e400", "true", "false", "null", "[]", "[1,{\"a\":2}]", #"{"k":1}"#, "{}",
        // not values
        "01", "1.", "-", "tru", #""\x""#, "+1", "NaN", #""unterminated"#, "",
    ]
    static let noise: [UInt8] = Array(#"{}[]",:0123456789.eE+- \tnulltruefalse"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]

    static func line(_ random: inout SplitMix64) -> [UInt8] {
        let template = templates[Int(random.next() % UInt64(templates.count))]
        var text = ""
        for (k, literal) in template.enumerated() {
            text += literal
            if k < template.count - 1 {
                // mostly valid values, so that most lines are records
                let pool = random.next() % 8 == 0 ? values.count : values.count - 9
                text += values[Int(random.next() % UInt64(pool))]
            }
        }
        var bytes = Array(text.utf8)
        switch random.next() % 6 {
        case 0: bytes[Int(random.next() % UInt64(bytes.count))] = noise[Int(random.next() % UInt64(noise.count))]
        case 1: bytes.remove(at: Int(random.next() % UInt64(bytes.count)))
        case 2: bytes.insert(noise[Int(random.next() % UInt64(noise.count))], at: Int(random.next() % UInt64(bytes.count + 1)))
        default: break
        }
        return bytes
    }

    static func slots(_ slots: RecordSlots) -> [String] {
        (0..<RecordSlots.otherKey).map { k in
            let s = slots[index: k]
            return "\(s.kind) \(s.start) \(s.end) \(s.flag)"
        }
    }

    @Test("a line scanned with layouts gets the general walk's verdict and slots")
    func sameAsTheGeneralWalk() {
        let seed = testSeed("LineLayoutsTests.sameAsTheGeneralWalk")
        var random = SplitMix64(seed: seed)
        var layouts = LineLayouts()
        var failures: [String] = []
        var objects = 0
        for _ in 0..<100_000 {
            let bytes = Self.line(&random)
            bytes.withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: b.count)
                var general = RecordSlots(), matched = RecordSlots()
                let expected = scanner.scanLine(into: &general)
                let got = layouts.scanLine(scanner, into: &matched)
                let same: Bool
                switch (expected, got) {
                case (.object(let a), .object(let b)):
                    objects += 1
                    same = a == b && Self.slots(general) == Self.slots(matched)
                case (.notAnObject, .notAnObject), (.invalid, .invalid): same = true
                default: same = false
                }
                if !same && failures.count < 5 {
                    failures.append("\(String(decoding: bytes, as: UTF8.self).debugDescription): \(got) against \(expected)")
                }
            }
        }
        #expect(failures.isEmpty, "seed 0x\(String(seed, radix: 16)): \(failures)")
        // the layouts did the work for most objects (the others are changed lines, or values
        // that make a layout of their own, as `{}` for a key's number)
        #expect(layouts.linesMatched > objects / 2 && objects > 50_000, "\(layouts.linesMatched) matched, \(objects) objects")
    }

    @Test("the stream's parse with layouts gives the plain parse's outcomes and ids")
    func parseWithMemory() {
        let seed = testSeed("LineLayoutsTests.parseWithMemory")
        var random = SplitMix64(seed: seed)
        var memory = ReaderMemory()
        let parser = RecordParser()
        var records = 0
        for _ in 0..<20_000 {
            let bytes = Self.line(&random)
            let plain = bytes.withUnsafeBufferPointer { parser.parse($0) }
            let (outcome, id) = bytes.withUnsafeBufferPointer { parser.parse($0, memory: &memory) }
            #expect(outcome == plain, "\(String(decoding: bytes, as: UTF8.self).debugDescription), seed 0x\(String(seed, radix: 16))")
            if case .record(let record) = plain {
                records += 1
                #expect(id == SessionID(record.sessionID))
            }
        }
        #expect(records > 500 && memory.layouts.linesMatched > 5_000, "\(records) records, \(memory.layouts.linesMatched) matched")
    }

    @Test("the stream's record of a line holds the plain parse's fields, in one cache line")
    func sessionRecords() {
        let seed = testSeed("LineLayoutsTests.sessionRecords")
        var random = SplitMix64(seed: seed)
        var memory = ReaderMemory()
        let parser = RecordParser()
        var records = 0, fixes = 0
        // the layouts' lines, and fixes of an SDK's form with numbers of every kind
        func number(_ limit: Double) -> String {
            switch random.next() % 5 {
            case 0: return String(Int64(random.next() % UInt64(2 * limit + 1)) - Int64(limit))
            case 1: return String(format: "%.6f", Double(random.next() % 1_000_000) / 1_000_000 * 2 * limit - limit)
            case 2: return "\(Double(random.next() % 1000) / 10)e-1"
            case 3: return String(format: "%.1f", Double(random.next() % 1000) / 10 * (random.next() % 9 == 0 ? -1 : 1))
            default: return String(random.next() % 300)
            }
        }
        for n in 0..<20_000 {
            let bytes = n % 3 != 0 ? Self.line(&random) : Array((#"{"type":"location","session_id":"s-\#(random.next() % 50)","timestamp":"#
                + (random.next() & 1 == 0 ? "\(1_764_237_600_000 + random.next() % 86_400_000)" : #""2025-11-27T10:\#(10 + random.next() % 50):01.558Z""#)
                + #","latitude":\#(number(90)),"longitude":\#(number(180)),"accuracy":\#(number(100))"#
                + (random.next() % 2 == 0 ? #","consent":"\#(["optIn", "optOut", "notSet"][Int(random.next() % 3)])"}"# : "}")).utf8)
            let text = "\(String(decoding: bytes, as: UTF8.self).debugDescription), seed 0x\(String(seed, radix: 16))"
            let plain = bytes.withUnsafeBufferPointer { parser.parse($0) }
            let outcome = bytes.withUnsafeBufferPointer { parser.parseSessionRecord($0, memory: &memory) }
            switch (plain, outcome) {
            case (.record(let expected), .record(let record)):
                records += 1
                if expected.fix != nil { fixes += 1 }
                #expect(record.session == SessionID(expected.sessionID) && record.timestamp == expected.timestamp
                        && record.consent == expected.consent && Int(record.closingBrace) == expected.closingBraceOffset, "\(text)")
                #expect(record.position == expected.fix.map { ReportedPosition(latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy) },
                        "\(text)")
            case (.bad(let expected), .bad(let reason)):
                #expect(reason == expected, "\(text)")
            default:
                Issue.record("\(plain) against \(outcome): \(text)")
            }
        }
        #expect(records > 3_000 && fixes > 1_000, "\(records) records, \(fixes) fixes")
        // written by one core and read by the other (ParallelRunner): a line of 64 bytes
        #expect(MemoryLayout<SessionRecord>.stride <= 64)
    }

    @Test("at most the capacity is kept, replaced in turn; ever new layouts turn the layouts off a while")
    func capacityAndBypass() {
        var layouts = LineLayouts()
        func scan(_ text: String) -> JSONLineScanner.Shape {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { b in
                var slots = RecordSlots()
                return layouts.scanLine(JSONLineScanner(p: b.baseAddress!, n: b.count), into: &slots)
            }
        }
        for k in 0..<(LineLayouts.capacity + 3) { _ = scan(#"{"k\#(k)":1}"#) }
        #expect(layouts.count == LineLayouts.capacity)
        // the last learnt are kept: the last one matches, the first one is learnt again
        let matchedBefore = layouts.linesMatched
        _ = scan(#"{"k\#(LineLayouts.capacity + 2)":2}"#)
        #expect(layouts.linesMatched == matchedBefore + 1)
        _ = scan(#"{"k0":2}"#)
        #expect(layouts.linesMatched == matchedBefore + 1)
        // a window of lines each of its own layout: off
        var k = 100
        while !layouts.isBypassed && k < 100 + 2 * CacheBypass.window {
            _ = scan(#"{"k\#(k)":1}"#)
            k += 1
        }
        #expect(layouts.isBypassed)
        // still the general walk's verdicts while off, and on again after 16 windows of lines
        #expect(scan("[1]") == .notAnObject)
        for _ in 1..<(16 * CacheBypass.window) { _ = scan(#"{"a":1}"#) }
        #expect(!layouts.isBypassed)
        #expect(layouts.linesMatched == matchedBefore + 1)  // none matched while off
        let matched = layouts.linesMatched
        _ = scan(#"{"a":1}"#)
        _ = scan(#"{"a":2}"#)
        #expect(layouts.linesMatched == matched + 1)  // the first learnt it
    }
}

extension LineLayoutsTests {
    /// Lines of three layouts in random order, each layout's lines starting with their own
    /// first 16 bytes: after each layout's first few lines, every line is matched at the first
    /// try (by the layout its start last matched), and all with the general walk's slots.
    @Test("a line's first bytes choose the layout tried first")
    func startChoosesTheFirstTry() {
        let seed = testSeed("LineLayoutsTests.startChoosesTheFirstTry")
        var random = SplitMix64(seed: seed)
        var layouts = LineLayouts()
        let shapes = [#"{"type":"track","brand_id":9,"session_id":"s-1","timestamp":5}"#,
                      #"{"type":"location","session_id":"s-2","timestamp":6,"latitude":1.5,"longitude":2,"accuracy":3}"#,
                      #"{"type":"identify","session_id":"s-3","timestamp":7,"data":{"a":1}}"#]
        var differing = 0, lines = 0
        for _ in 0..<3_000 {
            let text = shapes[Int(random.next() % 3)]
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: b.count)
                var general = RecordSlots(), matched = RecordSlots()
                _ = scanner.scanLine(into: &general)
                if case .object = layouts.scanLine(scanner, into: &matched) {
                    if Self.slots(matched) != Self.slots(general) { differing += 1 }
                } else {
                    differing += 1
                }
            }
            lines += 1
        }
        #expect(differing == 0, "seed 0x\(String(seed, radix: 16))")
        #expect(layouts.linesMatched == lines - 3)
        // in their order, about two lines in three would fail a try or two first
        #expect(layouts.failedTries <= 6, "\(layouts.failedTries) failed tries, seed 0x\(String(seed, radix: 16))")
    }

    /// A line too long to keep, learnt in the place of a kept layout, leaves that layout as it
    /// was: here a layout whose key literal is longer than two words (its middle compared from
    /// the kept bytes), and a too-long line whose first key differs from it in that middle.
    @Test("a layout too long to keep leaves the one it would replace intact")
    func tooLongLeavesTheReplacedIntact() {
        var layouts = LineLayouts()
        func scan(_ text: String) -> (JSONLineScanner.Shape, JSONLineScanner.Shape, [String], [String]) {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: b.count)
                var general = RecordSlots(), matched = RecordSlots()
                let expected = scanner.scanLine(into: &general)
                let got = layouts.scanLine(scanner, into: &matched)
                return (got, expected, LineLayoutsTests.slots(matched), LineLayoutsTests.slots(general))
            }
        }
        let wide = #"{"type":1,      "latitude"      :2}"#
        _ = scan(wide)
        for k in 1..<LineLayouts.capacity { _ = scan(#"{"k\#(k)":1}"#) }
        #expect(layouts.count == LineLayouts.capacity)
        // the next learnt replaces the first: a line of more values than a layout keeps
        let tooLong = #"{"type":1,      "latitudX"      :2"# + (0..<(LineLayouts.maximumValues + 1)).map { #","v\#($0)":0"# }.joined() + "}"
        _ = scan(tooLong)
        let matchedBefore = layouts.linesMatched
        for text in [wide, #"{"type":3,      "latitude"      :4.5}"#, #"{"type":1,      "latitudX"      :2}"#] {
            let (got, expected, gotSlots, expectedSlots) = scan(text)
            #expect(got == expected && gotSlots == expectedSlots, "\(text)")
        }
        #expect(layouts.linesMatched == matchedBefore + 2)  // the wide lines, by the kept layout
    }
}

extension JSONLineScanner.Shape: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x == y
        case (.notAnObject, .notAnObject), (.invalid, .invalid): return true
        default: return false
        }
    }
}
