import EnrichEngine
import RecordCodec

/// Writes decided batches in input order: each line's output to the output file, each bad line's
/// report to the error file, and every line's outcome into the statistics.
///
/// The single serial step of the pipeline, so it is also where the run stops exactly after the
/// `maxErrors`-th bad line: nothing after that line is written or counted.
final class BatchWriter {
    private let output: OutputFile
    private let errors: OutputFile
    private let maxErrors: Int?
    /// Input names, for error reports when there is more than one input.
    private let inputNames: [String]?
    private var report: [UInt8] = []
    /// A batch's output, as pieces of the batch's input and of the partitions' outputs.
    private var pieces = GatherList()
    /// A `\n` for lines whose own cannot be written with them.
    private let newline: UnsafeMutablePointer<UInt8>
    /// The figures of every line written so far.
    private(set) var statistics = EnrichStatistics()
    /// Whether the error limit was reached.
    private(set) var reachedErrorLimit = false
    /// Where accepted fixes go once their lines are written.
    private let pushSink: (any AcceptedFixSink)?
    /// With fences (rule 11): their names, and where the transitions go once their fixes' lines
    /// are written (`nil`: counted only).
    private let geofences: GeofenceListTable?
    private let geofenceEvents: OutputFile?
    private let geofenceSink: (any GeofenceTransitionSink)?
    /// A batch's transitions in input order, and a transition's line, kept for their storage.
    private var transitions: [LineTransition] = []
    private var eventLine: [UInt8] = []

    /// - Parameters:
    ///   - output: where the enriched lines go.
    ///   - errors: where bad lines' reports go.
    ///   - maxErrors: stop after this many bad lines; `nil` for no limit.
    ///   - inputNames: the inputs' names, to name the file in error reports (pass `nil` for one
    ///     input: the report then has no `"file"` key).
    ///   - geofences: the fence set's table, when the run has fences: the statistics then count
    ///     transitions.
    ///   - geofenceEvents: where the transitions go, one JSON object a line, when given.
    ///   - geofenceSink: where the transitions go too (the webhook), when given.
    init(output: OutputFile, errors: OutputFile, maxErrors: Int?, inputNames: [String]?,
         pushSink: (any AcceptedFixSink)? = nil, geofences: GeofenceListTable? = nil,
         geofenceEvents: OutputFile? = nil, geofenceSink: (any GeofenceTransitionSink)? = nil) {
        self.geofenceSink = geofenceSink
        self.pushSink = pushSink
        self.geofences = geofences
        self.geofenceEvents = geofenceEvents
        if geofences != nil { statistics.geofenceTransitions = EnrichStatistics.GeofenceTransitionCounts() }
        self.output = output
        self.errors = errors
        self.maxErrors = maxErrors
        self.inputNames = inputNames
        newline = .allocate(capacity: 1)
        newline.initialize(to: 0x0A)
    }

    deinit { newline.deallocate() }

