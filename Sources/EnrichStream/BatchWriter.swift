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

    /// - Parameters:
    ///   - output: where the enriched lines go.
    ///   - errors: where bad lines' reports go.
    ///   - maxErrors: stop after this many bad lines; `nil` for no limit.
    ///   - inputNames: the inputs' names, to name the file in error reports (pass `nil` for one
    ///     input: the report then has no `"file"` key).
    init(output: OutputFile, errors: OutputFile, maxErrors: Int?, inputNames: [String]?,
         pushSink: (any AcceptedFixSink)? = nil) {
        self.pushSink = pushSink
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
        var bases: [UnsafePointer<UInt8>?] = []
        bases.reserveCapacity(batch.outputs.count)
        Self.withBytes(of: batch.outputs, from: 0, &bases) { bases in
            do throws(StreamError) {
                result = .success(try write(batch, outputBytes: bases))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Calls `body` with the base address of each output's ``ProcessorOutput/bytes`` (`nil`
    /// for an empty one), valid throughout the call.
    private static func withBytes(of outputs: [ProcessorOutput], from k: Int, _ bases: inout [UnsafePointer<UInt8>?],
                                  _ body: ([UnsafePointer<UInt8>?]) -> Void) {
        guard k < outputs.count else { return body(bases) }
        outputs[k].bytes.withUnsafeBufferPointer { bytes in
            bases.append(bytes.baseAddress)
            withBytes(of: outputs, from: k + 1, &bases, body)
        }
    }

    private func write(_ batch: LineBatch, outputBytes: [UnsafePointer<UInt8>?]) throws(StreamError) -> Bool {
        let base = batch.base
        let filled = batch.filled
        // local lets: no exclusivity check on the batch's properties per line
        let chunks = batch.chunks
        let outputs = batch.outputs
        var next = Array(repeating: 0, count: outputs.count)
        // counted in a local copy (no exclusivity check per line), stored back at the end
        var statistics = self.statistics
        // taken, not copied (as `statistics`), and given back emptied but with its storage
        var pieces = GatherList()
        swap(&pieces, &self.pieces)
        pieces.removeAll()
        defer {
            self.statistics = statistics
            self.pieces = pieces
        }
        for chunk in chunks {
            for j in chunk.lines.indices {
                let i = chunk.first + j
                switch chunk.lines[j] {
                case .blank:
                    continue
                case .record, .records:
                    let p = Int(chunk.routes[j])
                    let decided = outputs[p].lines[next[p]]
                    next[p] += 1
                    statistics.countLine()
                    if decided.outcome == .records {
                        for k in Int(decided.firstOutcome)..<Int(decided.firstOutcome + decided.outcomeCount) {
                            statistics.count(outputs[p].recordOutcomes[k])
                        }
                    } else {
                        statistics.count(decided.outcome)
                    }
                    switch decided.output {
                    case .none:
                        continue
                    case .input:
                        let span = batch.lines[i]
                        let end = span.start + span.count
                        if end < filled && base[end] == 0x0A {
                            // the line and its own `\n` (a `\r\n` line needs the `\r` left out)
                            pieces.append(base + span.start, count: span.count + 1)
                        } else {
                            pieces.append(base + span.start, count: span.count)
                            pieces.append(newline, count: 1)
                        }
                    case .written:
                        if decided.prefix > 0 {
                            pieces.append(base + batch.lines[i].start, count: Int(decided.prefix))
                        }
                        // the processor wrote a `\n` after each line's bytes
                        pieces.append(outputBytes[p]! + Int(decided.start), count: Int(decided.count) + 1)
                    }
                case .bad(let reason):
                    statistics.countLine()
                    statistics.count(.error)
                    let span = batch.lines[i]
                    report.removeAll(keepingCapacity: true)
                    BadLineReport.append(line: span.number, file: inputNames?[batch.source], reason: reason,
                                         raw: UnsafeBufferPointer(start: base + span.start, count: span.count),
                                         to: &report)
                    try errors.appendLine(report, report.indices)
                    if let maxErrors, statistics.errors >= maxErrors {
                        reachedErrorLimit = true
                        statistics.stoppedEarly = true
                        // only a batch of one line holds a cut line, so spans are input offsets
                        statistics.bytes = i + 1 < batch.lines.count
                            ? batch.inputRange.lowerBound + batch.lines[i + 1].start : batch.inputRange.upperBound
                        try output.append(&pieces)
                        submitAccepted(batch, before: i)
                        return false
                    }
                }
            }
        }
        try output.append(&pieces)
        statistics.bytes = batch.inputRange.upperBound
        submitAccepted(batch, before: batch.lines.count)
        return true
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
    }

    /// Marks the run as stopped early.
    func markStopped() { statistics.stoppedEarly = true }
}
