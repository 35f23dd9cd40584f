import Dispatch
import EnrichEngine
import GeoLookup
import RecordCodec

/// Parses and decides ``LineBatch``es on all cores, keeping each session's records in input order.
///
/// Two parallel steps a batch:
/// 1. **parse**: the lines are cut into one contiguous range per worker; each line becomes a
///    ``ReadyRecord``, a bad line's reason, or a blank.
/// 2. **decide**: sessions are partitioned by the hash of their id, one partition per worker,
///    each with its own ``SessionTable`` (and GEOS context): every worker walks the whole batch
///    in order and takes its own sessions' records, so each session sees its records in input
///    order without a lock. Accepted fixes are enriched there, and every output line is written
///    into the partition's buffer; the ``BatchWriter`` then copies them out in input order.
final class BatchProcessor: @unchecked Sendable {
    /// One worker's share of the sessions; only that worker touches it during a batch.
    final class Partition {
        var table: SessionTable<StandardEnricher>
        var renderer: GeoRenderer
        /// The batch's output bytes of this partition's lines, while it is being decided.
        var output: [UInt8] = []
        /// The batch's results of this partition's lines, while it is being decided.
        var results: [DecidedLine] = []
        init(table: SessionTable<StandardEnricher>, format: RecordFormat) {
            self.table = table
            renderer = GeoRenderer(format: format)
        }
    }

    let partitions: [Partition]
    private let pool: WorkerPool
    private let parser = RecordParser()
    private let emitRejected: Bool
    private let format: RecordFormat

    /// - Parameters:
    ///   - configuration: the engine's rules.
    ///   - lookup: the bundled data.
    ///   - workers: partitions and parse ranges (the number of cores).
    ///   - emitRejected: write rejected fixes too, marked with their reason.
    ///   - format: how records are read and where the enrichment goes.
    /// - Throws: ``GEOSError`` when GEOS cannot make a context.
    init(configuration: EngineConfiguration, lookup: LocationLookup, workers: Int, emitRejected: Bool,
         format: RecordFormat) throws {
        var partitions: [Partition] = []
        for _ in 0..<max(1, workers) {
            let enricher = try StandardEnricher(lookup: lookup, resolution: configuration.h3Resolution)
            partitions.append(Partition(table: SessionTable(configuration: configuration, enricher: enricher),
                                        format: format))
        }
        self.partitions = partitions
        pool = WorkerPool(count: partitions.count)
        self.emitRejected = emitRejected
        self.format = format
    }

    var workers: Int { partitions.count }

    /// Sessions holding location state, over all partitions.
    var liveSessions: Int { partitions.reduce(0) { $0 + $1.table.liveSessions } }

