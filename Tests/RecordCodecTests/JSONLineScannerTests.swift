import Testing
import TestSupport
@testable import RecordCodec

/// The scanner's key recognition (compared a word at a time) and its inlined string path,
/// beside the corpus of `RecordParserTests` (every verdict of the peer's orjson).
@Suite("JSONLineScanner")
struct JSONLineScannerTests {
    static let names: [(String, JSONLineScanner.Field)] = [
        ("type", .type), ("session_id", .sessionID), ("timestamp", .timestamp), ("consent", .consent),
        ("latitude", .latitude), ("longitude", .longitude), ("accuracy", .accuracy),
    ]

    static func field(_ bytes: [UInt8]) -> JSONLineScanner.Field? {
        bytes.withUnsafeBufferPointer { JSONLineScanner.field(named: $0) }
    }

    @Test("each record key is recognised, and so is nothing one byte from it")
    func keys() {
        for (name, field) in Self.names {
            let bytes = Array(name.utf8)
            #expect(Self.field(bytes) == field, "\(name)")
            // every byte changed, in turn, to each of a few others: the words cover every byte
            for k in bytes.indices {
                for other: UInt8 in [0x00, 0x20, 0x41, bytes[k] ^ 0x20, bytes[k] &+ 1, 0xFF] where other != bytes[k] {
                    var changed = bytes
                    changed[k] = other
                    #expect(Self.field(changed) == nil, "\(name) with byte \(k) = \(other)")
                }
            }
            // a byte more or less
            #expect(Self.field(bytes + [UInt8(ascii: "s")]) == nil, "\(name)s")
            #expect(Self.field(Array(bytes.dropLast())) == nil, "\(name) less its last byte")
            #expect(Self.field(Array(bytes.dropFirst())) == nil, "\(name) less its first byte")
        }
        #expect(Self.field([]) == nil)
    }

    @Test("a line's keys and strings, plain, escaped, non-ASCII and of every length to 40")
    func strings() throws {
        for length in 0...40 {
            for filler in ["a", "é", "\\n", "\\u00e9", "\\ud83d\\ude00"] {
                var text = ""
                while text.utf8.count < length { text += filler }
                for key in ["session_id", "s\\u0065ssion_id", "sessi"] {
                    let line = Array("{\"type\":\"location\",\"\(key)\":\"\(text)\",\"timestamp\":1}".utf8)
                    let result = line.withUnsafeBufferPointer { JSONLineScanner(p: $0.baseAddress!, n: $0.count).scanLine() }
                    guard case .object(let slots, let closingBrace) = result else {
                        Issue.record("refused: \(String(decoding: line, as: UTF8.self))")
                        continue
                    }
                    #expect(closingBrace == line.count - 1)
                    #expect(slots.type.kind == .string)
                    #expect(slots.timestamp.kind == .number)
                    if key == "sessi" {
                        #expect(slots.sessionID.kind == .absent)
                    } else {
                        // the value's bytes are exactly the text between its quotes
                        #expect(slots.sessionID.kind == .string)
                        #expect(Array(line[slots.sessionID.start..<slots.sessionID.end]) == Array(text.utf8))
                        #expect(slots.sessionID.flag == text.contains("\\"))
                    }
                }
            }
            // a string cut off at the end of the line, at every length
            let cut = Array(("{\"session_id\":\"" + String(repeating: "a", count: length)).utf8)
            let result = cut.withUnsafeBufferPointer { JSONLineScanner(p: $0.baseAddress!, n: $0.count).scanLine() }
            guard case .invalid = result else {
                Issue.record("accepted a line cut inside a string of \(length) bytes")
                continue
            }
        }
    }

