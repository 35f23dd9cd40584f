import Foundation
import GeoModel
import Testing
import TestSupport
@testable import RecordCodec

/// The word-at-a-time readers of a record's numbers give what the digit-by-digit readers give
/// (`readDouble`, itself checked against the C library's `strtod`, and `exactInteger`), wherever
/// the number sits in its line: at the start, a few bytes in, at the line's very end (where no
/// word may be read past it), and with digits on both sides of it.
@Suite("Reading a record's numbers")
struct NumberReadingTests {
    /// A random number's text: integer or decimal syntax, 1-19 digits, sometimes an exponent,
    /// sometimes negative; many shaped like the stream's coordinates and accuracies.
    static func numberText(_ random: inout SplitMix64) -> String {
        let digits = { (count: Int, random: inout SplitMix64) -> String in
            String((0..<count).map { _ in Character(String(random.next() % 10)) })
        }
        var whole = String(random.next() % 10 == 0 ? UInt64(0) : 1 + random.next() % 9)
        whole += digits(Int(random.next() % 9), &random)
        if whole.hasPrefix("0") { whole = "0" }
        var text = whole
        switch random.next() % 5 {
        case 0: break  // an integer
        case 1: text += "." + digits(1 + Int(random.next() % 7), &random)
        case 2: text += "." + digits(1 + Int(random.next() % 16), &random)
        case 3: text += "." + digits(1 + Int(random.next() % 3), &random) + "e" + String(Int(random.next() % 40) - 20)
        default: text += "E+" + String(random.next() % 30)
        }
        return random.next() & 1 == 0 ? "-" + text : text
    }

    /// `text` read by `JSONNumber.read` inside `line` (prefix, number, suffix), against the
    /// readers the fast paths stand in for.
    static func check(prefix: String, _ text: String, suffix: String) -> String? {
        let line = Array((prefix + text + suffix).utf8)
        let start = prefix.utf8.count, end = start + text.utf8.count
        let integerSyntax = !text.contains(".") && !text.lowercased().contains("e")
        return line.withUnsafeBufferPointer { buffer -> String? in
            let p = buffer.baseAddress!
            let ours = JSONNumber.read(p, from: start, to: end, integerSyntax: integerSyntax, readableTo: line.count)
            let reference: JSONNumber = integerSyntax
                ? (JSONNumber.exactInteger(p, from: start, to: end) ?? .double(JSONNumber.readDouble(p, from: start, to: end)))
                : .double(JSONNumber.readDouble(p, from: start, to: end))
            switch (ours, reference) {
            case (.double(let a), .double(let b)) where a.bitPattern == b.bitPattern: return nil
            case (.integer(let a), .integer(let b)) where a == b: return nil
            case (.unsignedInteger(let a), .unsignedInteger(let b)) where a == b: return nil
            default: return "\(prefix)|\(text)|\(suffix): \(ours) against \(reference)"
            }
        }
    }

    @Test("numbers anywhere in a line read as the digit-by-digit readers read them")
    func randomNumbersInLines() {
        let seed = testSeed("NumberReadingTests.randomNumbersInLines")
        var random = SplitMix64(seed: seed)
        let prefixes = ["", "[", ":", "{\"a\":", "{\"latitude\":", "{\"type\":\"location\",\"longitude\":", "12345678", "0.5,"]
        let suffixes = ["", "}", ",\"accuracy\":8.3}", "1234567890123456789", ".5", "e5", " ", "}\n{\"x\":1}"]
        var failures: [String] = []
        var cases = 0
        for _ in 0..<200_000 {
            let text = Self.numberText(&random)
            let prefix = prefixes[Int(random.next() % UInt64(prefixes.count))]
            var suffix = suffixes[Int(random.next() % UInt64(suffixes.count))]
            // a digit or point right after a number is not JSON, but the readers are told its end
            if random.next() % 4 != 0 { suffix = String(suffix.drop(while: { $0.isNumber || $0 == "." || $0 == "e" })) }
            cases += 1
            if let failure = Self.check(prefix: prefix, text, suffix: suffix) { failures.append(failure) }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases), seed \(seed): \(failures.prefix(5))")
    }

    @Test("the stream's coordinates, accuracies and timestamps at every distance from the line's ends")
    func streamShapedNumbers() {
        let numbers = ["43.566461", "-79.368094", "8.3", "0.5", "-0.0", "0.0", "90.0", "-180.0", "1764237602805",
                       "-1764237602805", "9999999999999999", "10000000000000000", "12345678.1", "1.1234567",
                       "1.12345678", "0", "-0", "7", "1e5", "1.5e-3", "123.4E2"]
        var failures: [String] = []
        for text in numbers {
            for before in 0...12 {
                for after in 0...12 {
                    let prefix = String(repeating: " ", count: before)
                    let suffix = String(repeating: "}", count: after)
                    if let failure = Self.check(prefix: prefix, text, suffix: suffix) { failures.append(failure) }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// The fast paths are taken where they should be: a mutant that always falls back would
    /// pass the tests above, so their own answers are checked here.
    @Test("the word readers answer the usual numbers themselves")
    func fastPathsAnswer() {
        func decimal(_ line: String, _ start: Int, _ end: Int) -> Double? {
            Array(line.utf8).withUnsafeBufferPointer { JSONNumber.checkedDecimal($0.baseAddress!, from: start, to: end) }
        }
        func integer(_ line: String, _ start: Int, _ end: Int) -> JSONNumber? {
            Array(line.utf8).withUnsafeBufferPointer {
                JSONNumber.plainInteger($0.baseAddress!, from: start, to: end, readableTo: $0.count)
            }
        }
        let fix = #"{"type":"location","latitude":43.566461,"longitude":-79.368094,"accuracy":8.3}"#
        let at = { (text: String) -> (Int, Int) in
            let r = fix.range(of: text)!
            return (fix.utf8.distance(from: fix.startIndex, to: r.lowerBound), fix.utf8.distance(from: fix.startIndex, to: r.upperBound))
        }
        for (text, value) in [("43.566461", 43.566461), ("-79.368094", -79.368094), ("8.3", 8.3)] {
            let (start, end) = at(text)
            #expect(decimal(fix, start, end)?.bitPattern == value.bitPattern, "\(text)")
        }
        #expect(decimal("        1.5e3", 8, 13) == nil, "an exponent")
        #expect(decimal("        12.123456789", 8, 20) == nil, "eight fraction digits are left to readDouble")
        #expect(decimal("1.5", 0, 3) == nil, "fewer than eight bytes before the point")
        let event = #"{"timestamp":1764237602805,"x":1}"#
        let (start, end) = (13, 26)
        #expect(integer(event, start, end) == .integer(1_764_237_602_805))
        #expect(integer(#"{"t":-42,"a longer tail"}"#, 5, 8) == .integer(-42))
        #expect(integer(#"{"t":12345678901234567,"x":0}"#, 5, 22) == nil, "17 digits are left to exactInteger")
        #expect(integer("{\"t\":42}", 5, 7) == nil, "fewer than 16 bytes may be read")
    }

    @Test("digit counts at every power of ten")
    func digitCounts() {
        var values: [UInt64] = [0, 1, 9, UInt64.max]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for v in values {
            #expect(OrjsonText.decimalDigitCount(v) == String(v).count, "\(v)")
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
                var w = ByteWriter(buffer)
                OrjsonText.writeUnsigned(v, negative: false, to: &w)
                return String(decoding: w.written, as: UTF8.self)
            }
            #expect(written == String(v))
        }
    }
}
