import Testing
import TestSupport
@testable import RecordCodec

private func milliseconds(_ s: String) -> Int64? {
    Array(s.utf8).withUnsafeBufferPointer { PythonISOTimestamp.milliseconds(utf8: $0) }
}

@Suite("PythonISOTimestamp")
struct PythonISOTimestampTests {
    /// The common-form shortcut must agree with the general parser (itself checked against the
    /// peer by the corpus below) on every string it accepts, valid dates or not.
    @Test("the shortcut for YYYY-MM-DDTHH:MM:SS[.mmm]Z agrees with the general parser")
    func commonFormShortcut() {
        var state: UInt64 = 0x5EED
        func next(_ n: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 33) % n
        }
        func pad(_ v: UInt64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var shortcut = 0, remembered = 0
        var memo = PythonISOTimestamp.DateMemo()
        var date = ""
        for _ in 0..<20_000 {
            // out-of-range fields on purpose: month 0-13, day 0-32, hour 0-24, year 0-9999; half
            // the strings on the date before, which the memo may hold
            if date.isEmpty || next(2) == 0 { date = "\(pad(next(10_000), 4))-\(pad(next(14), 2))-\(pad(next(33), 2))" }
            var text = "\(date)T" + "\(pad(next(25), 2)):\(pad(next(61), 2)):\(pad(next(61), 2))"
            if next(2) == 0 { text += ".\(pad(next(1000), 3))" }
            text += "Z"
            let general = Array(text.replacingOccurrences(of: "Z", with: "+00:00").utf8).withUnsafeBufferPointer {
                FromISOFormat(text: $0).epochMilliseconds()
            }
            let fast = Array(text.utf8).withUnsafeBufferPointer { PythonISOTimestamp.commonForm($0) }
            if let fast { shortcut += 1; #expect(fast == general, "\(text)") }
            let before = memo
            let withMemo = Array(text.utf8).withUnsafeBufferPointer { PythonISOTimestamp.commonForm($0, memo: &memo) }
            // an answer that left the memo as it was took the remembered date
            if withMemo != nil && before.dayBytes == memo.dayBytes && before.head == memo.head { remembered += 1 }
            #expect(withMemo == fast, "\(text) with a remembered date")
            #expect(milliseconds(text) == general, "\(text)")
        }
        #expect(shortcut > 5_000 && remembered > 1_000, "\(shortcut) shortcuts, \(remembered) with a remembered date")
    }

    /// The shortcut reads its string a word at a time: one byte of a valid string changed to
    /// any other byte, a byte dropped or one added, and it either declines or agrees with
    /// the general parser.
    @Test func commonFormShortcutOnChangedStrings() {
        let seed = testSeed("PythonISOTimestampTests.commonFormShortcutOnChangedStrings")
        var random = SplitMix64(seed: seed)
        var answered = 0, declined = 0
        // the memo holds one of the two dates, or a changed string's valid date, from a string before
        var memo = PythonISOTimestamp.DateMemo()
        for _ in 0..<100_000 {
            var bytes = Array((random.next() & 1 == 0 ? "2025-11-27T10:00:01.558Z" : "1999-02-28T23:59:59Z").utf8)
            let k = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 5 {
            case 0: bytes.remove(at: k)
            case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: k)
            case 2: bytes[k] = UInt8(truncatingIfNeeded: random.next() % 3 == 0 ? random.next() : 0x2A + random.next() % 0x30)
            case 3: bytes[k] = UInt8(ascii: "0") + UInt8(random.next() % 10)  // a digit: mostly a valid string still
            default: break
            }
            let fast = bytes.withUnsafeBufferPointer { PythonISOTimestamp.commonForm($0) }
            let withMemo = bytes.withUnsafeBufferPointer { PythonISOTimestamp.commonForm($0, memo: &memo) }
            #expect(withMemo == fast, "\(bytes) with a remembered date, seed 0x\(String(seed, radix: 16))")
            guard let fast else { declined += 1; continue }
            answered += 1
            var sanitized: [UInt8] = []
            for b in bytes { if b == UInt8(ascii: "Z") { sanitized += Array("+00:00".utf8) } else { sanitized.append(b) } }
            let general = sanitized.withUnsafeBufferPointer { FromISOFormat(text: $0).epochMilliseconds() }
            #expect(fast == general, "\(bytes), seed 0x\(String(seed, radix: 16))")
        }
        #expect(answered > 25_000 && declined > 25_000, "\(answered) answered, \(declined) declined")
    }

    /// `timestamps.txt`: the peer's `parse_ts` of valid, odd and broken strings.
    @Test("strings read as the peer's parse_ts() reads them")
    func corpusTimestamps() throws {
        var log = MismatchLog(fixture: "timestamps.txt")
        var cases = 0
        var accepted = 0
        for row in try CodecCorpus.rows("timestamps.txt") {
            guard row.fields.count == 3, let bytes = CodecCorpus.bytes(row.fields[1]) else { log.malformed(row); continue }
            let expected: Int64? = row.fields[2] == "-" ? nil : Int64(row.fields[2])
            if row.fields[2] != "-" && expected == nil { log.malformed(row); continue }
            cases += 1
            if expected != nil { accepted += 1 }
            let actual = bytes.withUnsafeBufferPointer { PythonISOTimestamp.milliseconds(utf8: $0) }
            if actual != expected {
                log.record(row, "\(show(bytes)): expected \(expected.map(String.init) ?? "error"), "
                    + "got \(actual.map(String.init) ?? "error")")
            }
        }
        log.finish(cases: cases, atLeast: 1_500)
        #expect(accepted > cases / 4 && accepted < cases * 3 / 4, "the corpus should mix valid and invalid strings")
    }