    /// Parses and decides every line of `batch`.
    func process(_ batch: LineBatch) {
        let n = batch.lines.count
        batch.records = Array(repeating: nil, count: n)
        batch.badReasons = Array(repeating: nil, count: n)
        batch.outcomes = Array(repeating: .blank, count: n)
        batch.routes = Array(repeating: 0, count: n)
        for p in partitions.indices {
            swap(&partitions[p].output, &batch.partitionBytes[p])
            swap(&partitions[p].results, &batch.partitionResults[p])
        }
        defer {
            for p in partitions.indices {
                swap(&partitions[p].output, &batch.partitionBytes[p])
                swap(&partitions[p].results, &batch.partitionResults[p])
            }
        }
        let w = workers
        // the workers share the batch through these pointers: each writes only its own lines
        // (parse) or its own sessions' lines (decide), and no array is resized meanwhile
        batch.lines.withUnsafeBufferPointer { lines in
        batch.records.withUnsafeMutableBufferPointer { records in
        batch.badReasons.withUnsafeMutableBufferPointer { reasons in
        batch.outcomes.withUnsafeMutableBufferPointer { outcomes in
        batch.routes.withUnsafeMutableBufferPointer { routes in
            let view = BatchView(bytes: UnsafePointer(batch.storage.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                                 lines: lines, records: records, reasons: reasons, outcomes: outcomes,
                                 routes: routes)
            if w == 1 || n < 256 {
                parse(view, 0..<n)
                for p in 0..<w { decide(view, partition: p) }
                return
            }
            pool.run { k in self.parse(view, (n * k / w)..<(n * (k + 1) / w)) }
            pool.run { p in self.decide(view, partition: p) }
        }}}}}
    }

    /// Step 1 for `range` of the batch's lines.
    private func parse(_ view: BatchView, _ range: Range<Int>) {
        for i in range {
            let span = view.lines[i]
            if span.isCut {
                view.reasons[i] = .lineTooLong
                view.outcomes[i] = .error
                continue
            }
            let line = view.line(i)
            if RecordParser.isBlank(line) { continue }
            switch format.parse(line, parser) {
            case .record(let record):
                // the parser guarantees a non-empty id
                let session = SessionID(record.sessionID)!
                view.records[i] = ReadyRecord(record: record, session: session)
                view.outcomes[i] = .record
                view.routes[i] = UInt8(truncatingIfNeeded: partition(of: session))
            case .bad(let reason):
                view.reasons[i] = reason
                view.outcomes[i] = .error
            }
        }
    }

    @inline(__always)
    private func partition(of session: SessionID) -> Int {
        Int(truncatingIfNeeded: (session.stableHash >> 32) % UInt64(workers))
    }

    /// Step 2: partition `p`'s records of the batch, in order. The partition writes only its own
    /// buffers (no two cores write the same cache line).
    private func decide(_ view: BatchView, partition p: Int) {
        let part = partitions[p]
        var out = part.output
        var results = part.results
        part.output = []
        part.results = []
        defer {
            part.output = out
            part.results = results
        }
        let route = UInt8(truncatingIfNeeded: p)
        for i in view.records.indices where view.routes[i] == route && view.outcomes[i] == .record {
            guard let ready = view.records[i] else { continue }
            let record = ready.record
            let line = view.line(i)
            let start = out.count
            let outcome: LineOutcome
            if let parsed = record.fix {
                let fix = Self.fix(parsed, at: record.timestamp)
                switch part.table.ingest(fix, session: ready.session, consent: record.consent?.engineConsent) {
                case .accepted(let enrichment):
                    outcome = .fixAccepted
                    part.renderer.write(line: line, record: record, session: ready.session,
                                        enrichment: enrichment, age: 0, to: &out)
                case .rejected(let reason):
                    outcome = LineOutcome(reason)
                    guard emitRejected else {
                        results.append(DecidedLine(outcome: outcome, output: .none))
                        continue
                    }
                    part.renderer.writeRejected(line: line, record: record, reason: reason, to: &out)
                }
            } else {
                let time = Timestamp(milliseconds: record.timestamp)
                if let attachment = part.table.attach(session: ready.session, at: time,
                                                      consent: record.consent?.engineConsent) {
                    outcome = .eventEnriched
                    part.renderer.write(line: line, record: record, session: ready.session,
                                        enrichment: attachment.enrichment, age: attachment.ageMilliseconds,
                                        to: &out)
                } else {
                    outcome = .event
                    guard part.renderer.writesPlainEvents else {
                        results.append(DecidedLine(outcome: outcome, output: .input))
                        continue
                    }
                    part.renderer.writePlain(line: line, record: record, to: &out)
                }
            }
            results.append(DecidedLine(outcome: outcome, output: .written, start: Int32(start),
                                       count: Int32(out.count - start)))
        }
    }

    /// The engine's fix for a parsed one; the tag keeps which numbers were JSON integers.
    @inline(__always)
    static func fix(_ parsed: ParsedFix, at milliseconds: Int64) -> Fix {
        var tag: UInt8 = 0
        if case .integer = parsed.latitude { tag |= NumberForms.latitudeInteger }
        if case .integer = parsed.longitude { tag |= NumberForms.longitudeInteger }
        switch parsed.accuracy {
        case .integer?, .unsignedInteger?: tag |= NumberForms.accuracyInteger
        default: break
        }
        do {
            return try Fix(latitude: parsed.latitude.doubleValue, longitude: parsed.longitude.doubleValue,
                           accuracy: parsed.accuracy?.doubleValue, timestamp: Timestamp(milliseconds: milliseconds),
                           tag: tag)
        } catch {
            preconditionFailure("RecordParser checks coordinates and accuracy as Fix does")
        }
    }
}

/// The bits of ``Fix/tag`` the stream uses: which of a fix's numbers were written as JSON
/// integers, so that its `geo` writes them back as integers (`49`, not `49.0`) on every line.
enum NumberForms {
    static let latitudeInteger: UInt8 = 1
    static let longitudeInteger: UInt8 = 2
    static let accuracyInteger: UInt8 = 4
}

extension RecordConsent {
    /// The engine's consent state of the same name.
    var engineConsent: Consent {
        switch self {
        case .optIn: .optIn
        case .optOut: .optOut
        case .notSet: .notSet
        }
    }
}

/// A batch's arrays as pointers, shared by the workers of one step (see ``BatchProcessor``).
struct BatchView: @unchecked Sendable {
    let bytes: UnsafePointer<UInt8>
    let lines: UnsafeBufferPointer<LineSpan>
    let records: UnsafeMutableBufferPointer<ReadyRecord?>
    let reasons: UnsafeMutableBufferPointer<BadLineReason?>
    let outcomes: UnsafeMutableBufferPointer<LineOutcome>
    let routes: UnsafeMutableBufferPointer<UInt8>

    @inline(__always)
    func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let span = lines[i]
        return UnsafeBufferPointer(start: bytes + span.start, count: span.count)
    }
}
