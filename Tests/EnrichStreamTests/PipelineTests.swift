import EnrichStream
import Foundation
import RecordCodec
import Testing

/// The pipeline's own guarantees: order, byte preservation, counts that reconcile, bad lines
/// reported where they are, long lines, several inputs, stopping early.
@Suite struct PipelineTests {
    static let fix = #"{"type":"location","session_id":"a","timestamp":1764237600000,"latitude":49.888171,"longitude":-97.131112,"accuracy":12.5}"#

    static func fix(_ session: String, _ ms: Int64, _ lat: Double, _ lng: Double) -> String {
        #"{"type":"location","session_id":"\#(session)","timestamp":\#(ms),"latitude":\#(lat),"longitude":\#(lng)}"#
    }

    static func event(_ session: String, _ ms: Int64) -> String {
        #"{"type":"track","session_id":"\#(session)","timestamp":\#(ms),"event_name":"x"}"#
    }

    @Test func enrichedLineIsTheInputWithGeoBeforeTheBrace() throws {
        let input = Self.fix + "\n" + Self.event("a", 1_764_237_612_000) + "\n"
        let run = try StreamRun.run(input)
        let lines = run.outputLines
        #expect(lines.count == 2)
        for (out, inLine) in zip(lines, input.split(separator: "\n")) {
            let text = String(decoding: out, as: UTF8.self)
            let cut = try #require(text.range(of: #","geo":{"#))
            #expect(String(text[..<cut.lowerBound]) + "}" == String(inLine))
            #expect(text.hasSuffix("}}"))
        }
        #expect(String(decoding: lines[1], as: UTF8.self).contains(#""age_ms":12000,"h3":"8f271c973aa4594""#))
        #expect(run.statistics.eventsEnriched == 1 && run.statistics.fixesAccepted == 1)
    }

    /// Regression: the enrichers took the lookup's 20 km, not `EnrichOptions.engine.postalMaxDistance`.
    @Test func theEnginesPostalMaxDistanceIsTheOneUsed() throws {
        var options = EnrichOptions()
        options.engine.postalMaxDistance = 5  // the fix lies 19.7 m from R3C 4L9's centroid
        let near = String(decoding: try StreamRun.run(Self.fix + "\n", options: options).outputLines[0], as: UTF8.self)
        #expect(near.contains(#""country":"CA""#) && !near.contains("postalcode"))
        options.engine.postalMaxDistance = 20
        let far = String(decoding: try StreamRun.run(Self.fix + "\n", options: options).outputLines[0], as: UTF8.self)
        #expect(far.contains(#""postalcode":"R3C 4L9","fsa":"R3C","postal_distance_m":19.7"#))
    }

    @Test func integerCoordinatesStayIntegersOnAttachedEvents() throws {
        let input = #"{"type":"location","session_id":"a","timestamp":0,"latitude":49,"longitude":-97,"accuracy":10}"#
            + "\n" + Self.event("a", 1000) + "\n"
        let lines = try StreamRun.run(input).outputLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 2)
        for line in lines { #expect(line.contains(#""geo":{"latitude":49,"longitude":-97,"accuracy":10,"#)) }
    }

    @Test func badLinesAreReportedWithTheirNumberAndTheRunGoesOn() throws {
        let input = "[1]\n\n  \n" + Self.fix + "\n{\"x\":\n\u{7F}\n"
        let run = try StreamRun.run(input)
        let errors = run.errorLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(errors == [#"{"line":1,"reason":"not_an_object","raw":"[1]"}"#,
                           #"{"line":5,"reason":"invalid_json","raw":"{\"x\":"}"#,
                           "{\"line\":6,\"reason\":\"invalid_json\",\"raw\":\"\u{7F}\"}"])
        #expect(run.outputLines.count == 1)
        #expect(run.statistics.lines == 4 && run.statistics.errors == 3 && run.statistics.reconciles)
    }

