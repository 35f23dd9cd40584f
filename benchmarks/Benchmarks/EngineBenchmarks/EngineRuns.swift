import EnrichEngine

/// A stream replayed in batches, lap after lap, each lap moved later in time by a fixed shift,
/// so that a stateful engine sees one endless, time-ordered stream however many iterations the
/// benchmark runs.
///
/// A batch holds the elements up to and including the `size`-th *counted* one (every element,
/// or only the events); the tail of a lap too short for a whole batch is left out, so a batch
/// never straddles two laps.
struct Laps<Element> {
    private let original: [Element]
    private let shift: Int64
    private let shifted: (Element, Int64) -> Element
    /// Where each batch starts in `current`, and one past the last batch's end.
    private let bounds: [Int]
    private var current: [Element]
    private var batch = 0
    private(set) var lap = 0

    /// - Parameters:
    ///   - elements: one lap, in stream order.
    ///   - size: counted elements per batch.
    ///   - shift: milliseconds added to every timestamp per lap.
    ///   - counted: which elements make up a batch's `size`.
    ///   - shifted: `element` with its timestamps moved by `by` milliseconds.
    init(_ elements: [Element], size: Int, shift: Int64, counted: (Element) -> Bool = { _ in true },
         shifted: @escaping (_ element: Element, _ by: Int64) -> Element) {
        var bounds = [0]
        var n = 0
        for (i, e) in elements.enumerated() where counted(e) {
            n += 1
            if n % size == 0 { bounds.append(i + 1) }
        }
        precondition(bounds.count > 1, "fewer than one batch in the stream")
        self.original = elements
        self.current = elements
        self.shift = shift
        self.shifted = shifted
        self.bounds = bounds
    }

    /// The next batch; at the end of a lap, first rewrites the stream one shift later (O(n):
    /// call it outside the measured region).
    mutating func next() -> ArraySlice<Element> {
        if batch + 1 == bounds.count {
            lap += 1
            batch = 0
            let by = Int64(lap) * shift
            current = original.map { shifted($0, by) }
        }
        defer { batch += 1 }
        return current[bounds[batch]..<bounds[batch + 1]]
    }

    /// Batches per lap.
    var batchesPerLap: Int { bounds.count - 1 }
}

extension Fix {
    /// The fix taken `by` milliseconds later.
    func moved(by: Int64) -> Fix {
        try! Fix(latitude: latitude, longitude: longitude, accuracy: accuracy,
                 timestamp: Timestamp(milliseconds: timestamp.milliseconds + by))
    }
}

extension StreamRecord {
    /// The record `by` milliseconds later.
    func moved(by: Int64) -> StreamRecord {
        StreamRecord(session: session, time: time + by, fix: fix?.moved(by: by))
    }
}

/// A session table fed the stream's fixes, one batch per iteration.
///
/// The table is a value; the benchmark body reaches it through ``withTable(_:)`` so that the
/// whole batch runs on an `inout` binding, with one exclusivity check per batch rather than one
/// per call (a class's stored property is checked at run time on every access).
final class IngestRun<Enricher: FixEnricher> {
    private var table: SessionTable<Enricher>
    private var laps: Laps<(fix: Fix, session: SessionID)>

    /// Makes the table and runs one whole lap through it, so measurement starts in the steady
    /// state (every session of the stream seen, the enricher's caches warm).
    init(enricher: Enricher, configuration: EngineConfiguration = EngineConfiguration()) {
        table = SessionTable(configuration: configuration, enricher: enricher)
        laps = Laps(EngineInputs.fixes, size: EngineInputs.scalingFactor.rawValue,
                    shift: EngineInputs.lapShift(configuration: configuration)) { r, by in (r.fix.moved(by: by), r.session) }
        for _ in 0..<laps.batchesPerLap {
            let batch = laps.next()
            withTable { table in for r in batch { _ = table.ingest(r.fix, session: r.session) } }
        }
    }

    /// The next batch of fixes (call before `startMeasurement`: a new lap is rewritten here).
    func nextBatch() -> ArraySlice<(fix: Fix, session: SessionID)> { laps.next() }

    @inline(__always)
    func withTable<R>(_ body: (inout SessionTable<Enricher>) -> R) -> R { body(&table) }
}

/// The sharded ``LocationEngine`` fed the stream's fixes from one thread, one batch per iteration.
final class EngineRun<Enricher: FixEnricher> {
    let engine: LocationEngine<Enricher>
    private var laps: Laps<(fix: Fix, session: SessionID)>

