import Foundation
import H3Core
import Testing
import TestSupport
@testable import RecordCodec

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// What a writer function writes, as text.
private func written(_ body: (inout ByteWriter) -> Void) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
        var writer = ByteWriter(buffer)
        body(&writer)
        return text(Array(writer.written))
    }
}

private func float(_ value: Double) -> String { written { OrjsonText.writeFloat(value, to: &$0) } }

@Suite("Splice")
struct SpliceTests {
    // MARK: The differential corpus

    /// `splices.txt`: the output line the peer's `flush()` writes, byte for byte.
    @Test("spliced lines match the peer's flush()")
    func corpusSplices() throws {
        var log = MismatchLog(fixture: "splices.txt")
        var cases = 0
        var unrepresentable = 0
        var outOfRange = 0
        let parser = RecordParser()
        for row in try CodecCorpus.rows("splices.txt") {
            let f = row.fields
            guard f.count == 13, let line = CodecCorpus.bytes(f[1]),
                  let lat = CodecCorpus.number(f[2]), let lat, let lon = CodecCorpus.number(f[3]), let lon,
                  let acc = CodecCorpus.number(f[4]), let fixTimestamp = Int64(f[5]), let age = Int64(f[6]),
                  let h3 = UInt64(f[7], radix: 16), let expected = CodecCorpus.bytes(f[12])
            else { log.malformed(row); continue }
            // the corpus also writes countries that are no ISO code (escapes, control characters):
            // an Enrichment's CountryCode cannot hold them, so those rows test nothing here
            var country: CountryCode?
            if f[8] != "-" {
                guard let c = CodecCorpus.bytes(f[8]) else { log.malformed(row); continue }
                guard let code = CountryCode(text(c)) else { unrepresentable += 1; continue }
                country = code
            }
            var postal: PostalMatch?
            if f[9] != "-" {
                guard let d = CodecCorpus.number(f[11]), case .double(let distance)? = d,
                      let code = PostalCode(String(f[9])), code.fsa.map({ $0 == f[10] }) == true else { log.malformed(row); continue }
                postal = PostalMatch(code: code, distanceMetres: distance)
            }
            guard let cell = H3Cell(rawValue: h3) else { log.malformed(row); continue }
            cases += 1
            let parsed = parser.parse(line)
            // the peer passes an event through whatever its timestamp; here one outside years
            // 1 to 9999 is bad_timestamp (Timestamp.representable), so its splice is not made
            if case .bad(.badTimestamp) = parsed {
                outOfRange += 1
                continue
            }
            guard case .record(let record) = parsed else {
                log.record(row, "the line does not parse: \(show(line))")
                continue
            }
            let geo = Enrichment(latitude: lat, longitude: lon, accuracy: acc, fixTimestamp: Timestamp(milliseconds: fixTimestamp),
                                 h3: cell, country: country, postal: postal)
            let actual = Splice.enriched(line: line, closingBrace: record.closingBraceOffset, geo: geo, ageMilliseconds: age)
            if actual != expected {
                log.record(row, "\n  expected \(show(expected))\n  got      \(show(actual))")
            }
            // The same through a geo rendered once for its fix.
            var viaRendered: [UInt8] = []
            line.withUnsafeBufferPointer {
                Splice.append(line: $0, closingBrace: record.closingBraceOffset, geo: RenderedGeo(geo),
                              ageMilliseconds: age, to: &viaRendered)
            }
            if viaRendered != expected {
                log.record(row, "RenderedGeo:\n  expected \(show(expected))\n  got      \(show(viaRendered))")
            }
        }
        #expect(unrepresentable < 100)
        log.finish(cases: cases, atLeast: 300)
    }