    @Test func invalidUTF8IsReplacedInTheReport() throws {
        let bytes: [UInt8] = Array(#"{"session_id":""#.utf8) + [0xC3, 0x28, 0xF0, 0x9F, 0x98] + Array("\"}\n".utf8)
        let run = try StreamRun.run([bytes])
        let report = String(decoding: try #require(run.errorLines.first), as: UTF8.self)
        #expect(report == "{\"line\":1,\"reason\":\"invalid_utf8\",\"raw\":\"{\\\"session_id\\\":\\\"\u{FFFD}(\u{FFFD}\\\"}\"}")
    }

    @Test
    func linesOverOneMebibyteAreTooLongAndCut() throws {
        let limit = RecordParser.maximumLineLength
        func line(_ n: Int) -> [UInt8] { Array(repeating: UInt8(ascii: "a"), count: n) }
        // exactly the limit (invalid JSON, not too long), the limit plus `\r`s (stripped: not too
        // long), one over, and far over (past what a batch holds whole)
        let input = line(limit) + [0x0A] + line(limit) + [0x0D, 0x0D, 0x0A] + line(limit + 1) + [0x0A]
            + line(5 * limit) + [0x0A] + Array((Self.fix + "\n").utf8)
        var options = EnrichOptions()
        options.batchBytes = 1 << 16
        let run = try StreamRun.run([input], options: options)
        let reports = run.errorLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(reports.count == 4)
        #expect(reports.map { $0.contains(#""reason":"invalid_json""#) } == [true, true, false, false])
        #expect(reports.map { $0.contains(#""reason":"line_too_long""#) } == [false, false, true, true])
        // raw: the first MiB of the line, no more
        for (n, (r, reason)) in zip(reports, ["invalid_json", "invalid_json", "line_too_long", "line_too_long"]).enumerated() {
            #expect(r.utf8.count == #"{"line":\#(n + 1),"reason":"\#(reason)","raw":""#.utf8.count + limit + 2)
        }
        #expect(reports[3].hasPrefix(#"{"line":4,"#))
        #expect(run.outputLines.count == 1)
        #expect(run.statistics.lines == 5 && run.statistics.reconciles)
    }

    @Test
    func aLongBlankLineIsSkipped() throws {
        let input = Array(repeating: UInt8(ascii: " "), count: 3 * RecordParser.maximumLineLength) + [0x0A]
            + Array((Self.fix + "\n").utf8)
        let run = try StreamRun.run([input])
        #expect(run.statistics.lines == 1 && run.statistics.errors == 0 && run.outputLines.count == 1)
    }

    /// 280,000 blank lines fit in one batch's bytes but not in its line limit
    /// (`LineBatch.maxLines`, 65,536), so the readers end batches on the limit four times and
    /// carry the rest: every line must still be read once, in order, with its own number.
    @Test
    func manyShortLinesCrossTheLineLimitWithTheirNumbers() throws {
        let blanks = String(repeating: "\n", count: 70_000)
        var input = ""
        for k in 0..<4 {
            input += blanks + "not json\n" + Self.fix("s1", 1_764_237_600_000 + Int64(k) * 60_000, 43.6 + Double(k) * 0.01, -79.38) + "\n"
        }
        let run = try StreamRun.run(input)
        #expect(run.statistics.lines == 8 && run.statistics.errors == 4 && run.statistics.fixesAccepted == 4)
        #expect(run.statistics.reconciles)
        let numbers = run.errorLines.map { line -> Int in
            let text = String(decoding: line, as: UTF8.self)
            return Int(text.dropFirst(#"{"line":"#.count).prefix { $0 != "," }) ?? -1
        }
        #expect(numbers == [70_001, 140_003, 210_005, 280_007])
        #expect(run.outputLines.count == 4)
    }

    @Test func resultsDoNotDependOnBatchSizeOrWorkers() throws {
        var lines: [String] = []
        var t: Int64 = 1_764_237_600_000
        for i in 0..<3000 {
            let s = "s\(i % 37)"
            t += 700
            let lat = 43.6 + Double(i % 37) * 0.01 + Double(i / 37) * 0.0004
            lines.append(i % 3 == 0 ? Self.event(s, t) : Self.fix(s, t, lat, -79.38))
            if i % 101 == 0 { lines.append("not json") }
        }
        let input = lines.joined(separator: "\n") + "\n"
        let reference = try StreamRun.run(input)
        #expect(reference.statistics.fixesAccepted > 100 && reference.statistics.eventsEnriched > 100)
        for (workers, batch) in [(1, 1 << 20), (2, 4096), (3, 700), (5, 1 << 14), (2, 1 << 20)] {
            var options = EnrichOptions()
            options.workers = workers
            options.batchBytes = batch
            let run = try StreamRun.run(input, options: options)
            #expect(run.output == reference.output, "workers \(workers), batch \(batch)")
            #expect(run.errors == reference.errors)
            #expect(run.statistics == reference.statistics)
        }
    }

    @Test func maxErrorsStopsRightAfterTheLastAllowedBadLine() throws {
        let input = [Self.fix, "x", Self.event("a", 1_764_237_601_000), "y", Self.event("a", 1_764_237_602_000)]
            .joined(separator: "\n")
        var options = EnrichOptions()
        options.maxErrors = 2
        let run = try StreamRun.run(input, options: options)
        #expect(run.errorLines.count == 2)
        #expect(run.outputLines.count == 2)  // the fix and the first event; not the event after "y"
        #expect(run.statistics.lines == 4 && run.statistics.stoppedEarly && run.statistics.reconciles)
    }

    @Test
    func severalInputsAreOneStreamAndReportsNameTheFile() throws {
        let first = Self.fix + "\nbad"  // no final newline: still a line of its own
        let second = Self.event("a", 1_764_237_630_000) + "\nworse\n"
        let run = try StreamRun.run([Array(first.utf8), Array(second.utf8)])
        #expect(run.outputLines.count == 2)
        #expect(run.statistics.eventsEnriched == 1)  // the session carried over
        let reports = run.errorLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(reports.count == 2)
        #expect(reports[0].hasPrefix(#"{"line":2,"file":""#) && reports[0].contains("in0.ndjson"))
        #expect(reports[1].hasPrefix(#"{"line":2,"file":""#) && reports[1].contains("in1.ndjson"))
    }

    @Test func rejectedFixesAreWrittenOnlyWhenAsked() throws {
        let input = Self.fix + "\n" + Self.fix.replacingOccurrences(of: "1764237600000", with: "1764237601000") + "\n"
        #expect(try StreamRun.run(input).outputLines.count == 1)
        var options = EnrichOptions()
        options.emitRejected = true
        let lines = try StreamRun.run(input, options: options).outputLines.map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 2)
        #expect(lines[1].hasSuffix(#","rejected":"distance"}"#))
    }

    @Test func aStopBeforeTheStartReadsNothing() throws {
        let stop = StopFlag()
        stop.request(2)
        let run = try StreamRun.run([Array((Self.fix + "\n").utf8)], stop: stop)
        #expect(run.output.isEmpty && run.statistics.lines == 0 && run.statistics.stoppedEarly)
    }

    @Test func statisticsJSONHasTheContractKeysInOrder() throws {
        let run = try StreamRun.run(Self.fix + "\n")
        let json = run.statistics.json(elapsedSeconds: 1.23456, extra: [("push", "null")])
        #expect(json.hasPrefix(#"{"lines":1,"events":0,"events_enriched":0,"fixes":1,"fixes_accepted":1,"fixes_rejected":{"distance":0,"stale":0,"accuracy":0,"consent":0},"errors":0,"#))
        #expect(json.hasSuffix(#""elapsed_s":1.235,"push":null}"#))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["lines"] as? Int == 1)
    }
}
