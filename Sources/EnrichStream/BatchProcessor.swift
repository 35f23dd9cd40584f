import Dispatch
import EnrichEngine
import GeoLookup
import RecordCodec
import Synchronization

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
        /// What the worker mutates record by record; taken out into a local variable for the
        /// batch, so that the loop pays no dynamic exclusivity check on a class property.
        struct Work {
            var table: SessionTable<StandardEnricher>
            var renderer: GeoRenderer
            /// For the EQWorks format: the enrichment of a record's own location when the engine
            /// rejected its fix (the record still describes itself).
            var ownEnricher: StandardEnricher
            /// The batch's outcomes of SDK lines' records, while it is being decided.
            var outcomes: [LineOutcome] = []
            /// The batch's accepted fixes, when pushing.
            var pushes: [PushItem] = []
        }

        var work: Work?
        /// The batch's output bytes of this partition's lines, while it is being decided.
        var output: [UInt8] = []
        /// The batch's results of this partition's lines, while it is being decided.
        var results: [DecidedLine] = []

        init(table: SessionTable<StandardEnricher>, ownEnricher: StandardEnricher, format: RecordFormat) {
            work = Work(table: table, renderer: GeoRenderer(format: format), ownEnricher: ownEnricher)
        }
    }

    let partitions: [Partition]
    private let pool: WorkerPool
    private let parser = RecordParser()
    private let sdkParser: SDKRecordParser?
    /// Workers for parsing (the partitions decide; one when the format mixes sessions in a line).
    private let parseWorkers: Int
    /// Session partitions per worker thread.
    static let partitionsPerWorker = 4
    /// Ranges of lines per worker thread when parsing.
    static let parseChunksPerWorker = 8
    private let emitRejected: Bool
    /// Collect accepted fixes for the push.
    private let pushing: Bool
    private let format: RecordFormat

    /// - Parameters:
    ///   - configuration: the engine's rules.
    ///   - lookup: the bundled data.
    ///   - workers: partitions and parse ranges (the number of cores).
    ///   - emitRejected: write rejected fixes too, marked with their reason.
    ///   - format: how records are read and where the enrichment goes.
    /// - Throws: ``GEOSError`` when GEOS cannot make a context.
    init(configuration: EngineConfiguration, lookup: LocationLookup, workers: Int, emitRejected: Bool,
         format: RecordFormat, pushing: Bool = false) throws {
        self.pushing = pushing
        var partitions: [Partition] = []
        // several partitions per worker, claimed as they come: a worker that loses its core for a
        // while (to the reader or the writer) takes fewer, and nobody waits long at the barrier
        for _ in 0..<(format.mixesSessionsInALine ? 1 : min(255, max(1, workers) * Self.partitionsPerWorker)) {
            let enricher = try StandardEnricher(lookup: lookup, configuration: configuration)
            let own = try StandardEnricher(lookup: lookup, configuration: configuration)
            partitions.append(Partition(table: SessionTable(configuration: configuration, enricher: enricher),
                                        ownEnricher: own, format: format))
        }
        self.partitions = partitions
        parseWorkers = max(1, workers)
        pool = WorkerPool(count: parseWorkers)
        sdkParser = format.sdk.map { SDKRecordParser(format: $0) }
        self.emitRejected = emitRejected
        self.format = format
    }

    var workers: Int { partitions.count }

    /// Sessions holding location state, over all partitions.
    var liveSessions: Int { partitions.reduce(0) { $0 + ($1.work?.table.liveSessions ?? 0) } }

    /// Parses and decides every line of `batch`.
    func process(_ batch: LineBatch) {
        let n = batch.lines.count
        // in the batch's own storage (kept by `reset()`): a new array each batch was a fresh
        // mapping, page-faulted in line by line
        batch.records.refill(nil, count: n)
        batch.badReasons.refill(nil, count: n)
        batch.outcomes.refill(.blank, count: n)
        batch.routes.refill(0, count: n)
        for p in partitions.indices {
            swap(&partitions[p].output, &batch.partitionBytes[p])
            swap(&partitions[p].results, &batch.partitionResults[p])
            swap(&partitions[p].work!.outcomes, &batch.partitionOutcomes[p])
            swap(&partitions[p].work!.pushes, &batch.partitionPushes[p])
        }
        defer {
            for p in partitions.indices {
                swap(&partitions[p].output, &batch.partitionBytes[p])
                swap(&partitions[p].results, &batch.partitionResults[p])
                swap(&partitions[p].work!.outcomes, &batch.partitionOutcomes[p])
                swap(&partitions[p].work!.pushes, &batch.partitionPushes[p])
            }
        }
        let w = parseWorkers
        let partitionCount = workers
        // the workers share the batch through these pointers: each writes only its own lines
        // (parse) or its own sessions' lines (decide), and no array is resized meanwhile
        batch.lines.withUnsafeBufferPointer { lines in
        batch.records.withUnsafeMutableBufferPointer { records in
        batch.badReasons.withUnsafeMutableBufferPointer { reasons in
        batch.outcomes.withUnsafeMutableBufferPointer { outcomes in
        batch.routes.withUnsafeMutableBufferPointer { routes in
            let view = BatchView(bytes: batch.base,
                                 lines: lines, records: records, reasons: reasons, outcomes: outcomes,
                                 routes: routes)
            if w == 1 || n < 256 {
                parse(view, 0..<n)
            } else {
                let chunks = w * Self.parseChunksPerWorker
                let claims = Claims()
                pool.run { _ in
                    while let c = claims.next(below: chunks) {
                        self.parse(view, (n * c / chunks)..<(n * (c + 1) / chunks))
                    }
                }
            }
            if partitionCount == 1 || n < 256 {
                for p in 0..<partitionCount { decide(view, partition: p) }
            } else {
                let claims = Claims()
                pool.run { _ in
                    while let p = claims.next(below: partitionCount) { self.decide(view, partition: p) }
                }
            }
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
            if let sdkParser {
                switch sdkParser.parse(line) {
                case .records(let records):
                    let sessions = records.map { SessionID($0.record.sessionID)! }
                    view.records[i] = .sdk(records, sessions)
                    view.outcomes[i] = .records
                    view.routes[i] = sessions.first.map { UInt8(truncatingIfNeeded: partition(of: $0)) } ?? 0
                case .bad(let reason):
                    view.reasons[i] = reason
                    view.outcomes[i] = .error
                }
                continue
            }
            switch parser.parse(line) {
            case .record(let record):
                // the parser guarantees a non-empty id
                let session = SessionID(record.sessionID)!
                view.records[i] = .canonical(record, session)
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
        var work = part.work.take()!
        part.output = []
        part.results = []
        defer {
            part.output = out
            part.results = results
            part.work = work
        }
        let route = UInt8(truncatingIfNeeded: p)
        for i in view.records.indices where view.routes[i] == route {
            let ready: (record: ParsedRecord, session: SessionID)
            switch view.records[i] {
            case .canonical(let record, let session)?:
                ready = (record, session)
            case .sdk(let records, let sessions)?:
                results.append(decideSDK(view.line(i), Int32(i), records, sessions, &work, &out))
                continue
            case nil:
                continue
            }
            let record = ready.record
            let line = view.line(i)
            let start = out.count
            let outcome: LineOutcome
            if let parsed = record.fix {
                let fix = Self.fix(parsed, at: record.timestamp)
                switch work.table.ingest(fix, session: ready.session, consent: record.consent?.engineConsent) {
                case .accepted(let enrichment):
                    outcome = .fixAccepted
                    work.renderer.write(line: line, record: record, session: ready.session,
                                        enrichment: enrichment, age: 0, to: &out)
                    if pushing {
                        work.pushes.append(PushItem(line: Int32(i), session: ready.session.rawValue,
                                                    body: PushBody.json(latitude: parsed.latitude, longitude: parsed.longitude,
                                                                        accuracy: parsed.accuracy)))
                    }
                case .rejected(let reason):
                    outcome = LineOutcome(reason)
                    guard emitRejected else {
                        results.append(DecidedLine(outcome: outcome, output: .none))
                        continue
                    }
                    work.renderer.writeRejected(line: line, record: record, reason: reason, to: &out)
                }
            } else {
                let time = Timestamp(milliseconds: record.timestamp)
                if let attachment = work.table.attach(session: ready.session, at: time,
                                                      consent: record.consent?.engineConsent) {
                    outcome = .eventEnriched
                    work.renderer.write(line: line, record: record, session: ready.session,
                                        enrichment: attachment.enrichment, age: attachment.ageMilliseconds,
                                        to: &out)
                } else {
                    outcome = .event
                    guard work.renderer.writesPlainEvents else {
                        results.append(DecidedLine(outcome: outcome, output: .input))
                        continue
                    }
                    work.renderer.writePlain(line: line, record: record, to: &out)
                }
            }
            results.append(DecidedLine(outcome: outcome, output: .written, start: Int32(start),
                                       count: Int32(out.count - start)))
        }
    }

    /// Step 2 for an SDK line: each record through the engine in order, then the line written
    /// with their enrichment placed.
    private func decideSDK(_ line: UnsafeBufferPointer<UInt8>, _ index: Int32, _ records: [SDKRecord],
                           _ sessions: [SessionID], _ part: inout Partition.Work, _ out: inout [UInt8]) -> DecidedLine {
        let first = part.outcomes.count
        var geos: [GeoFields?] = []
        var written = format == .eqworks  // EQWorks records are events that carry their own fix
        for (sdk, session) in zip(records, sessions) {
            let record = sdk.record
            let consent = record.consent?.engineConsent
            if let parsed = record.fix {
                let fix = Self.fix(parsed, at: record.timestamp)
                switch part.table.ingest(fix, session: session, consent: consent) {
                case .accepted(let enrichment):
                    part.outcomes.append(.fixAccepted)
                    geos.append(GeoRenderer.fields(enrichment, age: 0))
                    written = true
                    if pushing {
                        part.pushes.append(PushItem(line: index, session: session.rawValue,
                                                    body: PushBody.json(latitude: parsed.latitude, longitude: parsed.longitude,
                                                                        accuracy: parsed.accuracy)))
                    }
                case .rejected(let reason):
                    part.outcomes.append(LineOutcome(reason))
                    if format == .eqworks && reason != .consent {
                        geos.append(ownFields(parsed, record.timestamp, &part))
                    } else {
                        geos.append(nil)
                        written = written || emitRejected
                    }
                }
            } else {
                let time = Timestamp(milliseconds: record.timestamp)
                if let attachment = part.table.attach(session: session, at: time, consent: consent) {
                    part.outcomes.append(.eventEnriched)
                    geos.append(GeoRenderer.fields(attachment.enrichment, age: attachment.ageMilliseconds))
                } else {
                    part.outcomes.append(.event)
                    geos.append(nil)
                }
                written = true
            }
        }
        var decided = DecidedLine(outcome: .records, output: .none, firstOutcome: Int32(first),
                                  outcomeCount: Int32(part.outcomes.count - first))
        guard written else { return decided }
        if geos.allSatisfy({ $0 == nil }) {
            decided.output = .input
            return decided
        }
        let start = out.count
        SDKSplice.append(line: line, records: records, geos: geos, to: &out)
        decided.output = .written
        decided.start = Int32(start)
        decided.count = Int32(out.count - start)
        return decided
    }

    /// The enrichment of a record's own position, for an EQWorks record whose fix the engine
    /// rejected.
    private func ownFields(_ parsed: ParsedFix, _ timestamp: Int64, _ part: inout Partition.Work) -> GeoFields {
        let (cell, country, postal) = part.ownEnricher.enrich(latitude: parsed.latitude.doubleValue,
                                                              longitude: parsed.longitude.doubleValue)
        return GeoFields(latitude: parsed.latitude, longitude: parsed.longitude, accuracy: parsed.accuracy,
                         fixTimestamp: timestamp, ageMilliseconds: 0, h3: cell.rawValue,
                         country: country?.description,
                         postal: postal.map { PostalFields(code: $0.code.formatted, fsa: $0.fsa,
                                                           distanceMetres: $0.distanceMetres) })
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

/// Hands out the indices 0, 1, 2, … once each to whichever worker asks first.
final class Claims: Sendable {
    private let counter = Atomic<Int>(0)

    /// The next unclaimed index below `limit`, or `nil` when all are taken.
    func next(below limit: Int) -> Int? {
        let i = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return i < limit ? i : nil
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