    /// `plainBytesEnd`, sixteen bytes at a time on x86-64 (SSE2) and eight in Swift, against
    /// a byte-by-byte reference: from every start in random lines whose bytes are mostly plain,
    /// with quotes, backslashes, control bytes, DEL (plain) and non-ASCII bytes among them, and
    /// runs of plain bytes longer than a block.
    @Test func plainBytesEndAgreesWithAByteByByteTest() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("plainBytesEndAgreesWithAByteByByteTest seed \(seed)")
        var rng = SplitMix64(seed: seed)
        func special(_ c: UInt8) -> Bool { c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 }
        let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x80, 0xC3, 0xBF, 0xFF]
        var wrong = 0, answered = 0
        for _ in 0..<4_000 {
            let n = Int(rng.next() % 80)
            // one special byte in 1, 8 or 40 on average
            let rate = [1, 8, 40][Int(rng.next() % 3)]
            var line: [UInt8] = (0..<n).map { _ in
                if rng.next() % UInt64(rate) == 0 { return specials[Int(rng.next() % UInt64(specials.count))] }
                let c = UInt8(0x20 + rng.next() % 96)  // 0x20...0x7F: DEL is plain too
                return c == 0x22 || c == 0x5C ? 0x61 : c
            }
            line.append(contentsOf: [0, 0])  // never read: the scanner is given n
            line.withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: n)
                for start in 0...n {
                    let first = (start..<n).first { special(b[$0]) } ?? n
                    let end = scanner.plainBytesEnd(from: start)
                    // the first special byte, or, when there is none in the words it tested,
                    // the first of the last seven or fewer bytes, all plain before it
                    if end == first { answered += 1 } else if !(end < first && end > n - 8 && end >= start) { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
        #expect(answered > 100_000)
    }

    /// The end of the number at the start of `text` by the grammar, one byte at a time: the
    /// reference for the scanner's word-at-a-time digit runs.
    static func referenceNumberEnd(_ b: [UInt8]) -> (end: Int, integerSyntax: Bool)? {
        func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        var i = 0
        if i < b.count && b[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { return nil }
        if b[i] == 0x30 { i += 1; if digit(i) { return nil } } else { while digit(i) { i += 1 } }
        var integer = true
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
            integer = false
        }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
            integer = false
        }
        return (i, integer)
    }

    @Test("numbers of every length to 24 digits a part, against the grammar byte by byte")
    func numbers() {
        let digits = Array("1234567890".utf8)
        func run(_ count: Int, from offset: Int) -> [UInt8] { (0..<count).map { digits[(offset + $0) % 10] } }
        // every byte that may follow a number, and some that may not
        let followers: [[UInt8]] = [[], Array(",".utf8), Array("}".utf8), Array(" ".utf8), Array("x".utf8),
                                     Array(":".utf8), Array("/".utf8), [0x3A], [0x2F], [0xB0], [0x39 + 0x80]]
        var checked = 0
        for integer in 1...24 {
            for fraction in [0, 1, 7, 8, 9, 17] {
                for exponent in [0, 1, 3] {
                    var text = run(integer, from: integer)
                    if fraction > 0 { text += Array(".".utf8) + run(fraction, from: 3) }
                    if exponent > 0 { text += Array("e-".utf8) + run(exponent, from: 1) }
                    for sign in [false, true] {
                        for follower in followers {
                            let bytes = (sign ? Array("-".utf8) : []) + text + follower
                            var integerSyntax = false
                            let end = bytes.withUnsafeBufferPointer {
                                JSONLineScanner(p: $0.baseAddress!, n: $0.count).scanNumber(0, integerSyntax: &integerSyntax)
                            }
                            let expected = Self.referenceNumberEnd(bytes)
                            #expect(end == (expected?.end ?? -1), "\(String(decoding: bytes, as: UTF8.self))")
                            if let expected, end >= 0 { #expect(integerSyntax == expected.integerSyntax) }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 24 * 6 * 3 * 2 * 11)
    }

    /// The flat-object shortcut of `skipNested` against the general walk, on random objects
    /// (flat, nested, and each with one byte changed, dropped or added): where the shortcut
    /// answers, the walk answers the same; and `skipNested` always answers as the walk does.
    @Test func flatObjectShortcutAgreesWithTheGeneralWalk() {
        let seed = testSeed("JSONLineScannerTests.flatObjectShortcutAgreesWithTheGeneralWalk")
        var random = SplitMix64(seed: seed)
        let values = [#""Home""#, "26.60", "1", "-0.5e3", "true", "false", "null", #""a\"b""#, #""é""#, "[]", "{}",
                      #"{"k":1}"#, "[1,2]", "01", "1.", #""\u00""#, "tru"]
        let spaces = ["", " ", "\t", "\n "]
        let noise: [UInt8] = Array(#"{}[]",:0123456789.eE+- \tnulltruefalse"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
        var answered = 0, cases = 0
        for _ in 0..<20_000 {
            var text = "{" + spaces[Int(random.next() % 4)]
            let members = Int(random.next() % 4)
            for m in 0..<members {
                if m > 0 { text += "," + spaces[Int(random.next() % 4)] }
                text += #""k\#(m)""# + spaces[Int(random.next() % 4)] + ":" + spaces[Int(random.next() % 4)]
                text += values[Int(random.next() % UInt64(values.count))] + spaces[Int(random.next() % 4)]
            }
            text += "}"
            var bytes = Array(text.utf8)
            switch random.next() % 4 {
            case 0: bytes[Int(random.next() % UInt64(bytes.count))] = noise[Int(random.next() % UInt64(noise.count))]
            case 1: bytes.remove(at: Int(random.next() % UInt64(bytes.count)))
            case 2: bytes.insert(noise[Int(random.next() % UInt64(noise.count))], at: Int(random.next() % UInt64(bytes.count + 1)))
            default: break
            }
            guard bytes.first == UInt8(ascii: "{") else { continue }
            cases += 1
            bytes.withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: b.count)
                let general = scanner.skipNestedInGeneral(0)
                if let flat = scanner.skipFlatObject(0) {
                    answered += 1
                    #expect(flat == general, "\(String(decoding: bytes, as: UTF8.self).debugDescription), seed 0x\(String(seed, radix: 16))")
                }
                #expect(scanner.skipNested(0) == general, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        // both kinds met: objects the shortcut takes, and ones it leaves to the walk
        #expect(answered > 1_000 && cases - answered > 1_000, "\(answered) of \(cases)")
    }
    /// The sixteen-byte window scan of the usual number answers only where the general scan
    /// answers the same (the end, and integer syntax), on numbers and near-numbers mutated at
    /// random, followed by anything, at every distance from the line's end, and never reads
    /// past it (the bytes after the line are digits and a point, which would lengthen a number).
    @Test func windowNumberScanAgreesWithTheGeneralScan() {
        let seed = testSeed("JSONLineScannerTests.windowNumberScanAgreesWithTheGeneralScan")
        var random = SplitMix64(seed: seed)
        let alphabet: [UInt8] = Array("0123456789012345678901234567890123456789.-eE+ ,}x".utf8) + [0x00, 0x80, 0xFF, 0x2F, 0x3A]
        var answered = 0, answeredAtTheEnd = 0, answeredLong = 0, cases = 0, failures: [String] = []
        for _ in 0..<200_000 {
            var bytes: [UInt8] = Array(repeating: UInt8(ascii: " "), count: Int(random.next() % 20))
            let start = bytes.count
            if random.next() & 1 == 0 { bytes.append(UInt8(ascii: "-")) }
            // digits, a point and digits, sometimes an exponent, then anything
            let whole = Int(random.next() % 18), fraction = Int(random.next() % 12)
            for _ in 0..<whole { bytes.append(UInt8(ascii: "0") + UInt8(random.next() % 10)) }
            if random.next() % 3 != 0 {
                bytes.append(UInt8(ascii: "."))
                for _ in 0..<fraction { bytes.append(UInt8(ascii: "0") + UInt8(random.next() % 10)) }
            }
            for _ in 0..<Int(random.next() % 24) { bytes.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            if bytes.count > start, random.next() % 4 == 0 {
                bytes[start + Int(random.next() % UInt64(bytes.count - start))] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            guard bytes.count > start else { continue }
            cases += 1
            (bytes + Array("12345678.12345678".utf8)).withUnsafeBufferPointer { b in
                let scanner = JSONLineScanner(p: b.baseAddress!, n: bytes.count)
                var generalSyntax = false, windowSyntax = false
                let general = scanner.scanNumber(start, integerSyntax: &generalSyntax, shortcut: false)
                if let window = scanner.scanWindowNumber(start, integerSyntax: &windowSyntax) {
                    answered += 1
                    if window == bytes.count { answeredAtTheEnd += 1 }
                    if window - start >= 12 { answeredLong += 1 }
                    if window != general || windowSyntax != generalSyntax {
                        failures.append("\(String(decoding: bytes, as: UTF8.self).debugDescription) from \(start): \(window) \(windowSyntax) against \(general) \(generalSyntax)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases), seed 0x\(String(seed, radix: 16)): \(failures.prefix(5))")
        // both kinds met: numbers the window takes, and ones it leaves to the general scan
        #expect(answered > 20_000 && cases - answered > 20_000, "\(answered) of \(cases)")
        // numbers that end the line (read from its last sixteen bytes), and long ones
        #expect(answeredAtTheEnd > 5_000 && answeredLong > 1_000, "\(answeredAtTheEnd) at the line's end, \(answeredLong) long")
    }
}
