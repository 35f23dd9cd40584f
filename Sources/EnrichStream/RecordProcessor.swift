import EnrichEngine
import GeoLookup
import GeoModel
import RecordCodec

/// The whole of what the stream does with one line, on one thread: the line checked, each of its
/// records decided by the engine, the output line written with the enrichment where the format
/// puts it, and the accepted fixes handed on.
///
/// There is one decision path for every format, ``decide(_:session:)``; what differs per
/// format once a record is decided is said by ``RecordFormat`` (where the enrichment goes,
/// whether a rejected fix still describes its record, whether every line is written).
///
/// A processor is used by one thread at a time. Where its sessions live is its `Sessions`: the
/// stream's processors each own a ``SessionTable`` (one per partition of the sessions, see
/// ``ParallelRunner``, so no lock per line); a service's processors share one ``LocationEngine``
/// (``SharedSessions``, a lock per shard of sessions), so that any task may take any processor
/// from ``GeoEnricher``'s pool. A test or a single-threaded caller runs one directly with
/// ``process(line:)``.
struct RecordProcessor<Sessions: SessionDecisions> {
    let format: RecordFormat
    /// Write rejected fixes too (canonical records get `"rejected":"<reason>"`).
    let emitRejected: Bool
    /// Collect accepted fixes in ``ProcessorOutput/accepted`` (for the push).
    let collectsAccepted: Bool
    /// Keep each record's decision in ``ProcessorOutput/decisions`` (a service answers with
    /// them; the stream does not).
    var collectsDecisions = false
    private let reader: LineReader
    private var sessions: Sessions
    private var renderer: GeoRenderer
    /// The fence set's table, with fences (rule 11): what the `geofences` arrays are written from.
    let geofences: GeofenceListTable?
    /// The transitions of the record being decided, before they are handed on with their line.
    private var transitions: [GeofenceTransition] = []
    /// The enrichment of a record's own position, for formats whose rejected fixes still
    /// describe their record (``RecordFormat/rejectedFixDescribesItself``).
    private var ownEnricher: StandardEnricher

    /// - Parameters:
    ///   - configuration: the engine's rules.
    ///   - lookup: the bundled data.
    ///   - format: how records are read and where the enrichment goes.
    ///   - emitRejected: write rejected fixes too.
    ///   - collectsAccepted: keep each accepted fix for the push.
    ///   - sessions: where the sessions live.
    ///   - renderCacheSlots: the slots of the cache of rendered `geo` objects (a power of two,
    ///     ``GeoRenderer``).
    /// - Throws: ``GeoBridge/GEOSError`` when GEOS cannot make a context.
    init(configuration: EngineConfiguration, lookup: LocationLookup, format: RecordFormat,
         emitRejected: Bool, collectsAccepted: Bool, sessions: Sessions,
         renderCacheSlots: Int = GeoRenderer.defaultCacheSlots) throws {
        self.format = format
        self.emitRejected = emitRejected
        self.collectsAccepted = collectsAccepted
        reader = LineReader(format: format)
        self.sessions = sessions
        geofences = lookup.geofences?.lists
        renderer = GeoRenderer(geofences: geofences, cacheSlots: renderCacheSlots)
        ownEnricher = try StandardEnricher(lookup: lookup, configuration: configuration)
    }

    /// Sessions holding location state.
    var liveSessions: Int { sessions.liveSessions }

    /// A hint that records of these sessions come soon: the session table's index slot and the
    /// render cache's slot of `later`, the session's state and its cached rendering of `sooner`
    /// (``SessionTable/prefetch(slotOf:stateOf:)``, ``GeoRenderer/prefetchSlot(ofHash:)``,
    /// ``GeoRenderer/prefetchRendering(ofHash:)``).
    @inline(__always)
    mutating func prefetch(slotOf later: UInt64, stateOf sooner: UInt64) {
        sessions.prefetch(slotOf: later, stateOf: sooner)
        renderer.prefetchSlot(ofHash: later)
        renderer.prefetchRendering(ofHash: sooner)
    }

    // MARK: The decision

    /// Decides one record, whatever its format: its consent, then its fix through the engine's
    /// rules or, for an event, the session's live location. An accepted fix's geofence
    /// transitions are left in ``transitions`` (see ``handOnTransitions(line:to:)``).
    mutating func decide(_ record: ParsedRecord, session: SessionID) -> RecordDecision {
        decide(position: record.fix?.position, timestamp: record.timestamp, consent: record.consent, session: session)
    }

