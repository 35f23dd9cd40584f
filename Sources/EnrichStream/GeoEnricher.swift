import CoreMetrics
import EnrichEngine
import GeoLookup
import Logging
import RecordCodec
import ThreadSharing

/// Enrichment for a service: a record, a request body or a stream of lines, from any task,
/// with the same output and the same decisions as `geo-enrich enrich` on the same lines.
///
/// The sessions live in one ``LocationEngine`` shared by every call (a lock per shard of
/// sessions, held for one decision), so concurrent requests of different sessions do not wait
/// for each other. A session's records must come in the order they happened: the engine applies
/// them in call order, as the stream applies them in input order.
///
/// The work of a line is a few microseconds of CPU (parse, decision, splice), so
/// ``enrich(line:)`` runs on the calling task, synchronously; ``enrich(body:)`` yields to other
/// tasks every ``linesPerYield`` lines, so a large body does not hold a thread of the
/// cooperative pool for longer than about half a millisecond at a time.
///
/// ```swift
/// let enricher = try GeoEnricher(lookup: LocationLookup(dataDirectory: "data"))
/// let line = enricher.enrich(line: Array(#"{"type":"location","session_id":"s","timestamp":1764237600000,"lat":43.65,"lon":-79.38}"#.utf8))
/// line.output       // the record with its "geo" object spliced in
/// line.decisions    // [.accepted(Enrichment)]
/// ```
public final class GeoEnricher: Sendable {
    /// How records are read and where the enrichment goes.
    public let format: RecordFormat
    /// The engine's rules.
    public let configuration: EngineConfiguration
    /// Whether rejected fixes are written too (with `"rejected":"<reason>"`).
    public let emitRejected: Bool
    /// Lines enriched between two yields of ``enrich(body:)``: about 0.5 ms of work.
    public static let linesPerYield = 256

    private let engine: LocationEngine<StandardEnricher>
    private let lookup: LocationLookup
    /// Processors lent to the calls: a call costs a lock, not the set-up of a processor (its
    /// GEOS context, its renderer's cache).
    private let processors: LendingPool<RecordProcessor<SharedSessions>>
    private let totals = Monitor(EnrichStatistics())
    private let metrics: EnrichMetrics
    private let logger: Logger

    /// - Parameters:
    ///   - lookup: the bundled data (country, postal codes).
    ///   - configuration: the engine's rules.
    ///   - format: how records are read (default: the canonical records).
    ///   - emitRejected: write rejected fixes too.
    ///   - logger: where to log; quiet by default. Bad lines are logged at `debug` with their
    ///     reason, a record's bytes only at `trace`.
    ///   - metrics: where counters and the latency timer go (default: the process's
    ///     `MetricsSystem`; nothing is recorded until it is bootstrapped).
    /// - Throws: ``GeoBridge/GEOSError`` when GEOS cannot make a context.
    public init(lookup: LocationLookup, configuration: EngineConfiguration = EngineConfiguration(),
                format: RecordFormat = .canonical, emitRejected: Bool = false,
                logger: Logger = GeoEnricher.quietLogger, metrics: (any MetricsFactory)? = nil) throws {
        self.lookup = lookup
        self.configuration = configuration
        self.format = format
        self.emitRejected = emitRejected
        self.logger = logger
        self.metrics = EnrichMetrics(factory: metrics ?? MetricsSystem.factory)
        engine = try LocationEngine.standard(configuration: configuration, lookup: lookup)
        processors = LendingPool(idleLimit: max(8, ProcessorCount.active * 4))
    }

    /// A logger that logs nothing: the default, so that a library is quiet unless asked.
    public static let quietLogger = Logger(label: "geo-enrich", factory: { _ in SwiftLogNoOpLogHandler() })

    // MARK: Lines

