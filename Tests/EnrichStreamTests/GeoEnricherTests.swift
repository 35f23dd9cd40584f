import EnrichEngine
import EnrichStream
import Foundation
import Logging
import MetricsTestKit
import RecordCodec
import Testing
import TestSupport

/// The service's entry gives what the stream gives: the same output line for every input line
/// and the same figures, whether lines come one by one from eight concurrent tasks, as a body,
/// or as an asynchronous sequence.
@Suite struct GeoEnricherTests {
    /// The session a generated line belongs to (`s-N`), or `nil` for a line without one.
    static func session(of line: [UInt8]) -> Substring? {
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "\"s-") else { return nil }
        let digits = text[start.upperBound...].prefix { $0.isNumber }
        return digits.isEmpty ? nil : digits
    }

    static func enricher(_ format: RecordFormat, metrics: TestMetrics? = nil,
                         logger: Logger = GeoEnricher.quietLogger) throws -> GeoEnricher {
        try GeoEnricher(lookup: StreamRun.lookup, format: format, emitRejected: true, logger: logger, metrics: metrics)
    }

    static func streamRun(_ format: RecordFormat, _ input: [UInt8]) throws -> StreamRun {
        var options = EnrichOptions()
        options.format = format
        options.emitRejected = true
        return try StreamRun.run([input], options: options)
    }

    @Test(arguments: RecordFormat.allCases)
    func eightTasksGiveTheStreamsLinesAndFigures(format: RecordFormat) async throws {
        let seed = testSeed("GeoEnricherTests.eightTasks \(format)")
        let input = WorkersTests.stream(format, lines: 20_000, sessions: 2_000, seed: seed)
        let expected = try Self.streamRun(format, input)
        let lines = StreamRun.lines(input)

        // each task takes whole sessions, so that a session's records keep their order
        let enricher = try Self.enricher(format)
        let tasks = 8
        var share = [[Int]](repeating: [], count: tasks)
        for (i, line) in lines.enumerated() {
            let owner = Self.session(of: line).map { abs($0.hashValue) % tasks } ?? i % tasks
            share[owner].append(i)
        }
        let results = await withTaskGroup(of: [(Int, EnrichedLine)].self) { group in
            for indices in share {
                group.addTask {
                    indices.map { ($0, enricher.enrich(line: lines[$0])) }
                }
            }
            var all = [EnrichedLine?](repeating: nil, count: lines.count)
            for await part in group { for (i, line) in part { all[i] = line } }
            return all
        }
        let written = results.compactMap { $0?.output }
        #expect(WorkersTests.firstDifference(written, expected.outputLines) == nil, "seed \(seed)")
        var figures = enricher.statistics
        #expect(figures.bytes == expected.statistics.bytes, "seed \(seed)")
        figures.bytes = expected.statistics.bytes
        #expect(figures == expected.statistics, "seed \(seed)")
        #expect(figures.fixesAccepted > 500 && figures.errors > 50 && figures.eventsEnriched > 500, "seed \(seed)")
        // a bad line says why, as the stream's error output does
        let bad = results.compactMap { $0?.badReason }
        #expect(bad.count == expected.statistics.errors)
    }

    @Test func aBodyAndAnAsyncSequenceGiveTheStreamsOutput() async throws {
        let seed = testSeed("GeoEnricherTests.body")
        let input = WorkersTests.stream(.canonical, lines: 5_000, sessions: 300, seed: seed)
        let expected = try Self.streamRun(.canonical, input)

        let body = await try Self.enricher(.canonical).enrich(body: input)
        #expect(body.ndjson == expected.output, "seed \(seed)")

        let lines = StreamRun.lines(input)
        let stream = AsyncStream<[UInt8]> { continuation in
            for line in lines { continuation.yield(line) }
            continuation.finish()
        }
        var output: [UInt8] = []
        for try await line in try Self.enricher(.canonical).enriched(stream) {
            if let bytes = line.output { output += bytes + [0x0A] }
        }
        #expect(output == expected.output, "seed \(seed)")
    }

    /// A line is read from the source only when the consumer asks for the next result.
    @Test func theSequenceReadsOnlyWhatIsAskedFor() async throws {
        final class Source: AsyncSequence, AsyncIteratorProtocol, @unchecked Sendable {
            var pulled = 0
            func makeAsyncIterator() -> Source { self }
            func next() async -> [UInt8]? {
                pulled += 1
                return Array(#"{"type":"track","session_id":"a","timestamp":1764237600000}"#.utf8)
            }
        }
        let source = Source()
        var iterator = try Self.enricher(.canonical).enriched(source).makeAsyncIterator()
        for _ in 0..<3 { _ = try await iterator.next() }
        #expect(source.pulled == 3)
    }

    @Test func aDecisionCarriesTheGeoObjectOfItsLine() throws {
        let enricher = try Self.enricher(.canonical)
        let fix = enricher.enrich(line: Array(#"{"type":"location","session_id":"a","timestamp":1764237600000,"latitude":43.6532,"longitude":-79.3832,"accuracy":5}"#.utf8))
        let event = enricher.enrich(line: Array(#"{"type":"track","session_id":"a","timestamp":1764237601500}"#.utf8))
        for line in [fix, event] {
            let output = try #require(line.output)
            let geo = try #require(line.decisions.first?.geoJSON)
            // the line ends `,"geo":<object>}`
            #expect(Array(output.suffix(geo.count + 1).dropLast()) == geo)
            let object = try JSONSerialization.jsonObject(with: Data(geo)) as? [String: Any]
            #expect(object?["country"] as? String == "CA")
        }
        #expect(event.decisions.first?.enrichment == fix.decisions.first?.enrichment)
        if case .attached(let attachment) = event.decisions.first {
            #expect(attachment.ageMilliseconds == 1_500)
        } else {
            Issue.record("the event was not given the session's location: \(event.decisions)")
        }
        let bad = enricher.enrich(line: Array(#"{"type":"track""#.utf8))
        #expect(bad.badReason == .invalidJSON && bad.output == nil && bad.decisions.isEmpty)
    }

    @Test func theCountersMatchTheStatistics() async throws {
        let seed = testSeed("GeoEnricherTests.metrics")
        let metrics = TestMetrics()
        let enricher = try Self.enricher(.canonical, metrics: metrics)
        _ = await enricher.enrich(body: WorkersTests.stream(.canonical, lines: 3_000, sessions: 200, seed: seed))
        let figures = enricher.statistics
        func total(_ label: String, _ dimensions: [(String, String)] = []) throws -> Int {
            Int(try metrics.expectCounter(label, dimensions).totalValue)
        }
        #expect(try total("geo_enrich_lines_total") == figures.lines)
        #expect(try total("geo_enrich_records_total") == figures.records)
        #expect(try total("geo_enrich_events_total") == figures.events)
        #expect(try total("geo_enrich_events_enriched_total") == figures.eventsEnriched)
        #expect(try total("geo_enrich_fixes_accepted_total") == figures.fixesAccepted)
        #expect(try total("geo_enrich_fixes_rejected_total", [("reason", "distance")]) == figures.fixesRejected.distance)
        #expect(try total("geo_enrich_fixes_rejected_total", [("reason", "consent")]) == figures.fixesRejected.consent)
        let errors = try BadLineReason.allCases.reduce(0) { $0 + (try total("geo_enrich_errors_total", [("reason", $1.rawValue)])) }
        #expect(errors == figures.errors && errors > 0)
        // one latency per line read (blank lines too)
        #expect(try metrics.expectTimer("geo_enrich_line_duration_seconds").values.count >= figures.lines)
    }

    /// Above `trace`, a log names a bad line's reason, never its bytes.
    @Test func logsKeepRecordsOutUnlessTracing() throws {
        let secret = "not-for-the-log-7f3a"
        let line = Array(#"{"type":"track","session_id":"\#(secret)","timestamp":"#.utf8)
        for level in [Logger.Level.debug, .trace] {
            let sink = LogSink()
            var logger = Logger(label: "test") { _ in sink }
            logger.logLevel = level
            _ = try Self.enricher(.canonical, logger: logger).enrich(line: line)
            let text = sink.lines.joined(separator: "\n")
            #expect(text.contains("invalid_json"), "\(level): \(text)")
            #expect(text.contains(secret) == (level == .trace), "\(level): \(text)")
        }
    }
}