    /// Writes `batch`.
    /// - Returns: `false` when the error limit was reached (the lines after it are not written).
    /// - Throws: ``StreamError`` when an output cannot be written.
    func write(_ batch: LineBatch) throws(StreamError) -> Bool {
        // the partitions' bytes stay where the processors wrote them: the output is a gather
        // list of pieces of them and of the batch's input (``DecidedLine``)
        var result: Result<Bool, StreamError> = .success(true)
        var cursors: [PartitionCursor] = []
        cursors.reserveCapacity(batch.outputs.count)
        Self.withCursors(of: batch.outputs, from: 0, &cursors) { cursors in
            do throws(StreamError) {
                result = .success(try write(batch, &cursors))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Where the writer is in one partition's output: its decided lines and bytes, read in
    /// place, and the next line to take.
    private struct PartitionCursor {
        var lines: UnsafePointer<DecidedLine>?
        var bytes: UnsafePointer<UInt8>?
        var next = 0
    }

    /// Calls `body` with a cursor on each output (its ``ProcessorOutput/lines`` and
    /// ``ProcessorOutput/bytes``, valid throughout the call).
    private static func withCursors(of outputs: [ProcessorOutput], from k: Int, _ cursors: inout [PartitionCursor],
                                    _ body: (inout [PartitionCursor]) -> Void) {
        guard k < outputs.count else { return body(&cursors) }
        outputs[k].bytes.withUnsafeBufferPointer { bytes in
            outputs[k].lines.withUnsafeBufferPointer { lines in
                cursors.append(PartitionCursor(lines: lines.baseAddress, bytes: bytes.baseAddress))
                withCursors(of: outputs, from: k + 1, &cursors, body)
            }
        }
    }

    private func write(_ batch: LineBatch, _ cursors: inout [PartitionCursor]) throws(StreamError) -> Bool {
        // counted in a local copy (no exclusivity check per line), stored back at the end
        var statistics = self.statistics
        var tally = OutcomeTally()
        pieces.removeAll()
        defer {
            statistics.count(tally)
            self.statistics = statistics
        }
        if let stop = try gather(batch, &cursors, into: &pieces, &statistics, &tally) {
            reachedErrorLimit = true
            statistics.stoppedEarly = true
            // only a batch of one line holds a cut line, so spans are input offsets
            statistics.bytes = stop + 1 < batch.lines.count
                ? batch.inputRange.lowerBound + batch.lines[stop + 1].start : batch.inputRange.upperBound
            try output.append(&pieces)
            submitAccepted(batch, before: stop)
            try writeTransitions(batch, before: stop, &statistics)
            return false
        }
        try output.append(&pieces)
        statistics.bytes = batch.inputRange.upperBound
        submitAccepted(batch, before: batch.lines.count)
        try writeTransitions(batch, before: batch.lines.count, &statistics)
        return true
    }

    /// Gathers the batch's output lines into `pieces` in input order, each taken from its
    /// partition's cursor (a partition decided its lines in input order), counts them, and
    /// reports its bad lines.
    ///
    /// Per line, pointers and a tally rather than arrays and the statistics: the arrays' bounds
    /// and uniqueness checks and the statistics' `switch` were about 60 instructions a line
    /// of the benchmark stream (callgrind).
    /// - Returns: the index of the bad line that reached the error limit (nothing after it is
    ///   gathered or counted), or nil.
    private func gather(_ batch: LineBatch, _ cursors: inout [PartitionCursor], into pieces: inout GatherList,
                        _ statistics: inout EnrichStatistics, _ tally: inout OutcomeTally) throws(StreamError) -> Int? {
        let base = batch.base
        let filled = batch.filled
        let outputs = batch.outputs
        var lines = 0
        defer { statistics.lines += lines }
        for chunk in batch.chunks {
            let stop = try chunk.kinds.withUnsafeBufferPointer { (kinds) throws(StreamError) -> Int? in
                try chunk.routes.withUnsafeBufferPointer { (routes) throws(StreamError) -> Int? in
                    try batch.lines.withUnsafeBufferPointer { (spans) throws(StreamError) -> Int? in
                        try cursors.withUnsafeMutableBufferPointer { (cursors) throws(StreamError) -> Int? in
                            for j in 0..<kinds.count {
                                let i = chunk.first &+ j
                                switch kinds[j] {
                                case .blank:
                                    continue
                                case .record, .records:
                                    let p = Int(routes[j])
                                    let decided = cursors[p].lines![cursors[p].next]
                                    cursors[p].next &+= 1
                                    lines &+= 1
                                    if decided.outcome == .records {
                                        for k in Int(decided.firstOutcome)..<Int(decided.firstOutcome + decided.outcomeCount) {
                                            tally.add(outputs[p].recordOutcomes[k])
                                        }
                                    } else {
                                        tally.add(decided.outcome)
                                    }
                                    switch decided.output {
                                    case .none:
                                        continue
                                    case .input:
                                        let span = spans[i]
                                        let end = span.start &+ span.count
                                        if end < filled && base[end] == 0x0A {
                                            // the line and its own `\n` (a `\r\n` line needs the `\r` left out)
                                            pieces.append(base + span.start, count: span.count &+ 1)
                                        } else {
                                            pieces.append(base + span.start, count: span.count)
                                            pieces.append(newline, count: 1)
                                        }
                                    case .written:
                                        if decided.prefix > 0 {
                                            pieces.append(base + spans[i].start, count: Int(decided.prefix))
                                        }
                                        // the processor wrote a `\n` after each line's bytes
                                        pieces.append(cursors[p].bytes! + Int(decided.start), count: Int(decided.count) &+ 1)
                                    }
                                case .bad(let reason):
                                    lines &+= 1
                                    tally.add(.error)
                                    let span = spans[i]
                                    report.removeAll(keepingCapacity: true)
                                    BadLineReport.append(line: span.number, file: inputNames?[batch.source], reason: reason,
                                                         raw: UnsafeBufferPointer(start: base + span.start, count: span.count),
                                                         to: &report)
                                    try errors.appendLine(report, report.indices)
                                    if let maxErrors, statistics.errors + tally[.error] >= maxErrors { return i }
                                }
                            }
                            return nil
                        }
                    }
                }
            }
            if let stop { return stop }
        }
        return nil
    }

    /// Counts the batch's geofence transitions on lines before `limit` and writes them to the
    /// events file, in input order: each partition's are in order, and a line's records are all
    /// in one partition, so a stable sort by line interleaves them rightly.
    private func writeTransitions(_ batch: LineBatch, before limit: Int,
                                  _ statistics: inout EnrichStatistics) throws(StreamError) {
        guard let geofences else { return }
        guard geofenceEvents != nil || geofenceSink != nil else {
            // counted only: no order to keep, nothing to gather (gathering and ordering them was
            // about 50 instructions a line of the benchmark stream with 20,000 fences, callgrind)
            for output in batch.outputs {
                for t in output.transitions where Int(t.line) < limit { statistics.geofenceTransitions!.count(t.transition.kind) }
            }
            return
        }
        transitions.removeAll(keepingCapacity: true)
        for output in batch.outputs {
            for t in output.transitions where Int(t.line) < limit { transitions.append(t) }
        }
        guard !transitions.isEmpty else { return }
        // their places in input order: stable (Swift's sort is not, so the place breaks ties);
        // the places are sorted, not (place, transition) pairs, which copied each transition
        // through the runtime's generic tuple witnesses
        var order = Array(transitions.indices)
        if batch.outputs.count > 1 {
            order.sort { (transitions[$0].line, $0) < (transitions[$1].line, $1) }
        }
        for k in order {
            let transition = transitions[k].transition
            statistics.geofenceTransitions!.count(transition.kind)
            eventLine.removeAll(keepingCapacity: true)
            GeofenceEventLine.append(session: transition.session.rawValue, fence: geofences.quotedName(of: transition.fence),
                                     transition: transition.kind.name, timestamp: transition.timestamp.milliseconds,
                                     position: transition.position, to: &eventLine)
            try geofenceEvents?.appendLine(eventLine, eventLine.indices)
            geofenceSink?.transition(session: transition.session, body: eventLine)
        }
    }

    /// Hands the batch's accepted fixes on lines before `limit` to the push sink.
    private func submitAccepted(_ batch: LineBatch, before limit: Int) {
        guard let pushSink else { return }
        for output in batch.outputs {
            for accepted in output.accepted where Int(accepted.line) < limit {
                let fix = accepted.enrichment
                pushSink.accepted(session: accepted.session,
                                  body: PushBody.json(latitude: fix.latitude, longitude: fix.longitude,
                                                      accuracy: fix.accuracy))
            }
        }
    }

    /// Writes out both outputs' buffers.
    func flush() throws(StreamError) {
        try output.flush()
        try errors.flush()
        try geofenceEvents?.flush()
    }

    /// Marks the run as stopped early.
    func markStopped() { statistics.stoppedEarly = true }
}