    /// Enriches one line (without its `\n`), as `enrich` does with each line of a stream.
    ///
    /// Safe to call from any task or thread; returns in microseconds.
    public func enrich<Bytes: Collection<UInt8>>(line: Bytes) -> EnrichedLine {
        let result: RecordProcessor<SharedSessions>.LineResult
        let stopwatch = Stopwatch()
        if let contiguous = line as? [UInt8] {
            result = withProcessor { $0.process(line: contiguous) }
        } else {
            let copy = Array(line)
            result = withProcessor { $0.process(line: copy) }
        }
        let enriched = EnrichedLine(result)
        record(enriched, line: line, nanoseconds: stopwatch.elapsedNanoseconds)
        return enriched
    }

    /// Enriches a request body of NDJSON lines: every line in order, as `enrich` would.
    ///
    /// Yields to other tasks every ``linesPerYield`` lines. A body ends with or without a
    /// final `\n`; `\r\n` line ends are read as the stream reads them (the `\r` is white space).
    public func enrich(body: [UInt8]) async -> EnrichedBody {
        var lines: [EnrichedLine] = []
        var start = 0
        var sinceYield = 0
        while start < body.count {
            let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) ?? body.count
            lines.append(enrich(line: body[start..<end]))
            start = end + 1
            sinceYield += 1
            if sinceYield == Self.linesPerYield {
                sinceYield = 0
                await Task.yield()
            }
        }
        return EnrichedBody(lines: lines)
    }

    /// Enriches each line of `lines` as it is asked for: back-pressure comes free, since a line
    /// is read from `lines` only when the consumer wants the next result.
    public func enriched<Lines: AsyncSequence>(_ lines: Lines) -> EnrichedLines<Lines> where Lines.Element == [UInt8] {
        EnrichedLines(base: lines, enricher: self)
    }

    // MARK: What it has done

    /// The figures so far, as `enrich --stats` writes them.
    public var statistics: EnrichStatistics { totals.withLock { $0 } }

    /// Sessions holding location state.
    public var liveSessions: Int { engine.liveSessions }

    /// The fence set's table when the lookup has fences (rule 11): what a decision's `geo`
    /// object needs to be written with its `geofences` array
    /// (``RecordDecision/geoJSON(geofences:)``).
    public var geofences: GeofenceListTable? { lookup.geofences?.lists }

    // MARK: Inside

    private func withProcessor<R>(_ body: (inout RecordProcessor<SharedSessions>) -> R) -> R {
        processors.withBorrowed(make: makeProcessor, body)
    }

    private func makeProcessor() -> RecordProcessor<SharedSessions> {
        do {
            var processor = try RecordProcessor(configuration: configuration, lookup: lookup, format: format,
                                                emitRejected: emitRejected, collectsAccepted: false,
                                                sessions: SharedSessions(engine: engine))
            processor.collectsDecisions = true
            return processor
        } catch {
            // the engine's enrichers were made in init without error; a GEOS context that cannot
            // be made later is an exhausted process
            fatalError("geo-enrich: cannot make a record processor: \(error)")
        }
    }

    private func record<Bytes: Collection<UInt8>>(_ line: EnrichedLine, line bytes: Bytes, nanoseconds: Int64) {
        if let reason = line.badReason {
            metrics.bad(reason)
            logger.debug("bad line", metadata: ["reason": "\(reason.rawValue)"])
        } else if !line.outcomes.isEmpty {
            metrics.count(line.outcomes)
        }
        if logger.logLevel <= .trace {
            logger.trace("line", metadata: ["line": "\(String(decoding: bytes, as: UTF8.self))"])
        }
        metrics.latency.recordNanoseconds(nanoseconds)
        totals.withLock { totals in
            totals.bytes += bytes.count + 1
            if line.badReason != nil {
                totals.countLine()
                totals.count(.error)
            } else if !line.outcomes.isEmpty {
                totals.countLine()
                for outcome in line.outcomes { totals.count(outcome) }
            }
        }
    }
}

/// One line enriched by ``GeoEnricher``.
public struct EnrichedLine: Sendable, Hashable {
    /// The line as `enrich` writes it, without `\n`: the record with its `geo` spliced in, or
    /// as it came; `nil` when the stream writes nothing for it (a blank or bad line, or a
    /// rejected fix unless rejected fixes are written).
    public var output: [UInt8]?
    /// Why the line is bad (`invalid_json`, `missing_session_id`, …), for a bad line.
    public var badReason: BadLineReason?
    /// Each record's decision, in order (one for a canonical line; an SDK batch's records).
    public var decisions: [RecordDecision]
    /// The figure of the statistics each record added to.
    let outcomes: [LineOutcome]

