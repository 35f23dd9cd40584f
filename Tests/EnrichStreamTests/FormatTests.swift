import EnrichStream
import Foundation
import RecordCodec
import Testing

/// The SDK formats (`--format`): the seeds' own payloads, and where each format puts the
/// enrichment without touching anything else.
@Suite struct FormatTests {
    static func options(_ format: RecordFormat) -> EnrichOptions {
        var o = EnrichOptions()
        o.format = format
        return o
    }

    static func json(_ line: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    /// The records of an EQWorks line: the payload, or its batch's elements.
    static func eqworksRecords(_ object: [String: Any]) -> [[String: Any]] {
        (object["batch_info"] as? [[String: Any]]) ?? [object]
    }

    @Test func eqworksSeedPayloadsComeBackWithTheSeedsH3IndexAndFSA() throws {
        // the seed's payloads with the SDK's enrichment taken out (Fixtures/README.md): the
        // h3Index and FSA below are the seed document's own (computed by the EQWorks SDK), so
        // only a lookup that ran can put them back; the second line carries a wrong postalcode,
        // which the lookup must replace
        let expected: [(h3: String, postal: [String: String]?)] = [
            ("8f55022b0c0538c", nil),  // Western Sahara: no postal code
            ("8f271c973aa4594", ["postalcode": "R3C4L9", "fsa": "R3C"]),
            ("8f271c973aa4594", ["postalcode": "R3C4L9", "fsa": "R3C"]),
            ("8f271c9468b2c5c", ["postalcode": "R2H1B8", "fsa": "R2H"]),  // the SDK had R2H1B9
        ]
        let input = try StreamRun.fixture("eqworks_seed.ndjson")
        let run = try StreamRun.run([input], options: Self.options(.eqworks))
        let inputs = StreamRun.lines(input)
        #expect(run.outputLines.count == inputs.count && run.errors.isEmpty)
        var records: [[String: Any]] = []
        for (inLine, outLine) in zip(inputs, run.outputLines) {
            let given = Self.eqworksRecords(try Self.json(inLine))
            let ours = Self.eqworksRecords(try Self.json(outLine))
            #expect(given.count == ours.count)
            records += ours
        }
        #expect(records.count == expected.count)
        for (record, want) in zip(records, expected) {
            #expect(record["h3Index"] as? String == want.h3)
            #expect(record["postalcode"] as? [String: String] == want.postal)
        }
        #expect(run.statistics.lines == 3 && run.statistics.records == 4 && run.statistics.fixesAccepted == 4)
        #expect(run.statistics.reconciles)
    }

    @Test func eqworksPostalCodeIsTheContractsWithoutItsSpace() throws {
        // the same point as a canonical fix: the contract's nearest code (checked against the
        // peer by scripts/ci/enrich_diffcheck.py), which the EQWorks form writes without the space
        let canonical = #"{"type":"location","session_id":"u","timestamp":1,"latitude":49.880312,"longitude":-97.112786}"#
        let geo = try #require(try Self.json(try StreamRun.run(canonical + "\n").outputLines[0])["geo"] as? [String: Any])
        let eq = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:56.220Z","location":{"longitude":-97.112786,"latitude":49.880312}}"#
        let out = try Self.json(try StreamRun.run(eq + "\n", options: Self.options(.eqworks)).outputLines[0])
        let postal = try #require(out["postalcode"] as? [String: String])
        #expect(postal["postalcode"] == (geo["postalcode"] as? String)?.replacingOccurrences(of: " ", with: ""))
        #expect(postal["fsa"] == geo["fsa"] as? String)
        #expect(out["h3Index"] as? String == geo["h3"] as? String)
    }

    /// With US ZIP codes asked for, a US point's EQWorks `postalcode` object holds the ZIP code
    /// alone (no FSA outside Canada), and the other formats' `geo` has no `fsa` key.
    @Test func aUSPointGetsItsZipCodeWithoutAnFSA() throws {
        // downtown Detroit: ZIP 48243's centroid (PyPI zipcodes 3.0.0; zip_diffcheck checks such points)
        let eq = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:56.220Z","location":{"longitude":-83.0458,"latitude":42.3314}}"#
        let out = try Self.json(try StreamRun.run([Array((eq + "\n").utf8)], options: Self.options(.eqworks),
                                                  lookup: StreamRun.lookupWithZipCodes).outputLines[0])
        #expect(out["postalcode"] as? [String: String] == ["postalcode": "48243"])
        let mt = #"{"latitude":42.3314,"longitude":-83.0458,"accuracy":5,"session_id":"s","timestamp":1764237600000}"#
        let line = try StreamRun.run([Array((mt + "\n").utf8)], options: Self.options(.mobiletracker),
                                     lookup: StreamRun.lookupWithZipCodes).outputLines[0]
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#""country":"US","postalcode":"48243","postal_distance_m":0.0}"#), "\(text)")
        // without the option, the same point has no postal code at all
        let plain = String(decoding: try StreamRun.run([Array((mt + "\n").utf8)], options: Self.options(.mobiletracker))
            .outputLines[0], as: UTF8.self)
        #expect(!plain.contains("postalcode"), "\(plain)")
    }

    /// With time zones, `geo` ends with the fix's zone and its UTC offset at the fix's time, in
    /// every format; EQWorks gets a top-level `timezone` instead. The expected values are
    /// timezonefinder 9.0.0's zone and zoneinfo's offsets (utc_offset_check checks many more).
    @Test func timeZonesInEveryFormat() throws {
        // Winnipeg's change to daylight time: 2025-03-09T08:00:00Z; zoneinfo: -21600 before, -18000 from it
        let change: Int64 = 1_741_507_200_000
        let fix = #"{"type":"location","session_id":"s","timestamp":\#(change - 1),"latitude":49.888171,"longitude":-97.131112}"#
        let event = #"{"type":"track","session_id":"s","timestamp":\#(change + 20_000),"event_name":"e"}"#
        let after = #"{"type":"location","session_id":"t","timestamp":\#(change),"latitude":49.888171,"longitude":-97.131112}"#
        let run = try StreamRun.run([Array([fix, event, after].joined(separator: "\n").utf8) + [0x0A]],
                                    options: Self.options(.canonical), lookup: StreamRun.lookupWithTimeZones)
        let lines = run.outputLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 3)
        // the event carries its fix's offset: the offset at the fix's time, not at the event's
        #expect(lines[0].hasSuffix(#""postal_distance_m":19.7,"timezone":"America/Winnipeg","utc_offset_s":-21600}}"#), "\(lines[0])")
        #expect(lines[1].hasSuffix(#""timezone":"America/Winnipeg","utc_offset_s":-21600}}"#), "\(lines[1])")
        #expect(lines[2].hasSuffix(#""timezone":"America/Winnipeg","utc_offset_s":-18000}}"#), "\(lines[2])")

        // MobileTracker and Data Cloud: the same keys at the end of their `geo`; Detroit, a US
        // point with its ZIP code; mid-Atlantic, an ocean zone
        let mt = #"{"session_id":"m","timestamp":1764237600000,"event_name":"e","data":{}}"#
        let mtFix = #"{"latitude":42.3314,"longitude":-83.0458,"session_id":"m","timestamp":1764237600000}"#
        let mtRun = try StreamRun.run([Array((mtFix + "\n" + mt + "\n").utf8)], options: Self.options(.mobiletracker),
                                      lookup: StreamRun.lookupWithTimeZones)
        for line in mtRun.outputLines.map({ String(decoding: $0, as: UTF8.self) }) {
            #expect(line.contains(#""postalcode":"48243","postal_distance_m":0.0,"timezone":"America/Detroit","utc_offset_s":-18000}"#), "\(line)")
        }
        let dc = #"{"latitude":30.0,"longitude":-40.0,"session_id":"d","timestamp":0}"#
        let dcLine = String(decoding: try StreamRun.run([Array((dc + "\n").utf8)], options: Self.options(.datacloud),
                                                        lookup: StreamRun.lookupWithTimeZones).outputLines[0], as: UTF8.self)
        #expect(dcLine.hasSuffix(#""timezone":"Etc/GMT+3","utc_offset_s":-10800}}"#), "\(dcLine)")

        // EQWorks: the payload's own top-level `timezone` is replaced, `context.timezone` (the
        // device's setting) is left alone, and a record without one gets one before its `}`
        let eq = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:56.220Z","timezone":"x","context":{"timezone":"Device/Zone"},"location":{"longitude":-97.131112,"latitude":49.888171}}"#
        let eqOut = try Self.json(try StreamRun.run([Array((eq + "\n").utf8)], options: Self.options(.eqworks),
                                                    lookup: StreamRun.lookupWithTimeZones).outputLines[0])
        #expect(eqOut["timezone"] as? String == "America/Winnipeg")
        #expect((eqOut["context"] as? [String: String])?["timezone"] == "Device/Zone")
        let eq2 = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:56.220Z","location":{"longitude":-97.131112,"latitude":49.888171}}"#
        let eq2Out = String(decoding: try StreamRun.run([Array((eq2 + "\n").utf8)], options: Self.options(.eqworks),
                                                        lookup: StreamRun.lookupWithTimeZones).outputLines[0], as: UTF8.self)
        #expect(eq2Out.hasSuffix(#","h3Index":"8f271c973aa4594","postalcode":{"postalcode":"R3C4L9","fsa":"R3C"},"timezone":"America/Winnipeg"}"#), "\(eq2Out)")
        // without time zones nothing of it is written, and the payload's own value stays
        let plain = String(decoding: try StreamRun.run([Array((eq + "\n").utf8)], options: Self.options(.eqworks))
            .outputLines[0], as: UTF8.self)
        #expect(plain.contains(#""timezone":"x""#) && !plain.contains("America/Winnipeg"), "\(plain)")
    }