    /// ``decide(_:session:)`` of a record's fields (plain values: the record itself, with its
    /// id's `String`, is not copied to pass them).
    @inline(__always)
    mutating func decide(position: ReportedPosition?, timestamp: Int64, consent: Consent?, session: SessionID) -> RecordDecision {
        if let position {
            switch sessions.ingest(Self.fix(position, at: timestamp), session: session, consent: consent,
                                   transitions: &transitions) {
            case .accepted(let enrichment): return .accepted(enrichment)
            case .rejected(let reason): return .rejected(reason)
            }
        }
        if let attachment = sessions.attach(session: session, at: Timestamp(milliseconds: timestamp),
                                         consent: consent) {
            return .attached(attachment)
        }
        return .unattached
    }

    /// Moves the transitions of the records just decided into `out`, with their line.
    @inline(__always)
    private mutating func handOnTransitions(line index: Int32, to out: inout ProcessorOutput) {
        guard !transitions.isEmpty else { return }
        for transition in transitions { out.transitions.append(LineTransition(line: index, transition: transition)) }
        transitions.removeAll(keepingCapacity: true)
    }

    // MARK: Lines

    /// Decides a checked line's records and appends what it gives to `out`: one
    /// ``DecidedLine`` for a line with records, nothing for a blank or bad line (the writer
    /// reports bad lines itself).
    ///
    /// - Parameters:
    ///   - checked: the line as ``LineReader`` read it.
    ///   - line: the line's bytes.
    ///   - index: the line's place in its batch (for the accepted fixes).
    ///   - out: the partition's output of the batch.
    mutating func process(_ checked: CheckedLine, line: UnsafeBufferPointer<UInt8>, index: Int32,
                          into out: inout ProcessorOutput) {
        switch checked {
        case .blank, .bad:
            return
        case .record(let read):
            withUnsafePointer(to: read) { process($0, line: line, index: index, into: &out) }
        case .records(let payload):
            withUnsafePointer(to: payload) { process($0, line: line, index: index, into: &out) }
        }
    }

    /// ``process(_:line:index:into:)`` of a canonical record, read where the runner's chunk
    /// keeps it (``ParsedChunk/records``). Its fields are passed, not the record: a record
    /// passed from memory to a mutating method is copied first, its id's `String` retained and
    /// released (85 instructions a line of the benchmark stream, callgrind).
    @inline(__always)
    mutating func process(_ read: UnsafePointer<SessionRecord>, line: UnsafeBufferPointer<UInt8>, index: Int32,
                          into out: inout ProcessorOutput) {
        out.lines.append(processRecord(position: read.pointee.position, timestamp: read.pointee.timestamp,
                                       consent: read.pointee.consent,
                                       closingBrace: Int(read.pointee.closingBrace),
                                       session: read.pointee.session, line, index, &out))
    }

    /// ``process(_:line:index:into:)`` of an SDK payload, read where the runner's chunk keeps it.
    mutating func process(_ payload: UnsafePointer<SDKPayload>, line: UnsafeBufferPointer<UInt8>, index: Int32,
                          into out: inout ProcessorOutput) {
        out.lines.append(processRecords(payload.pointee.records, payload.pointee.sessions, line, index, &out))
    }

    /// A canonical line: `,"geo":{…}` spliced before its final `}`.
    @inline(__always)
    private mutating func processRecord(position: ReportedPosition?, timestamp: Int64, consent: Consent?, closingBrace: Int,
                                        session: SessionID, _ line: UnsafeBufferPointer<UInt8>,
                                        _ index: Int32, _ out: inout ProcessorOutput) -> DecidedLine {
        let decision = decide(position: position, timestamp: timestamp, consent: consent, session: session)
        if collectsDecisions { out.decisions.append(decision) }
        handOnTransitions(line: index, to: &out)
        let start = out.bytes.count
        switch decision {
        case .accepted(let enrichment):
            renderer.writeTail(session: session, enrichment: enrichment, age: 0, to: &out.bytes)
            if collectsAccepted { out.accepted.append(AcceptedFix(line: index, session: session, enrichment: enrichment)) }
        case .rejected(let reason):
            guard emitRejected else { return DecidedLine(outcome: decision.outcome, output: .none) }
            GeoRenderer.writeRejectedTail(reason: reason, to: &out.bytes)
        case .attached(let attachment):
            renderer.writeTail(session: session, enrichment: attachment.enrichment,
                               age: attachment.ageMilliseconds, to: &out.bytes)
        case .unattached:
            return DecidedLine(outcome: decision.outcome, output: .input)
        }
        // the tail's writers end it with the line's `\n`
        let count = out.bytes.count - start - 1
        return DecidedLine(outcome: decision.outcome, output: .written, prefix: Int32(closingBrace),
                           start: Int32(start), count: Int32(count))
    }