    @Test("CPython 3.11's fromisoformat quirks, as the peer sees them", arguments: [
        ("2025-11-27T10:00:00.+05:30", 1_764_217_800_000),        // an empty fraction
        ("2025-11-27T10:00:00:00+00:00", 1_764_237_600_000),      // a fourth colon group is the fraction
        ("2025-11-27T10:00:00:123456+00:00", 1_764_237_600_123),
        ("2025-11-27T10000012Z", 1_764_237_600_120),              // HHMMSS then fraction digits
        ("2025-11-27T10:00:00+00:00\u{0}", 1_764_237_600_000),    // C stops at NUL
        ("2025-11-27é10:00:00Z", 1_764_237_600_000),              // any one character separates
        ("2025-11-27\u{2028}10:00:00Z", 1_764_237_600_000),
        ("2025-11-27 10:00:00Z", 1_764_237_600_000),
        ("2025-11-27T10:00:00+00:00:00.5", 1_764_237_600_000),    // zero seconds: microseconds ignored
        ("2025-11-27T10:00:00+00:00:01.5", 1_764_237_598_500),
        ("2025-11-27T10:00:00+00:99", 1_764_231_660_000),         // 99 minutes
        ("2025-11-27T10:00:00+23:59:59.999999", 1_764_151_200_000),
        ("2025-11-27T10:00:00,5Z", 1_764_237_600_500),
        ("2025-11-27T10:00:00.1234567891Z", 1_764_237_600_123),
        ("2025-11-27T10Z", 1_764_237_600_000), ("2025-11-27T1000Z", 1_764_237_600_000),
        ("20251127T100000Z", 1_764_237_600_000), ("2025W481T10Z", 1_763_978_400_000),
        ("2025-W48T10Z", 1_763_978_400_000), ("2025-W48-4T10Z", 1_764_237_600_000),
        ("2020-W53-7T00Z", 1_609_632_000_000),                    // 2020 has 53 ISO weeks
        ("0001-01-01T00:00:00Z", -62_135_596_800_000), ("9999-12-31T23:59:59.999999Z", 253_402_300_800_000),
        ("0001-01-01T00:00:00+00:01", -62_135_596_860_000),       // before year 1 in UTC: still fine
        ("2025-11-27T10:00:00.0005Z", 1_764_237_600_000),         // round half to even on the float
        ("2025-11-27T10:00:00.0015Z", 1_764_237_600_002),
        ("2025-11-27T10:00:00.0025Z", 1_764_237_600_002),
    ] as [(String, Int64)])
    func accepted(_ text: String, _ expected: Int64) {
        #expect(milliseconds(text) == expected)
    }

    @Test("refused: naive, impossible, malformed", arguments: [
        "2025-11-27T10:00:00", "2025-11-27", "2025-11-27+00:00", "2025-11-27T24:00:00Z", "2025-11-27T10:60Z",
        "2025-02-29T00:00Z", "10000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "0000-W01-1T00Z", "9999-W52-7T00Z",
        "2025-W53-1T00Z", "2025-W00-1T00Z", "2025-W01-8T00Z", "2025-11-27T10:00:00+24:00", "2025-11-27T10:00:00-24:00",
        "2025-11-27T10:00:00+5", "2025-11-27T10:00:00+", "2025-11-27T+00:00", "2025-11-27T10:00\u{0}:00Z",
        "2025-11-27\u{2028} 10:00:00Z", "2025-11-27T10:00:00ZZ", "2025-11-27T10:00:00Z ", "Z", "ZZ", "", "2025",
        "2025-11-27T10:00:00.123x+00:00", "2025-1127T10:00Z", "202511-27T10:00Z",
    ])
    func refused(_ text: String) {
        #expect(milliseconds(text) == nil)
    }

    @Test("microseconds / 10^6 rounds once, correctly, beyond 2^53 microseconds (Python's int / int)", arguments: [
        (9_007_199_254_740_993, 9007199254.740993), (-9_007_199_254_740_993, -9007199254.740993),
        (253_402_300_799_999_499, 253402300799.9995), (250_000_000_000_000_500, 250000000000.0005),
        (253_402_300_799_999_999, 253402300800.0), (-62_135_596_800_000_001, -62135596800.0),
        (123_456_789_012_345_678, 123456789012.34567), (1_764_237_600_002_500, 1764237600.0025), (-1, -0.000001),
    ] as [(Int64, Double)])
    func correctlyRoundedQuotient(_ n: Int64, _ expected: Double) {
        // The first four differ from Double(n) / 1e6, which rounds twice.
        #expect(FromISOFormat.quotientByMillion(n).bitPattern == expected.bitPattern)
    }
}