    @Test func eqworksKeepsEveryOtherByteAndDescribesARejectedFixToo() throws {
        let a = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:56.000Z","location":{"latitude":49.888171,"longitude":-97.131112},"name":"x"}"#
        // 10 m away, 1 s later: the distance filter rejects the fix, the record still gets its own cell
        let b = #"{"cmd":"logEvent","userId":"u","timestamp":"2022-05-31T21:07:57.000Z","location":{"latitude":49.888261,"longitude":-97.131112},"name":"y"}"#
        let run = try StreamRun.run(a + "\n" + b + "\n", options: Self.options(.eqworks))
        let lines = run.outputLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 2)
        #expect(run.statistics.fixesAccepted == 1 && run.statistics.fixesRejected.distance == 1)
        for (out, input) in zip(lines, [a, b]) {
            // removing the two added members gives the input back, byte for byte
            let stripped = out.replacingOccurrences(of: #",\"h3Index\":\"[0-9a-f]+\",\"postalcode\":\{[^}]*\}"#,
                                                    with: "", options: .regularExpression)
            #expect(stripped == input)
        }
        let h3a = try Self.json(Array(lines[0].utf8))["h3Index"] as? String
        let h3b = try Self.json(Array(lines[1].utf8))["h3Index"] as? String
        #expect(h3a != nil && h3b != nil && h3a != h3b)
    }

    @Test func eqworksBatchOfSeveralUsersAndBadBatches() throws {
        let batch = #"{"cmd":"batch","batch_info":[{"userId":"a","timestamp":1,"location":{"latitude":45.5,"longitude":-73.6}},{"userId":"b","timestamp":2,"location":{"latitude":43.7,"longitude":-79.4}},{"userId":"a","timestamp":3,"name":"no location"}]}"#
        let run = try StreamRun.run([batch, #"{"cmd":"batch","batch_info":{}}"#, #"{"cmd":"batch","batch_info":[1]}"#,
                                     #"{"cmd":"batch","batch_info":[]}"#, #"{"cmd":"batch","batch_info":[{"timestamp":1}]}"#]
                                        .joined(separator: "\n"), options: Self.options(.eqworks))
        let records = Self.eqworksRecords(try Self.json(run.outputLines[0]))
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0["h3Index"] is String })  // the event got user a's live fix
        let reasons = run.errorLines.map { try? Self.json($0)["reason"] as? String }
        #expect(reasons == ["bad_batch", "bad_batch", "missing_session_id"])
        #expect(run.outputLines.count == 2)  // the empty batch is written as it is
        #expect(run.statistics.records == 3 + 3 + 0 && run.statistics.events == 1 && run.statistics.reconciles)
    }

    @Test func mobileTrackerPutsGeoInsideTheTrackPayloadsData() throws {
        let update = #"{"latitude":49.888171,"longitude":-97.131112,"accuracy":10.0,"session_id":"s","timestamp":1000}"#
        let track = #"{"brand_id":925,"session_id":"s","event_name":"BUTTON_CLICK","data":{"screen":"home"},"timestamp":2000}"#
        let empty = #"{"brand_id":925,"session_id":"s","event_name":"OPEN","data":{},"timestamp":3000}"#
        let run = try StreamRun.run([update, track, empty].joined(separator: "\n"), options: Self.options(.mobiletracker))
        let out = try run.outputLines.map(Self.json)
        #expect(out.count == 3)
        #expect((out[0]["geo"] as? [String: Any])?["age_ms"] as? Int == 0)
        let data = try #require(out[1]["data"] as? [String: Any])
        #expect((data["geo"] as? [String: Any])?["age_ms"] as? Int == 1000 && data["screen"] as? String == "home")
        #expect(out[1]["geo"] == nil)
        #expect(((out[2]["data"] as? [String: Any])?["geo"] as? [String: Any])?["h3"] as? String != nil)
        #expect(run.statistics.fixesAccepted == 1 && run.statistics.eventsEnriched == 2)
    }

    @Test func dataCloudEventsGetTopLevelLatitudeAndLongitude() throws {
        let update = #"{"latitude":49.888171,"longitude":-97.131112,"accuracy":65.0,"expiresIn":60,"session_id":"s","timestamp":1000}"#
        let plain = #"{"event_name":"AddToCart","quantity":1,"session_id":"s","timestamp":11000}"#
        let stale = #"{"event_name":"AddToCart","latitude":37.7749,"longitude":-122.4194,"session_id":"s","timestamp":12000}"#
        let late = #"{"event_name":"View","session_id":"s","timestamp":61000}"#
        let run = try StreamRun.run([update, plain, stale, late].joined(separator: "\n"), options: Self.options(.datacloud))
        let out = try run.outputLines.map(Self.json)
        #expect(out.count == 4)
        for event in out[1...2] {
            #expect(event["latitude"] as? Double == 49.888171 && event["longitude"] as? Double == -97.131112)
            let geo = try #require(event["geo"] as? [String: Any])
            #expect(geo["latitude"] == nil && geo["accuracy"] as? Double == 65.0 && geo["country"] as? String == "CA")
        }
        #expect(out[3]["latitude"] == nil && out[3]["geo"] == nil)  // expired: left as it came
        #expect(String(decoding: run.outputLines[3], as: UTF8.self) == late)
    }
}