    /// An SDK payload line: each record decided in order, then the line written with their
    /// enrichment placed where ``SDKRecordParser`` found room for it.
    private mutating func processRecords(_ records: [SDKRecord], _ sessions: [SessionID], _ line: UnsafeBufferPointer<UInt8>,
                                         _ index: Int32, _ out: inout ProcessorOutput) -> DecidedLine {
        let first = out.recordOutcomes.count
        var geos: [(geo: Enrichment, ageMilliseconds: Int64)?] = []
        geos.reserveCapacity(records.count)
        var written = format.writesEveryLine
        for (sdk, session) in zip(records, sessions) {
            let record = sdk.record
            let decision = decide(record, session: session)
            handOnTransitions(line: index, to: &out)
            out.recordOutcomes.append(decision.outcome)
            if collectsDecisions { out.decisions.append(decision) }
            switch decision {
            case .accepted(let enrichment):
                geos.append((enrichment, 0))
                written = true
                if collectsAccepted { out.accepted.append(AcceptedFix(line: index, session: session, enrichment: enrichment)) }
            case .rejected(let reason):
                if format.rejectedFixDescribesItself && reason != .consent {
                    geos.append((ownEnrichment(record.fix!, at: record.timestamp), 0))
                } else {
                    geos.append(nil)
                    written = written || emitRejected
                }
            case .attached(let attachment):
                geos.append((attachment.enrichment, attachment.ageMilliseconds))
                written = true
            case .unattached:
                geos.append(nil)
                written = true
            }
        }
        var decided = DecidedLine(outcome: .records, output: .none, firstOutcome: Int32(first),
                                  outcomeCount: Int32(out.recordOutcomes.count - first))
        guard written else { return decided }
        if geos.allSatisfy({ $0 == nil }) {
            decided.output = .input
            return decided
        }
        let start = out.bytes.count
        SDKSplice.append(line: line, records: records, geos: geos, geofences: geofences, to: &out.bytes)
        decided.output = .written
        decided.start = Int32(start)
        decided.count = Int32(out.bytes.count - start)
        out.bytes.append(0x0A)
        return decided
    }

    /// The enrichment of a record's own position (see ``RecordFormat/rejectedFixDescribesItself``).
    private mutating func ownEnrichment(_ parsed: ParsedFix, at timestamp: Int64) -> Enrichment {
        ownEnricher.enrich(parsed.position, at: Timestamp(milliseconds: timestamp))
    }

    /// The engine's fix for a parsed one, its numbers as the record wrote them.
    @inline(__always)
    static func fix(_ position: ReportedPosition, at milliseconds: Int64) -> Fix {
        do {
            return try Fix(position: position, timestamp: Timestamp(milliseconds: milliseconds))
        } catch {
            preconditionFailure("RecordParser checks coordinates, accuracy and the time as Fix does")
        }
    }

    // MARK: One line alone

    /// What became of one line processed alone (``process(line:)``).
    struct LineResult {
        /// Why the line is bad, for a bad line.
        var bad: BadLineReason?
        /// Each record's outcome, in order (none for a blank or bad line).
        var outcomes: [LineOutcome]
        /// The output line without its `\n`; `nil` when the line writes nothing.
        var output: [UInt8]?
        /// The accepted fixes, in order.
        var accepted: [AcceptedFix]
        /// Each record's decision, in order, when the processor ``collectsDecisions``.
        var decisions: [RecordDecision] = []
        /// The geofence transitions of its accepted fixes, in order.
        var transitions: [GeofenceTransition] = []
    }

    /// Reads, decides and writes one line, as the stream does for each of its lines.
    ///
    /// - Parameter line: the line's bytes, without its `\n`.
    /// - Returns: what became of it.
    mutating func process(line: [UInt8]) -> LineResult {
        line.withUnsafeBufferPointer { bytes in
            let tooLong = bytes.count > RecordParser.maximumLineLength
            let cut = tooLong ? UnsafeBufferPointer(rebasing: bytes[..<RecordParser.maximumLineLength]) : bytes
            let checked = tooLong && !RecordParser.isBlank(bytes) ? .bad(.lineTooLong) : reader.read(cut)
            if case .bad(let reason) = checked { return LineResult(bad: reason, outcomes: [], output: nil, accepted: []) }
            var out = ProcessorOutput()
            process(checked, line: cut, index: 0, into: &out)
            guard let decided = out.lines.first else { return LineResult(outcomes: [], output: nil, accepted: []) }
            let outcomes = decided.outcome == .records
                ? Array(out.recordOutcomes[Int(decided.firstOutcome)..<Int(decided.firstOutcome + decided.outcomeCount)])
                : [decided.outcome]
            let output: [UInt8]? = switch decided.output {
            case .none: nil
            case .input: Array(cut)
            case .written: Array(cut[..<Int(decided.prefix)]) + out.bytes[Int(decided.start)..<Int(decided.start + decided.count)]
            }
            return LineResult(outcomes: outcomes, output: output, accepted: out.accepted, decisions: out.decisions,
                              transitions: out.transitions.map(\.transition))
        }
    }
}

