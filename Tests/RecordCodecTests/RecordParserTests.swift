import Testing
@testable import RecordCodec

private let parser = RecordParser()

private func parse(_ text: String) -> ParseOutcome { parser.parse(Array(text.utf8)) }
private func parse(_ bytes: [UInt8]) -> ParseOutcome { parser.parse(bytes) }

private func reason(_ text: String) -> BadLineReason? {
    if case .bad(let r) = parse(text) { return r }
    return nil
}

private func record(_ text: String) -> ParsedRecord? {
    if case .record(let r) = parse(text) { return r }
    return nil
}

/// A record line with the given `timestamp` JSON text.
private func withTimestamp(_ json: String) -> String { #"{"session_id":"s-1","timestamp":"# + json + "}" }
/// A fix line with the given coordinate and accuracy JSON texts.
private func fix(_ lat: String, _ lon: String, accuracy: String? = nil) -> String {
    #"{"type":"location","session_id":"s-1","timestamp":1,"latitude":"# + lat + #","longitude":"# + lon
        + (accuracy.map { #","accuracy":"# + $0 } ?? "") + "}"
}
/// A valid record whose extra field `x` holds the given JSON text.
private func withValue(_ json: String) -> String { #"{"session_id":"s-1","timestamp":1,"x":"# + json + "}" }

@Suite("RecordParser")
struct RecordParserTests {
    // MARK: The differential corpus

    /// `verdicts.txt`: every line decided exactly as the peer's `validate()` decides it.
    @Test("verdicts match the peer's validate()")
    func corpusVerdicts() throws {
        var log = MismatchLog(fixture: "verdicts.txt")
        var cases = 0
        for row in try CodecCorpus.rows("verdicts.txt") {
            guard row.fields.count >= 2, let line = CodecCorpus.bytes(row.fields[1]) else { log.malformed(row); continue }
            cases += 1
            if row.fields[0] == "B" {
                if !RecordParser.isBlank(line) { log.record(row, "isBlank is false for \(show(line))") }
                continue
            }
            if RecordParser.isBlank(line) { log.record(row, "isBlank is true for \(show(line))") }
            let expected: ParseOutcome
            switch (row.fields.count, row.fields[2]) {
            case (4, "bad"):
                guard let r = BadLineReason(rawValue: String(row.fields[3])) else { log.malformed(row); continue }
                expected = .bad(r)
            case (11, "ok"):
                let f = row.fields
                guard let sid = CodecCorpus.bytes(f[4]), let ts = CodecCorpus.saturatedInt64(f[5]),
                      let lat = CodecCorpus.number(f[7]), let lon = CodecCorpus.number(f[8]),
                      let acc = CodecCorpus.number(f[9]), let brace = Int(f[10])
                else { log.malformed(row); continue }
                let consent = f[6] == "-" ? nil : Consent(rawValue: String(f[6]))
                var parsedFix: ParsedFix?
                if f[3] == "fix", let lat, let lon { parsedFix = ParsedFix(latitude: lat, longitude: lon, accuracy: acc) }
                // where the peer takes any number, a fix's timestamp outside years 1 to 9999 is
                // bad_timestamp here (Timestamp.representable; the peer cannot write it back)
                expected = Timestamp.representable.contains(ts) || parsedFix == nil
                    ? .record(ParsedRecord(sessionID: String(decoding: sid, as: UTF8.self), timestamp: ts,
                                           consent: consent, fix: parsedFix, closingBraceOffset: brace))
                    : .bad(.badTimestamp)
            default:
                log.malformed(row)
                continue
            }
            let actual = parser.parse(line)
            if !identical(actual, expected) {
                log.record(row, "\(show(line))\n  expected \(expected)\n  got      \(actual)")
            }
        }
        log.finish(cases: cases, atLeast: 2_000)
    }

    // MARK: Order of the checks

    @Test("a line over 1 MiB is line_too_long before anything else; 1 MiB exactly is read")
    func lineLength() {
        let pad = RecordParser.maximumLineLength - withValue(#""""#).utf8.count
        let exact = withValue("\"" + String(repeating: "x", count: pad) + "\"")
        #expect(exact.utf8.count == RecordParser.maximumLineLength)
        #expect(record(exact) != nil)
        var tooLong = Array(withValue("\"" + String(repeating: "x", count: pad + 1) + "\"").utf8)
        #expect(parse(tooLong) == .bad(.lineTooLong))
        tooLong[10] = 0xFF  // invalid UTF-8 too: the length still decides first
        #expect(parse(tooLong) == .bad(.lineTooLong))
    }

    @Test("invalid UTF-8 anywhere wins over a JSON error earlier in the line")
    func utf8BeforeJSON() {
        #expect(parse(Array("{,".utf8) + [0xFF]) == .bad(.invalidUTF8))
        #expect(parse([0xC3, 0xA9]) == .bad(.invalidJSON))  // valid UTF-8 'é', not JSON
        #expect(parse(Array(#"{"session_id":"#.utf8) + [0xC0, 0xAF]) == .bad(.invalidUTF8))
    }

    @Test("strict UTF-8: overlong forms, surrogates, above U+10FFFF, truncation", arguments: [
        [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
    func invalidUTF8(_ sequence: [UInt8]) {
        let line = Array(#"{"session_id":"s"#.utf8) + sequence + Array(#"","timestamp":1}"#.utf8)
        #expect(parse(line) == .bad(.invalidUTF8))
    }

    @Test("valid multi-byte UTF-8 at the edges of each range", arguments: [
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ] as [[UInt8]])
    func validUTF8(_ sequence: [UInt8]) throws {
        let line = Array(#"{"session_id":"s"#.utf8) + sequence + Array(#"","timestamp":1}"#.utf8)
        let parsed = try #require(record(String(decoding: line, as: UTF8.self)))
        #expect(Array(parsed.sessionID.utf8) == [UInt8(ascii: "s")] + sequence)
    }

    // MARK: JSON grammar (orjson 3.8.3)

    @Test("refused by orjson: invalid_json", arguments: [
        "", "{", "}", "{,}", #"{"session_id":"s-1","timestamp":1,}"#, #"{"session_id":"s-1" "timestamp":1}"#,
        #"{"session_id":"s-1","timestamp":1}x"#, #"{"session_id":"s-1","timestamp":1}{}"#,
        "\u{FEFF}" + #"{"session_id":"s-1","timestamp":1}"#, #"{"session_id":"s-1","timestamp":1}"# + "\u{0C}",
        "\u{0B}" + #"{"session_id":"s-1","timestamp":1}"#, #"{'session_id':'s-1'}"#,
        withValue("01"), withValue("-01"), withValue("00"), withValue("1."), withValue(".5"), withValue("+1"),
        withValue("-"), withValue("1e"), withValue("1e+"), withValue("1.5e-"), withValue("1e5.0"), withValue("0x10"),
        withValue("NaN"), withValue("Infinity"), withValue("-Infinity"), withValue("tru"), withValue("truee"),
        withValue("nul"), withValue("[1,]"), withValue("[,1]"), withValue("[1 2]"), withValue(#"{"a" 1}"#),
        withValue("{1:2}"), withValue(#"{"a":}"#), withValue("[}"), withValue("{]"), withValue("/*c*/1"),
        withValue(#""\x41""#), withValue(#""\U0041""#), withValue(#""\a""#), withValue(#""\u12""#),
        withValue(#""\u12g4""#), withValue("\"a\u{01}b\""), withValue("\"a\u{1F}b\""), withValue("\"a\tb\""),
        withValue("\"a\u{0}b\""), withValue(#""unterminated"#), withValue(#""a\""#),
    ])
    func invalidJSON(_ line: String) {
        #expect(reason(line) == .invalidJSON)
    }

    @Test("surrogate escapes: a pair is one character; a lone or reversed half is invalid_json")
    func surrogates() throws {
        #expect(reason(withValue(#""\ud800""#)) == .invalidJSON)
        #expect(reason(withValue(#""\udc00""#)) == .invalidJSON)
        #expect(reason(withValue(#""\ud800x""#)) == .invalidJSON)
        #expect(reason(withValue(#""\ud800\u0041""#)) == .invalidJSON)
        #expect(reason(withValue(#""\ud800\ud800""#)) == .invalidJSON)
        #expect(reason(withValue(#""\udc00\ud800""#)) == .invalidJSON)
        #expect(reason(withValue(#""\ud800\\""#)) == .invalidJSON)
        let pair = try #require(record(#"{"session_id":"\ud83d\ude00","timestamp":1}"#))
        #expect(pair.sessionID == "😀")
        let upper = try #require(record(#"{"session_id":"\uDBFF\uDFFF","timestamp":1}"#))
        #expect(upper.sessionID == "\u{10FFFF}")
    }

    @Test("numbers that overflow a double are invalid_json anywhere; underflow is fine")
    func infiniteNumbers() {
        let threshold = String(DecimalDigits.overflowThreshold.description)
        #expect(reason(withValue("1e400")) == .invalidJSON)
        #expect(reason(withValue("-1e309")) == .invalidJSON)
        #expect(reason(withValue(String(repeating: "1", count: 400))) == .invalidJSON)
        #expect(reason(withValue(threshold)) == .invalidJSON)  // the exact midpoint rounds to 2^1024
        #expect(reason(withValue("1.797693134862315807937289714053035e308")) == .invalidJSON)
        #expect(reason(withValue("[{\"a\":[1e999]}]")) == .invalidJSON)
        // just below: finite
        var below = Array(threshold.utf8)
        below[below.count - 1] -= 1  // ...791
        #expect(record(withValue(String(decoding: below, as: UTF8.self))) != nil)
        #expect(record(withValue("1.797693134862315807937289714053034e308")) != nil)
        #expect(record(withValue("1e-400")) != nil)
        #expect(record(withValue("0e99999999999999999999")) != nil)
        #expect(record(withValue("0.0e400")) != nil)
        #expect(record(withValue("1e000000000000000000000000000308")) != nil)
        #expect(record(withValue("123456789012345678901234567890")) != nil)
    }

    @Test("white space: space, tab, LF, CR around every token; not VT or FF")
    func whitespace() throws {
        let spaced = " \t{ \"session_id\" :\r\"s-1\"\n, \"timestamp\"\t: 1 } \r\t"
        let parsed = try #require(record(spaced))
        #expect(parsed.closingBraceOffset == Array(spaced.utf8).lastIndex(of: UInt8(ascii: "}")))
        #expect(reason(#"{"session_id":"s-1","timestamp":1}"# + "\u{0C}") == .invalidJSON)
    }

    @Test("nesting is unbounded: 100,000 levels in an ignored field")
    func deepNesting() {
        let depth = 100_000
        let deep = withValue(String(repeating: "[{\"a\":", count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2))
        #expect(record(deep) != nil)
        let unbalanced = withValue(String(repeating: "[", count: depth) + String(repeating: "]", count: depth - 1))
        #expect(reason(unbalanced) == .invalidJSON)
        #expect(reason(withValue("[{\"a\":[}]}]")) == .invalidJSON)
    }

    @Test("not_an_object: valid JSON that is not an object", arguments: [
        "[]", #""s-1""#, "1764237600000", "null", "true", "-0", #"[{"session_id":"s-1","timestamp":1}]"#, " 1 ",
    ])
    func notAnObject(_ line: String) {
        #expect(reason(line) == .notAnObject)
    }

    // MARK: Fields

    @Test("session_id: a non-empty string, escapes decoded; anything else is missing_session_id")
    func sessionID() throws {
        for bad in [#"{"timestamp":1}"#, #"{"session_id":"","timestamp":1}"#, #"{"session_id":null,"timestamp":1}"#,
                    #"{"session_id":42,"timestamp":1}"#, #"{"session_id":true,"timestamp":1}"#,
                    #"{"session_id":["s"],"timestamp":1}"#, #"{"sessionId":"s","timestamp":1}"#] {
            #expect(reason(bad) == .missingSessionID, "\(bad)")
        }
        #expect(try #require(record(#"{"session_id":"s\u002d1","timestamp":1}"#)).sessionID == "s-1")
        #expect(try #require(record(#"{"session\u005fid":"k","timestamp":1}"#)).sessionID == "k")
        #expect(try #require(record(#"{"session_id":"\u0000","timestamp":1}"#)).sessionID == "\u{0}")
        #expect(try #require(record(#"{"session_id":"a\"b\\c\/d","timestamp":1}"#)).sessionID == #"a"b\c/d"#)
    }

    @Test("duplicate keys: the last one wins, for every field")
    func duplicateKeys() throws {
        #expect(reason(#"{"session_id":"a","session_id":"","timestamp":1}"#) == .missingSessionID)
        #expect(try #require(record(#"{"session_id":"","session_id":"a","timestamp":1}"#)).sessionID == "a")
        #expect(reason(#"{"session_id":"s","timestamp":5,"timestamp":true}"#) == .badTimestamp)
        #expect(try #require(record(#"{"session_id":"s","timestamp":true,"timestamp":5}"#)).timestamp == 5)
        #expect(try #require(record(#"{"type":"location","type":"track","session_id":"s","timestamp":1}"#)).kind == .event)
        #expect(reason(#"{"type":"track","type":"location","session_id":"s","timestamp":1}"#) == .badCoordinates)
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":1,"latitude":1,"latitude":"x","longitude":0}"#)
            == .badCoordinates)
    }

    @Test("numeric timestamps: ints as is, floats truncated toward zero; a fix's in years 1 to 9999")
    func numericTimestamps() throws {
        let cases: [(String, Int64)] = [
            ("1764237600123", 1_764_237_600_123), ("-0", 0), ("-1", -1), ("1764237600123.9", 1_764_237_600_123),
            ("-1764237600123.9", -1_764_237_600_123), ("-1.5", -1), ("0.5", 0), ("-0.0", 0), ("1.7642376e12", 1_764_237_600_000),
            ("1e-400", 0), ("253402300799999", 253_402_300_799_999), ("-62135596800000", -62_135_596_800_000),
            ("2.534023007999999e14", 253_402_300_799_999),
        ]
        for (json, expected) in cases {
            #expect(try #require(record(withTimestamp(json)), "\(json)").timestamp == expected, "\(json)")
        }
        // an event keeps any number, saturated at Int64's ends (as the peer keeps it: such an
        // event gets no geo)
        for (json, expected) in [("9223372036854775808", Int64.max), ("18446744073709551616", Int64.max),
                                 ("1e300", Int64.max), ("-9223372036854775809", Int64.min), ("-9.3e18", Int64.min),
                                 ("9.2e18", 9_200_000_000_000_000_000)] {
            #expect(try #require(record(withTimestamp(json)), "\(json)").timestamp == expected, "\(json)")
        }
        // a fix beyond 9999-12-31T23:59:59.999Z or before 0001-01-01T00:00:00.000Z, as a number or
        // a string (an offset can carry a string's instant out): bad_timestamp
        for json in ["253402300800000", "-62135596800001", "9223372036854775807", "9223372036854775808",
                     "18446744073709551616", "1e300", "-9223372036854775808", "-9223372036854775809", "-9.3e18",
                     "9.2e18", "-1e19", #""0001-01-01T00:00:00+00:01""#, #""9999-12-31T23:59:59.999-00:01""#] {
            #expect(reason(#"{"type":"location","session_id":"s","timestamp":\#(json),"latitude":1,"longitude":2}"#)
                    == .badTimestamp, "\(json)")
        }
    }

    @Test("bad_timestamp: absent, bool, null, container, zone-less or impossible strings", arguments: [
        #"{"session_id":"s-1"}"#, withTimestamp("true"), withTimestamp("false"), withTimestamp("null"),
        withTimestamp("{}"), withTimestamp("[1]"), withTimestamp(#""""#), withTimestamp(#""1764237600000""#),
        withTimestamp(#""2025-11-27T10:00:00""#), withTimestamp(#""2025-11-27""#),
        withTimestamp(#""10000-01-01T00:00:00Z""#), withTimestamp(#""2025-02-29T10:00:00Z""#),
        withTimestamp(#""2025-11-27T24:00:00Z""#), withTimestamp(#""2025-11-27T10:00:00+24:00""#),
        withTimestamp(#""2025-11-27T10:00:00ZZ""#), withTimestamp(#""2025-11-27T10:00:00+5""#),
    ])
    func badTimestamp(_ line: String) {
        #expect(reason(line) == .badTimestamp)
    }

    @Test("ISO timestamps: Z, offsets, fractions, escapes in the JSON string")
    func isoTimestamps() throws {
        let cases: [(String, Int64)] = [
            (#""2025-11-27T10:00:00.000Z""#, 1_764_237_600_000), (#""2025-11-27T10:00:00Z""#, 1_764_237_600_000),
            (#""2025-11-27T15:30:00+05:30""#, 1_764_237_600_000), (#""2025-11-27T02:00:00-08:00""#, 1_764_237_600_000),
            (#""2025-11-27T10:00:00.5Z""#, 1_764_237_600_500), (#""2025-11-27T10:00:00.1234567Z""#, 1_764_237_600_123),
            (#""2025-11-27T10:00:00.0025Z""#, 1_764_237_600_002), (#""2025-11-27T10:00:00.0015Z""#, 1_764_237_600_002),
            (#""\u0032025-11-27T10:00:00Z""#, 1_764_237_600_000), (#""2025-11-27\u00e910:00:00Z""#, 1_764_237_600_000),
            (#""2025-11-27T10:00:00+00:00\u0000""#, 1_764_237_600_000), (#""2025-W48-4T10Z""#, 1_764_237_600_000),
        ]
        for (json, expected) in cases {
            #expect(try #require(record(withTimestamp(json)), "\(json)").timestamp == expected, "\(json)")
        }
    }

    @Test("consent: the three values (escapes decoded), null or absent as none; anything else bad_consent")
    func consent() throws {
        func consent(_ json: String) -> ParseOutcome { parse(#"{"session_id":"s","timestamp":1,"consent":"# + json + "}") }
        #expect(try #require(record(#"{"session_id":"s","timestamp":1,"consent":"optOut"}"#)).consent == .optOut)
        #expect(try #require(record(#"{"session_id":"s","timestamp":1,"consent":"opt\u0049n"}"#)).consent == .optIn)
        #expect(try #require(record(#"{"session_id":"s","timestamp":1,"consent":"notSet"}"#)).consent == .notSet)
        #expect(try #require(record(#"{"session_id":"s","timestamp":1,"consent":null}"#)).consent == nil)
        #expect(try #require(record(#"{"session_id":"s","timestamp":1}"#)).consent == nil)
        for bad in [#""OptIn""#, #""optin""#, #""""#, #""optOut ""#, "1", "true", "false", "[]", "{}"] {
            #expect(consent(bad) == .bad(.badConsent), "\(bad)")
        }
    }

    @Test("bad_consent is checked before the coordinates, bad_timestamp before consent")
    func checkOrder() {
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":1,"consent":"x"}"#) == .badConsent)
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":true,"consent":"x"}"#) == .badTimestamp)
        #expect(reason(#"{"type":"location","session_id":"","timestamp":true}"#) == .missingSessionID)
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":1,"latitude":0,"longitude":0,"accuracy":-1}"#)
            == .badAccuracy)
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":1,"latitude":91,"longitude":0,"accuracy":-1}"#)
            == .badCoordinates)
    }

    @Test("type: only the string \"location\" (escapes decoded) makes a fix")
    func kind() throws {
        #expect(try #require(record(#"{"type":"loc\u0061tion","session_id":"s","timestamp":1,"latitude":1,"longitude":2}"#))
            .kind == .fix)
        for other in [#""Location""#, "1", "null", #""track""#, #"["location"]"#] {
            #expect(try #require(record(#"{"type":"# + other + #","session_id":"s","timestamp":1}"#)).kind == .event)
        }
        #expect(try #require(record(#"{"session_id":"s","timestamp":1,"latitude":"x"}"#)).kind == .event)
    }

    @Test("coordinates: numbers (not booleans) within ±90/±180, compared exactly")
    func coordinates() throws {
        for (lat, lon) in [("90", "180"), ("-90", "-180"), ("90.0", "-180.0"), ("-0", "-0.0"), ("0.9e2", "-1.8e2"),
                           ("90.00000000000000001", "0")] {  // the last rounds to 90.0 as a double
            #expect(record(fix(lat, lon)) != nil, "\(lat) \(lon)")
        }
        for (lat, lon) in [("90.0000001", "0"), ("0", "-180.1"), ("91", "0"), ("0", "181"), ("true", "0"), ("0", "false"),
                           ("null", "0"), (#""45""#, "0"), ("[45]", "0"), ("18446744073709551615", "0"),
                           ("-9223372036854775809", "0")] {
            #expect(reason(fix(lat, lon)) == .badCoordinates, "\(lat) \(lon)")
        }
        #expect(reason(#"{"type":"location","session_id":"s","timestamp":1,"longitude":1}"#) == .badCoordinates)
        let parsed = try #require(record(fix("45", "-97.131112", accuracy: "12")))
        #expect(identical(parsed.fix?.latitude, .integer(45)))
        #expect(identical(parsed.fix?.longitude, .double(-97.131112)))
        #expect(identical(parsed.fix?.accuracy, .integer(12)))
    }

    @Test("accuracy: absent or null is none; a number >= 0, where -0.0 and -0 pass (as in the peer)")
    func accuracy() throws {
        #expect(try #require(record(fix("1", "2"))).fix?.accuracy == nil)
        #expect(try #require(record(fix("1", "2", accuracy: "null"))).fix?.accuracy == nil)
        #expect(identical(try #require(record(fix("1", "2", accuracy: "-0.0"))).fix?.accuracy, .double(-0.0)))
        #expect(identical(try #require(record(fix("1", "2", accuracy: "-0"))).fix?.accuracy, .integer(0)))
        #expect(identical(try #require(record(fix("1", "2", accuracy: "18446744073709551615"))).fix?.accuracy,
                          .unsignedInteger(.max)))
        #expect(identical(try #require(record(fix("1", "2", accuracy: "1e308"))).fix?.accuracy, .double(1e308)))
        for bad in ["-1", "-0.5", "-1e-300", "true", "false", #""5""#, "[]", "{}"] {
            #expect(reason(fix("1", "2", accuracy: bad)) == .badAccuracy, "\(bad)")
        }
    }

    @Test("numbers read exactly: long mantissas, exponents, subnormals")
    func numberReading() throws {
        for text in ["49.888171", "97.13111234567891", "0.1", "45.000000000000000000000001", "4.5e1", "2.2250738585072011e-308",
                     "4.9e-324", "5e-324", "1e-320", "123456789.123456789", "0.30000000000000004", "9007199254740993",
                     "1.7976931348623157e308", "0.000000000000000000000000000000000000000001e40"] {
            let parsed = try #require(record(fix("0", "0", accuracy: text)), "\(text)")
            let expected = Double(text)!
            guard case .double(let got)? = parsed.fix?.accuracy else {
                // integer syntax within 64 bits stays an integer
                #expect(text == "9007199254740993")
                continue
            }
            #expect(got.bitPattern == expected.bitPattern, "\(text): \(got) vs \(expected)")
        }
    }

    @Test("isBlank: Python's bytes.strip() white space, including VT and FF")
    func blank() {
        for blank in ["", " ", "\t", "\u{0B}", "\u{0C}", " \t\u{0B}\u{0C}\r "] {
            #expect(RecordParser.isBlank(Array(blank.utf8)), "\(Array(blank.utf8))")
            #expect(Array(blank.utf8).withUnsafeBufferPointer { RecordParser.isBlank($0) })
        }
        for notBlank in ["x", "\u{0}", "\u{A0}", " {} ", "\u{1C}"] {
            #expect(!RecordParser.isBlank(Array(notBlank.utf8)), "\(Array(notBlank.utf8))")
            #expect(!Array(notBlank.utf8).withUnsafeBufferPointer { RecordParser.isBlank($0) })
        }
    }

    @Test("the closing brace is the last } before trailing white space")
    func closingBrace() throws {
        let line = #"{"session_id":"s-1","timestamp":1,"data":{"a":"}"}}  "#
        #expect(try #require(record(line)).closingBraceOffset == line.utf8.count - 3)
    }

    @Test("line from gen_stream.py, both kinds")
    func streamLines() throws {
        let fixLine = #"{"type":"location","session_id":"s-000001","timestamp":"2025-11-27T10:07:01.728Z","latitude":49.208252,"longitude":-123.055604,"accuracy":11.1}"#
        let parsed = try #require(record(fixLine))
        #expect(parsed.sessionID == "s-000001")
        #expect(parsed.timestamp == 1_764_238_021_728)
        #expect(parsed.kind == .fix)
        #expect(identical(parsed.fix?.accuracy, .double(11.1)))
        let event = #"{"type":"track","brand_id":925,"session_id":"s-000001","timestamp":1764238022728,"event_name":"Search","data":{"seq":1,"screen":"Home","price":41.84}}"#
        let parsedEvent = try #require(record(event))
        #expect(parsedEvent.kind == .event)
        #expect(parsedEvent.timestamp == 1_764_238_022_728)
        #expect(parsedEvent.closingBraceOffset == event.utf8.count - 1)
    }
}
