@testable import EnrichStream
import EnrichEngine
import RecordCodec
import Testing
import TestSupport

/// The record processor alone, line by line, on one thread: the one decision path and what
/// each format makes of its outcomes.
@Suite struct RecordProcessorTests {
    static func processor(_ format: RecordFormat = .canonical, emitRejected: Bool = false,
                          configuration: EngineConfiguration = EngineConfiguration()) throws -> RecordProcessor<SessionTable<StandardEnricher>> {
        try RecordProcessor(configuration: configuration, lookup: StreamRun.lookup, format: format,
                            emitRejected: emitRejected, collectsAccepted: true)
    }

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    // the README's example: the peer's own output for this fix
    static let fix = #"{"type":"location","session_id":"s-42","timestamp":"2025-11-27T10:00:00.000Z","latitude":49.888171,"longitude":-97.131112,"accuracy":12.5}"#
    static let fixGeo = #""geo":{"latitude":49.888171,"longitude":-97.131112,"accuracy":12.5,"fix_timestamp":"2025-11-27T10:00:00.000Z","age_ms":0,"h3":"8f271c973aa4594","country":"CA","postalcode":"R3C 4L9","fsa":"R3C","postal_distance_m":19.7}"#

    @Test func anAcceptedFixIsWrittenWithItsGeoAndHandedOn() throws {
        var p = try Self.processor()
        let result = p.process(line: Array(Self.fix.utf8))
        #expect(result.bad == nil && result.outcomes == [.fixAccepted])
        #expect(Self.text(result.output) == String(Self.fix.dropLast()) + "," + Self.fixGeo + "}")
        #expect(result.accepted.count == 1 && result.accepted.first?.session.rawValue == "s-42")
        #expect(result.accepted.first?.enrichment.latitude == .double(49.888171))
    }

    @Test func numbersAreWrittenBackAsTheRecordWroteThem() throws {
        // integers stay integers on the fix and its events, and an integer accuracy beyond 2^53
        // keeps its last digit (it used to pass through a double: ...992)
        var p = try Self.processor()
        let fix = #"{"type":"location","session_id":"i","timestamp":0,"latitude":49,"longitude":-97,"accuracy":9007199254740993}"#
        let event = #"{"type":"track","session_id":"i","timestamp":5}"#
        for (line, age) in [(fix, 0), (event, 5)] {
            let out = try #require(Self.text(p.process(line: Array(line.utf8)).output))
            #expect(out.contains(#""geo":{"latitude":49,"longitude":-97,"accuracy":9007199254740993,"fix_timestamp":"1970-01-01T00:00:00.000Z","age_ms":\#(age),"#))
        }
    }

    @Test func aNearFixIsRejectedAndWrittenOnlyWhenAskedFor() throws {
        // 10 m north of the first fix, a second later
        let near = #"{"type":"location","session_id":"s-42","timestamp":"2025-11-27T10:00:01.000Z","latitude":49.888261,"longitude":-97.131112}"#
        var quiet = try Self.processor()
        _ = quiet.process(line: Array(Self.fix.utf8))
        let dropped = quiet.process(line: Array(near.utf8))
        #expect(dropped.outcomes == [.rejectedDistance] && dropped.output == nil && dropped.accepted.isEmpty)

        var loud = try Self.processor(emitRejected: true)
        _ = loud.process(line: Array(Self.fix.utf8))
        let marked = loud.process(line: Array(near.utf8))
        #expect(marked.outcomes == [.rejectedDistance])
        #expect(Self.text(marked.output) == String(near.dropLast()) + #","rejected":"distance"}"#)
    }