    init(_ result: RecordProcessor<SharedSessions>.LineResult) {
        output = result.output
        badReason = result.bad
        decisions = result.decisions
        outcomes = result.outcomes
    }
}

/// A request body enriched by ``GeoEnricher``.
public struct EnrichedBody: Sendable, Hashable {
    /// Every line of the body, in order (a blank line has no output and no decisions).
    public var lines: [EnrichedLine]

    /// The output as `enrich` writes it: each written line and its `\n`.
    public var ndjson: [UInt8] {
        var out: [UInt8] = []
        for line in lines {
            if let output = line.output {
                out.append(contentsOf: output)
                out.append(UInt8(ascii: "\n"))
            }
        }
        return out
    }
}

/// The lines of an asynchronous sequence, enriched one by one as they are asked for
/// (``GeoEnricher/enriched(_:)``).
public struct EnrichedLines<Base: AsyncSequence>: AsyncSequence where Base.Element == [UInt8] {
    public typealias Element = EnrichedLine
    let base: Base
    let enricher: GeoEnricher

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let enricher: GeoEnricher

        public mutating func next() async throws -> EnrichedLine? {
            guard let line = try await base.next() else { return nil }
            return enricher.enrich(line: line)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), enricher: enricher)
    }
}

extension EnrichedLines: Sendable where Base: Sendable {}

/// The counters and the timer of a ``GeoEnricher``, named after the statistics' keys.
///
/// - `geo_enrich_lines_total`, `geo_enrich_records_total`, `geo_enrich_events_total`,
///   `geo_enrich_events_enriched_total`, `geo_enrich_fixes_accepted_total`;
/// - `geo_enrich_fixes_rejected_total` with `reason` = distance, stale, accuracy, consent;
/// - `geo_enrich_errors_total` with `reason` = the bad-line code;
/// - `geo_enrich_line_duration_seconds`, a timer of each line's enrichment.
struct EnrichMetrics: Sendable {
    let lines: Counter
    let records: Counter
    let events: Counter
    let eventsEnriched: Counter
    let fixesAccepted: Counter
    let rejected: [RejectReason: Counter]
    let errors: [BadLineReason: Counter]
    let latency: CoreMetrics.Timer

    init(factory: any MetricsFactory) {
        func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        lines = counter("geo_enrich_lines_total")
        records = counter("geo_enrich_records_total")
        events = counter("geo_enrich_events_total")
        eventsEnriched = counter("geo_enrich_events_enriched_total")
        fixesAccepted = counter("geo_enrich_fixes_accepted_total")
        rejected = Dictionary(uniqueKeysWithValues: RejectReason.allCases.map {
            ($0, counter("geo_enrich_fixes_rejected_total", [("reason", $0.rawValue)]))
        })
        errors = Dictionary(uniqueKeysWithValues: BadLineReason.allCases.map {
            ($0, counter("geo_enrich_errors_total", [("reason", $0.rawValue)]))
        })
        latency = CoreMetrics.Timer(label: "geo_enrich_line_duration_seconds", dimensions: [],
                                    preferredDisplayUnit: .seconds, factory: factory)
    }

    func bad(_ reason: BadLineReason) {
        lines.increment()
        records.increment()
        errors[reason]?.increment()
    }

    func count(_ outcomes: [LineOutcome]) {
        lines.increment()
        for outcome in outcomes {
            switch outcome {
            case .blank, .records, .error: continue
            case .event: events.increment()
            case .eventEnriched: events.increment(); eventsEnriched.increment()
            case .fixAccepted: fixesAccepted.increment()
            case .rejectedDistance: rejected[.distance]?.increment()
            case .rejectedStale: rejected[.stale]?.increment()
            case .rejectedAccuracy: rejected[.accuracy]?.increment()
            case .rejectedConsent: rejected[.consent]?.increment()
            }
            records.increment()
        }
    }
}