    /// The shortcut for short decimals must write what the general path writes (itself checked
    /// against orjson by `floats.txt`), on coordinates, accuracies and random doubles.
    @Test func shortDecimalShortcutAgreesWithTheGeneralPath() {
        var state: UInt64 = 0xF10A7
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        func text(_ v: Double, _ body: (Double, inout ByteWriter) -> Void) -> [UInt8] {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                var w = ByteWriter(buffer)
                body(v, &w)
                return Array(w.written)
            }
        }
        var values: [Double] = [0.1 + 0.2, 1e-4, 9.999999999999999e14, 1e15, 123456789012345.0, 0.30000000000000004]
        // just below and above a whole number: a writer whose whole part rounds, rather than
        // truncates, writes these wrong (one such mutant failed four Splice tests)
        values += [2.99999999999999, 0.99999999999999, 99999.9999999999, 1.00000000000001, 999999999999999.0, 42.0]
        for _ in 0..<200_000 {
            let r = next()
            switch r % 5 {
            case 4:  // decimals of 1-15 digits, 0-19 of them after the point
                let digits = 1 + Int((r >> 8) % 15)
                values.append(Double((r >> 20) % UInt64(pow(10, Double(digits)))) / pow(10, Double((r >> 4) % 20)))
            case 0: values.append(Double(Int64(r >> 20) % 180_000_000) / 1_000_000)  // 6-decimal coordinates
            case 1: values.append(Double((r >> 40) % 2000) / 10)                       // accuracies like 12.5
            case 2: values.append(Double(bitPattern: next() & 0x7FFF_FFFF_FFFF_FFFF))  // any finite double
            default: values.append(Double(r >> 11) / Double(1 << 53) * pow(10, Double(r % 19) - 4))
            }
        }
        var mismatches = 0
        for v in values where v.isFinite && v != 0 {
            let fast = text(v) { OrjsonText.writeFloat($0, to: &$1) }
            let general = text(v) { OrjsonText.writeFloatViaDescription($0, to: &$1) }
            if fast != general {
                mismatches += 1
                if mismatches < 5 { Issue.record("\(v): \(String(decoding: fast, as: UTF8.self)) vs \(String(decoding: general, as: UTF8.self))") }
            }
        }
        #expect(mismatches == 0)
    }

    /// Integers two digits a step: every value to 100,000, each power of ten and its
    /// neighbours, and both ends of Int64, against Swift's own decimal text (Python's `int`
    /// text, which orjson writes, is the same).
    @Test func integersAreWrittenInDecimal() {
        func text(_ v: Int64) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
                var w = ByteWriter(buffer)
                OrjsonText.writeInteger(v, to: &w)
                return String(decoding: w.written, as: UTF8.self)
            }
        }
        var values: [Int64] = Array(-1_000...100_000) + [.min, .max, .min + 1, .max - 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        let wrong = values.filter { text($0) != String($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map { "\($0): \(text($0))" })")
    }

    /// Hex digits made a word at a time, against Swift's own hex text: every count of digits,
    /// each digit value in each place, and random values.
    @Test func hexStringsAreLowerCaseWithoutLeadingZeros() {
        let seed = testSeed("SpliceTests.hexStringsAreLowerCaseWithoutLeadingZeros")
        var random = SplitMix64(seed: seed)
        var values: [UInt64] = [0, 1, 0xF, 0x10, .max, 0x8f27_1c97_3aa4_594]
        for shift in stride(from: 0, to: 64, by: 4) {
            for digit in UInt64(0)...15 { values.append(digit << UInt64(shift)) }
        }
        for _ in 0..<100_000 { values.append(random.next() >> (random.next() % 64)) }
        let wrong = values.filter { v in
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
                var w = ByteWriter(buffer)
                OrjsonText.writeHexString(v, to: &w)
                return String(decoding: w.written, as: UTF8.self)
            }
            return written != "\"" + String(v, radix: 16) + "\""
        }
        #expect(wrong.isEmpty, "seed 0x\(String(seed, radix: 16)): \(wrong.prefix(5).map { String($0, radix: 16) })")
    }

    /// The word compare of ``JSONLineScanner/equals(_:_:)`` against the literals the checks use,
    /// on the literal, every one-byte change of it, and a byte more or less.
    @Test func literalsAreComparedWholly() {
        func equals(_ bytes: [UInt8], _ literal: StaticString) -> Bool {
            bytes.withUnsafeBufferPointer { JSONLineScanner.equals($0, literal) }
        }
        let literals: [StaticString] = ["location", "optIn", "optOut", "notSet", "batch", "a", "abc", "abcd"]
        for literal in literals {
            let bytes = Array(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
            #expect(equals(bytes, literal), "\(literal)")
            for k in bytes.indices {
                var changed = bytes
                changed[k] ^= 0x20
                #expect(!equals(changed, literal), "\(literal), byte \(k)")
            }
            #expect(!equals(bytes + [0x20], literal) && !equals(Array(bytes.dropLast()), literal), "\(literal)")
        }
    }

    /// `floats.txt`: `orjson.dumps(x)` for doubles of every magnitude.
    @Test("floats are written as orjson writes them")
    func corpusFloats() throws {
        var log = MismatchLog(fixture: "floats.txt")
        var cases = 0
        for row in try CodecCorpus.rows("floats.txt") {
            guard row.fields.count == 3, let x = Double(row.fields[1]) else { log.malformed(row); continue }
            cases += 1
            let actual = float(x)
            if actual != row.fields[2] { log.record(row, "\(row.fields[1]): expected \(row.fields[2]), got \(actual)") }
        }
        log.finish(cases: cases, atLeast: 1_000)
    }

    // MARK: Named cases

    @Test("orjson's float layout differs from Python's repr", arguments: [
        (1e-05, "0.00001"), (1e16, "1e16"), (12.0, "12.0"), (-0.0, "-0.0"), (0.0, "0.0"), (100.0, "100.0"),
        (1.5e-07, "1.5e-7"), (1e15, "1000000000000000.0"), (1.2345e16, "1.2345e16"), (1e-4, "0.0001"),
        (1e-6, "1e-6"), (2.5e-05, "0.000025"), (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e308"),
        (49.888171, "49.888171"), (-97.131112, "-97.131112"), (19.7, "19.7"), (9007199254740992.0, "9007199254740992.0"),
        (123456789012345680.0, "1.2345678901234568e17"), (0.1, "0.1"), (1e100, "1e100"), (-1e-100, "-1e-100"),
    ] as [(Double, String)])
    func floatLayout(_ value: Double, _ expected: String) {
        #expect(float(value) == expected)
    }

    @Test("fix_timestamp is the peer's iso(): milliseconds, Z, glibc's unpadded years")
    func isoTimestamp() {
        func iso(_ ms: Int64) -> String { written { OrjsonText.writeISOTimestamp(milliseconds: ms, to: &$0) } }
        #expect(iso(1_764_237_600_000) == #""2025-11-27T10:00:00.000Z""#)
        #expect(iso(1_764_237_600_123) == #""2025-11-27T10:00:00.123Z""#)
        #expect(iso(0) == #""1970-01-01T00:00:00.000Z""#)
        #expect(iso(-1) == #""1969-12-31T23:59:59.999Z""#)
        #expect(iso(-999) == #""1969-12-31T23:59:59.001Z""#)
        #expect(iso(-1001) == #""1969-12-31T23:59:58.999Z""#)
        #expect(iso(-30_610_224_000_000) == #""1000-01-01T00:00:00.000Z""#)
        #expect(iso(-62_135_596_800_000) == #""1-01-01T00:00:00.000Z""#)
        #expect(iso(-62_104_060_799_995) == #""2-01-01T00:00:00.005Z""#)
        #expect(iso(253_402_300_799_999) == #""9999-12-31T23:59:59.999Z""#)
        #expect(iso(951_782_400_000) == #""2000-02-29T00:00:00.000Z""#)
        // Beyond Python's range (where the peer stops): the calendar continues.
        #expect(iso(253_402_300_800_000) == #""10000-01-01T00:00:00.000Z""#)
        #expect(iso(-62_135_596_800_001) == #""0-12-31T23:59:59.999Z""#)
        // the extremes neither trap nor wrap: the proleptic Gregorian calendar to the last
        // millisecond (values from Hinnant's civil_from_days in Python integers, checked against
        // Python's own `date` over years 1-9999)
        #expect(iso(Int64.max) == #""292278994-08-17T07:12:55.807Z""#)
        #expect(iso(Int64.min) == #""-292275055-05-16T16:47:04.192Z""#)
    }

    /// The four-digit years' word-at-a-time writer against the byte-by-byte one, over the
    /// whole range of such years and at the ends of days, months and years.
    @Test func fourDigitYearTimestampsAreWrittenAsByteByByte() {
        let seed = testSeed("SpliceTests.fourDigitYearTimestampsAreWrittenAsByteByByte")
        var random = SplitMix64(seed: seed)
        let first: Int64 = -30_610_224_000_000, last: Int64 = 253_402_300_799_999  // 1000-01-01, 9999-12-31
        func reference(_ ms: Int64) -> String {
            written {
                let (seconds, millisecond) = CivilCalendar.floorDivide(ms, 1000)
                let (days, secondOfDay) = CivilCalendar.floorDivide(seconds, 86_400)
                OrjsonText.writeTimestamp(CivilCalendar.date(days: days), secondOfDay: secondOfDay, millisecond: millisecond, to: &$0)
            }
        }
        var cases: [Int64] = [first, last, 0, -1, 1_764_237_600_000, 951_782_400_000 - 1]
        for _ in 0..<200_000 {
            let ms = first + Int64(random.next() % UInt64(last - first + 1))
            // a random instant, or the last or first millisecond of its day
            switch random.next() % 4 {
            case 0: cases.append(ms - ms % 86_400_000 + 86_399_999)
            case 1: cases.append(ms - ms % 86_400_000)
            default: cases.append(ms)
            }
        }
        for ms in cases {
            let fast = written { OrjsonText.writeISOTimestamp(milliseconds: ms, to: &$0) }
            #expect(fast == reference(ms), "\(ms), seed 0x\(String(seed, radix: 16))")
            #expect(fast.utf8.count == 26, "\(ms)")
        }
    }

    @Test("the contract's example line")
    func contractExample() {
        let line = Array(#"{"type":"track","session_id":"s-42","timestamp":"2025-11-27T10:00:12.000Z","event_name":"AddToCart"}"#.utf8)
        let geo = Enrichment(latitude: 49.888171, longitude: -97.131112, accuracy: 12.5,
                             fixTimestamp: Timestamp(milliseconds: 1_764_237_600_000), h3: H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!,
                             country: CountryCode("CA"), postal: PostalMatch(code: PostalCode("R3C 4L9")!, distanceMetres: 19.7))
        let expected = #"{"type":"track","session_id":"s-42","timestamp":"2025-11-27T10:00:12.000Z","event_name":"AddToCart","geo":{"latitude":49.888171,"longitude":-97.131112,"accuracy":12.5,"fix_timestamp":"2025-11-27T10:00:00.000Z","age_ms":12000,"h3":"8f271c973aa4594","country":"CA","postalcode":"R3C 4L9","fsa":"R3C","postal_distance_m":19.7}}"#
        #expect(text(Splice.enriched(line: line, closingBrace: line.count - 1, geo: geo, ageMilliseconds: 12_000)) == expected)
    }

    @Test("optional keys are left out; integers stay integers; trailing white space is dropped")
    func optionalKeys() {
        let line = Array(#"{"session_id":"s","timestamp":1 }  "#.utf8)
        let cell = H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!
        let geo = Enrichment(latitude: .integer(45), longitude: .integer(-0), accuracy: nil, fixTimestamp: Timestamp(milliseconds: 0),
                             h3: cell, country: nil, postal: nil)
        let out = text(Splice.enriched(line: line, closingBrace: 32, geo: geo, ageMilliseconds: 0))
        #expect(out == #"{"session_id":"s","timestamp":1 ,"geo":{"latitude":45,"longitude":0,"fix_timestamp":"1970-01-01T00:00:00.000Z","age_ms":0,"h3":"8f271c973aa4594"}}"#)
        let big = Enrichment(latitude: .double(-0.0), longitude: .double(1e-7), accuracy: .unsignedInteger(.max),
                             fixTimestamp: Timestamp(milliseconds: 0), h3: cell, country: CountryCode("EH"), postal: nil)
        let out2 = text(Splice.enriched(line: line, closingBrace: 32, geo: big, ageMilliseconds: 59_999))
        #expect(out2.hasSuffix(#","geo":{"latitude":-0.0,"longitude":1e-7,"accuracy":18446744073709551615,"fix_timestamp":"1970-01-01T00:00:00.000Z","age_ms":59999,"h3":"8f271c973aa4594","country":"EH"}}"#))
    }

    @Test("appending reuses the caller's buffer")
    func appendToBuffer() {
        let line = Array(#"{"session_id":"s","timestamp":1}"#.utf8)
        let geo = Enrichment(latitude: .double(1.5), longitude: .double(2.5), accuracy: .double(3),
                             fixTimestamp: Timestamp(milliseconds: 0), h3: H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!,
                             country: nil, postal: nil)
        var buffer: [UInt8] = Array("previous\n".utf8)
        line.withUnsafeBufferPointer {
            Splice.append(line: $0, closingBrace: line.count - 1, geo: geo, ageMilliseconds: 0, to: &buffer)
        }
        #expect(text(buffer) == "previous\n" + #"{"session_id":"s","timestamp":1,"geo":{"latitude":1.5,"longitude":2.5,"accuracy":3.0,"fix_timestamp":"1970-01-01T00:00:00.000Z","age_ms":0,"h3":"8f271c973aa4594"}}"#)
    }

    @Test("rule 12's keys come after the postal keys, the offset an integer; each only when there")
    func timeZoneKeys() {
        let line = Array(#"{"session_id":"s","timestamp":1}"#.utf8)
        var geo = Enrichment(latitude: 49.888171, longitude: -97.131112, accuracy: nil,
                             fixTimestamp: Timestamp(milliseconds: 0), h3: H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!,
                             country: CountryCode("CA"), postal: PostalMatch(code: PostalCode("R3C 4L9")!, distanceMetres: 19.7),
                             timeZone: TimeZoneID(name: "America/Winnipeg"), utcOffsetSeconds: -21_600)
        func tail(_ geo: Enrichment) -> String {
            String(text(Splice.enriched(line: line, closingBrace: line.count - 1, geo: geo, ageMilliseconds: 0))
                .split(separator: ",\"h3\":", maxSplits: 1)[1])
        }
        #expect(tail(geo) == #""8f271c973aa4594","country":"CA","postalcode":"R3C 4L9","fsa":"R3C","postal_distance_m":19.7,"timezone":"America/Winnipeg","utc_offset_s":-21600}}"#)
        geo.postal = nil
        geo.country = nil
        geo.timeZone = TimeZoneID(name: "Etc/GMT-12")
        geo.utcOffsetSeconds = 43_200
        #expect(tail(geo) == #""8f271c973aa4594","timezone":"Etc/GMT-12","utc_offset_s":43200}}"#)
        geo.utcOffsetSeconds = nil  // a lookup opened without the tz database: the zone alone
        #expect(tail(geo) == #""8f271c973aa4594","timezone":"Etc/GMT-12"}}"#)
    }
}