    @Test func eventsGetTheLiveFixUntilItExpires() throws {
        var p = try Self.processor()
        _ = p.process(line: Array(Self.fix.utf8))
        let live = #"{"type":"track","session_id":"s-42","timestamp":"2025-11-27T10:00:59.999Z"}"#
        let late = #"{"type":"track","session_id":"s-42","timestamp":"2025-11-27T10:01:00.000Z"}"#
        let enriched = p.process(line: Array(live.utf8))
        #expect(enriched.outcomes == [.eventEnriched] && enriched.accepted.isEmpty)
        #expect(Self.text(enriched.output) == String(live.dropLast()) + ","
            + Self.fixGeo.replacingOccurrences(of: #""age_ms":0"#, with: #""age_ms":59999"#) + "}")
        let plain = p.process(line: Array(late.utf8))
        #expect(plain.outcomes == [.event] && Self.text(plain.output) == late)
    }

    @Test func optingOutDropsTheLocationAndRejectsFixes() throws {
        var p = try Self.processor()
        _ = p.process(line: Array(Self.fix.utf8))
        let out = #"{"type":"track","session_id":"s-42","timestamp":"2025-11-27T10:00:02.000Z","consent":"optOut"}"#
        #expect(p.process(line: Array(out.utf8)).outcomes == [.event])
        let again = Self.fix.replacingOccurrences(of: "10:00:00", with: "10:00:03")
        #expect(p.process(line: Array(again.utf8)).outcomes == [.rejectedConsent])
        #expect(p.liveSessions == 0)
    }

    @Test func badAndBlankLinesAreNotDecided() throws {
        var p = try Self.processor()
        let bad = p.process(line: Array(#"{"type":"location","session_id":""}"#.utf8))
        #expect(bad.bad == .missingSessionID && bad.outcomes.isEmpty && bad.output == nil)
        let blank = p.process(line: Array(" \t".utf8))
        #expect(blank.bad == nil && blank.outcomes.isEmpty && blank.output == nil)
        let long = p.process(line: Array(repeating: UInt8(ascii: "a"), count: RecordParser.maximumLineLength + 1))
        #expect(long.bad == .lineTooLong)
    }

    @Test func eqworksRejectedFixesDescribeThemselvesButOptedOutOnesDoNot() throws {
        var p = try Self.processor(.eqworks)
        let a = #"{"cmd":"logEvent","userId":"u","timestamp":1000,"location":{"latitude":49.888171,"longitude":-97.131112}}"#
        let near = #"{"cmd":"logEvent","userId":"u","timestamp":2000,"location":{"latitude":49.888261,"longitude":-97.131112}}"#
        let optedOut = #"{"cmd":"logEvent","userId":"u","timestamp":3000,"consent":"optOut","location":{"latitude":49.888261,"longitude":-97.131112}}"#
        #expect(p.process(line: Array(a.utf8)).outcomes == [.fixAccepted])
        let rejected = p.process(line: Array(near.utf8))
        #expect(rejected.outcomes == [.rejectedDistance] && rejected.accepted.isEmpty)
        #expect(Self.text(rejected.output)?.contains(#""h3Index":""#) == true)
        let consent = p.process(line: Array(optedOut.utf8))
        #expect(consent.outcomes == [.rejectedConsent])
        // every EQWorks line is written; an opted-out record as it came
        #expect(Self.text(consent.output) == optedOut)
    }

    /// One decision path: the same records give the same outcomes in every format that can
    /// carry them (canonical records and MobileTracker updates and track payloads).
    @Test func formatsShareTheDecision() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("formatsShareTheDecision seed \(seed)")
        var rng = SplitMix64(seed: seed)
        var canonical = try Self.processor(.canonical)
        var tracker = try Self.processor(.mobiletracker)
        var time: Int64 = 1_764_237_600_000
        for n in 0..<2000 {
            let session = "s\(Int.random(in: 0..<20, using: &rng))"
            time += Int64.random(in: 0...20_000, using: &rng)
            let line: (canonical: String, tracker: String)
            if Bool.random(using: &rng) {
                let lat = 49.88 + Double.random(in: 0..<0.01, using: &rng)
                let lng = -97.13 + Double.random(in: 0..<0.01, using: &rng)
                line = (#"{"type":"location","session_id":"\#(session)","timestamp":\#(time),"latitude":\#(lat),"longitude":\#(lng)}"#,
                        #"{"latitude":\#(lat),"longitude":\#(lng),"session_id":"\#(session)","timestamp":\#(time)}"#)
            } else {
                line = (#"{"type":"track","session_id":"\#(session)","timestamp":\#(time)}"#,
                        #"{"brand_id":1,"session_id":"\#(session)","event_name":"x","data":{},"timestamp":\#(time)}"#)
            }
            let a = canonical.process(line: Array(line.canonical.utf8))
            let b = tracker.process(line: Array(line.tracker.utf8))
            #expect(a.outcomes == b.outcomes, "line \(n), seed \(seed)")
            #expect(a.accepted.count == b.accepted.count, "line \(n), seed \(seed)")
        }
    }
}