    /// Makes the engine and runs one whole lap through it (see ``IngestRun``).
    init(makeEnricher: () throws -> Enricher) rethrows {
        let configuration = EngineConfiguration()
        engine = try LocationEngine(configuration: configuration, makeEnricher: makeEnricher)
        laps = Laps(EngineInputs.fixes, size: EngineInputs.scalingFactor.rawValue,
                    shift: EngineInputs.lapShift(configuration: configuration)) { r, by in (r.fix.moved(by: by), r.session) }
        for _ in 0..<laps.batchesPerLap {
            for r in laps.next() { _ = engine.ingest(r.fix, session: r.session) }
        }
    }

    func nextBatch() -> ArraySlice<(fix: Fix, session: SessionID)> { laps.next() }
}

/// A session table fed the whole stream, fixes and events, one batch per iteration.
final class RecordRun<Enricher: FixEnricher> {
    private var table: SessionTable<Enricher>
    private var laps: Laps<StreamRecord>

    /// - Parameter eventsPerBatch: when true a batch holds ``EngineInputs/scalingFactor`` events
    ///   and the fixes among them; otherwise that many records.
    init(enricher: Enricher, eventsPerBatch: Bool) {
        let configuration = EngineConfiguration()
        table = SessionTable(configuration: configuration, enricher: enricher)
        laps = Laps(EngineInputs.records, size: EngineInputs.scalingFactor.rawValue,
                    shift: EngineInputs.lapShift(configuration: configuration),
                    counted: { !eventsPerBatch || $0.fix == nil }) { r, by in r.moved(by: by) }
        for _ in 0..<laps.batchesPerLap {
            let batch = laps.next()
            withTable { table in for r in batch { _ = RecordRun.apply(r, to: &table) } }
        }
    }

    func nextBatch() -> ArraySlice<StreamRecord> { laps.next() }

    @inline(__always)
    func withTable<R>(_ body: (inout SessionTable<Enricher>) -> R) -> R { body(&table) }

    /// Feeds one record to the table in the CLI's way: a fix is ingested, an event attached.
    @inline(__always)
    static func apply(_ r: StreamRecord, to table: inout SessionTable<Enricher>) -> UInt64 {
        if let fix = r.fix { return table.ingest(fix, session: r.session).checksum }
        return table.attach(session: r.session, at: Timestamp(milliseconds: r.time))?.enrichment.checksum ?? 0
    }
}

/// A session table fed the whole stream for the attach benchmark: per iteration, a batch of
/// ``EngineInputs/scalingFactor`` events and the fixes among them; the fixes are ingested
/// before measurement, then only the events' attach calls are timed (see
/// ``EngineInputs/checkBatchedAttach(enricher:)`` for why the answers are those of stream order).
final class AttachRun<Enricher: FixEnricher> {
    private var records: RecordRun<Enricher>
    private var events: [(session: SessionID, time: Timestamp)] = []

    init(enricher: Enricher) {
        records = RecordRun(enricher: enricher, eventsPerBatch: true)
        events.reserveCapacity(EngineInputs.scalingFactor.rawValue)
    }

    /// Ingests the next batch's fixes and returns its events (call before `startMeasurement`).
    func prepareBatch() -> [(session: SessionID, time: Timestamp)] {
        events.removeAll(keepingCapacity: true)
        let batch = records.nextBatch()
        records.withTable { table in
            for r in batch {
                if let fix = r.fix {
                    _ = table.ingest(fix, session: r.session)
                } else {
                    events.append((r.session, Timestamp(milliseconds: r.time)))
                }
            }
        }
        return events
    }

    @inline(__always)
    func withTable<R>(_ body: (inout SessionTable<Enricher>) -> R) -> R { records.withTable(body) }
}

extension EngineInputs {
    /// Checks that attaching a batch's events after ingesting all of the batch's fixes (what
    /// the attach benchmark measures) gives every event the attachment it gets in stream order,
    /// as contract rule 4 says it must (an event finds the fix that was live at its own time,
    /// whatever came since, within the late window). Stops the process if one differs.
    static func checkBatchedAttach(enricher: some FixEnricher) {
        var inOrder = SessionTable(configuration: EngineConfiguration(), enricher: enricher)
        var expected: [Attachment?] = []
        for r in records {
            if let fix = r.fix {
                _ = inOrder.ingest(fix, session: r.session)
            } else {
                expected.append(inOrder.attach(session: r.session, at: Timestamp(milliseconds: r.time)))
            }
        }
        var batched = SessionTable(configuration: EngineConfiguration(), enricher: enricher)
        var got: [Attachment?] = []
        var pending: [StreamRecord] = []
        func flush() {
            for r in pending { got.append(batched.attach(session: r.session, at: Timestamp(milliseconds: r.time))) }
            pending.removeAll(keepingCapacity: true)
        }
        for r in records {
            if let fix = r.fix {
                _ = batched.ingest(fix, session: r.session)
            } else {
                pending.append(r)
                if pending.count == scalingFactor.rawValue { flush() }
            }
        }
        flush()
        precondition(got == expected, "batched attach differs from attach in stream order")
    }
}