extension RecordProcessor where Sessions == SessionTable<StandardEnricher> {
    /// A processor that owns its sessions (the stream's, one per partition).
    /// - Throws: ``GeoBridge/GEOSError`` when GEOS cannot make a context.
    init(configuration: EngineConfiguration, lookup: LocationLookup, format: RecordFormat,
         emitRejected: Bool, collectsAccepted: Bool, renderCacheSlots: Int = GeoRenderer.defaultCacheSlots) throws {
        try self.init(configuration: configuration, lookup: lookup, format: format, emitRejected: emitRejected,
                      collectsAccepted: collectsAccepted,
                      sessions: SessionTable(configuration: configuration,
                                             enricher: try StandardEnricher(lookup: lookup, configuration: configuration)),
                      renderCacheSlots: renderCacheSlots)
    }

    /// Locates with `locator` from now on (``StandardEnricher/use(_:)``): the stream's partitions
    /// share their worker thread's locator (``ParallelRunner``).
    mutating func use(_ locator: LocationLookup.Locator) {
        sessions.withEnricher { $0.use(locator) }
        ownEnricher.use(locator)
    }
}

/// Where a ``RecordProcessor``'s sessions live and how a record is decided against them.
protocol SessionDecisions {
    /// Decides on a fix and enriches it when accepted, appending its geofence transitions.
    mutating func ingest(_ fix: Fix, session: SessionID, consent: Consent?,
                         transitions: inout [GeofenceTransition]) -> FixDecision
    /// The live location for an event of `session` at `time`, or `nil`.
    mutating func attach(session: SessionID, at time: Timestamp, consent: Consent?) -> Attachment?
    /// Sessions holding location state.
    var liveSessions: Int { get }
    /// A hint that records of these sessions come soon (``SessionTable/prefetch(slotOf:stateOf:)``).
    mutating func prefetch(slotOf later: UInt64, stateOf sooner: UInt64)
}

extension SessionTable: SessionDecisions {}

/// Sessions in a ``LocationEngine`` shared by many processors: each call locks the session's
/// shard for the one decision.
struct SharedSessions: SessionDecisions, Sendable {
    let engine: LocationEngine<StandardEnricher>

    func ingest(_ fix: Fix, session: SessionID, consent: Consent?, transitions: inout [GeofenceTransition]) -> FixDecision {
        engine.ingest(fix, session: session, consent: consent, transitions: &transitions)
    }

    func attach(session: SessionID, at time: Timestamp, consent: Consent?) -> Attachment? {
        engine.attach(session: session, at: time, consent: consent)
    }

    var liveSessions: Int { engine.liveSessions }

    /// Nothing: a service decides a record at a time, its sessions behind the shards' locks.
    func prefetch(slotOf later: UInt64, stateOf sooner: UInt64) {}
}

/// What the engine decided about one record.
public enum RecordDecision: Sendable, Hashable {
    /// A fix, accepted and enriched.
    case accepted(Enrichment)
    /// A fix, rejected.
    case rejected(RejectReason)
    /// An event, given the session's live location.
    case attached(Attachment)
    /// An event without a location.
    case unattached

    /// The record's `geo` values: an accepted fix's, or the location attached to an event.
    public var enrichment: Enrichment? {
        switch self {
        case .accepted(let enrichment): enrichment
        case .attached(let attachment): attachment.enrichment
        case .rejected, .unattached: nil
        }
    }

    /// The record's `geo` object as JSON (`{"lat":…,…}`, the object the output line carries),
    /// or `nil` when the record has no location. Without fences only: with them, use
    /// ``geoJSON(geofences:)`` with ``GeoEnricher/geofences`` (an enrichment's fence list cannot
    /// be written without its table; this stops the program).
    public var geoJSON: [UInt8]? { geoJSON(geofences: nil) }

    /// The record's `geo` object as JSON, its `geofences` array read from `geofences` (the fence
    /// set's table, needed when the enrichment has a fence list), or `nil` when the record has
    /// no location.
    public func geoJSON(geofences: GeofenceListTable?) -> [UInt8]? {
        switch self {
        case .accepted(let enrichment): Splice.geoObject(enrichment, ageMilliseconds: 0, geofences: geofences)
        case .attached(let attachment):
            Splice.geoObject(attachment.enrichment, ageMilliseconds: attachment.ageMilliseconds, geofences: geofences)
        case .rejected, .unattached: nil
        }
    }

    /// The figure of the statistics it adds to.
    var outcome: LineOutcome {
        switch self {
        case .accepted: .fixAccepted
        case .rejected(let reason): LineOutcome(reason)
        case .attached: .eventEnriched
        case .unattached: .event
        }
    }
}
