import ThreadSharing
import Dispatch
import EnrichEngine
import GeoLookup
import Synchronization

/// Enriches NDJSON streams per the contract: read, parse and decide on all cores, write in input
/// order, count everything.
///
/// Three stages joined by bounded queues, each batch going through them in turn:
/// a reader thread cuts the inputs into ``LineBatch``es; the calling thread reads and decides
/// each batch with the ``ParallelRunner``'s workers; a writer thread writes the batches in
/// order. A fixed pool of batches circulates, so memory is the same for a thousand lines or a
/// billion (about `4 × batchBytes` of input and its output, plus the sessions' state).
///
/// Sessions carry over from one input to the next: the inputs are one stream, in the order given.
///
/// ```swift
/// let pipeline = try EnrichPipeline(options: EnrichOptions(), lookup: LocationLookup(dataDirectory: "data"))
/// let stats = try pipeline.run(inputs: [InputFile(path: "-")], output: .standardOutput(),
///                              errors: .standardError())
/// ```
///
/// Not `Sendable`: a pipeline runs one stream at a time, on the thread that calls ``run``.
public final class EnrichPipeline {
    public let options: EnrichOptions
    private let runner: ParallelRunner
    /// The fence set's table, when the lookup has fences.
    private let geofences: GeofenceListTable?

    /// - Throws: ``GeoBridge/GEOSError`` when GEOS cannot make a context.
    public init(options: EnrichOptions, lookup: LocationLookup) throws {
        self.options = options
        geofences = lookup.geofences?.lists
        runner = try ParallelRunner(configuration: options.engine, lookup: lookup, workers: options.workers,
                                    format: options.format, emitRejected: options.emitRejected,
                                    collectsAccepted: options.pushSink != nil)
    }

    /// What the run has done so far, for a progress display.
    public struct Progress: Sendable {
        /// Non-blank lines written (and counted).
        public var lines: Int
        /// Input bytes read.
        public var bytes: Int
        /// The inputs' total size, when all are regular files.
        public var totalBytes: Int?
        /// Seconds since the run started.
        public var elapsedSeconds: Double
    }

    /// Sessions holding location state now.
    public var liveSessions: Int { runner.liveSessions }

    /// Runs the stream to the end of the last input, or until `stop` is raised or the error limit
    /// is reached, and writes out everything read.
    ///
    /// Three stages joined by bounded queues: a reader thread cuts the inputs into batches, this
    /// thread reads and decides each batch with the ``ParallelRunner``'s workers, a writer
    /// thread writes them in order. Each batch is held by one stage at a time.
    ///
    /// - Parameters:
    ///   - inputs: the inputs, read in order as one stream.
    ///   - output: where the enriched lines go.
    ///   - errors: where bad lines' reports go.
    ///   - geofenceEvents: with fences (the lookup's ``GeoLookup/LocationLookup/geofences``),
    ///     where the geofence transitions go, one JSON object a line in input order (rule 11);
    ///     `nil`: they are counted only.
    ///   - stop: raised to stop early (from a signal handler): reading stops, what was read is
    ///     finished and written.
    ///   - progress: called on the writer thread about twice a second, when given.
    /// - Returns: the run's figures (`stoppedEarly` set when it did not read everything: stopped,
    ///   the error limit, or an input truncated while it was read, see ``InputFile/truncation``).
    /// - Throws: ``StreamError`` when an input or output fails; what was decided before it is written.
    public func run(inputs: [InputFile], output: OutputFile, errors: OutputFile, geofenceEvents: OutputFile? = nil,
                    stop: StopFlag = StopFlag(),
                    progress: (@Sendable (Progress) -> Void)? = nil) throws(StreamError) -> EnrichStatistics {
        let started = DispatchTime.now().uptimeNanoseconds
        let poolSize = 4
        let free = BlockingQueue<Handoff<LineBatch>>(capacity: poolSize)
        let read = BlockingQueue<Handoff<LineBatch>>(capacity: poolSize)
        let decided = BlockingQueue<Handoff<LineBatch>>(capacity: poolSize)
        for _ in 0..<poolSize { free.push(Handoff(LineBatch(capacity: options.batchBytes))) }
        let failure = Monitor<StreamError?>(nil)
        // the writer raises `halt` to stop the reader (error limit, failed output) without
        // counting as the user's stop; the reader stops on either
        let halt = StopFlag()
        let readerStop = StopFlag(following: stop)
        let totalBytes: Int? = inputs.allSatisfy { $0.size != nil } ? inputs.reduce(0) { $0 + ($1.size ?? 0) } : nil

        // reader: inputs → batches
        let readerDone = Latch()
        let readerInputs = Handoff(inputs)
        let readStage: @Sendable () -> Void = {
            defer { read.close(); readerDone.signal() }
            // one input's batches into the queue; false when the run must stop
            var consumedBefore = 0
            func pump(_ reader: inout some BatchSource, input index: Int, before: Int) -> Bool {
                while !readerStop.isRequested {
                    guard let batch = free.pop()?.value else { return false }
                    do throws(StreamError) {
                        guard try reader.fill(batch) else {
                            free.push(Handoff(batch))
                            return true
                        }
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                        halt.request(1)
                        readerStop.request(1)
                        free.push(Handoff(batch))
                        return false
                    }
                    batch.source = index
                    batch.inputRange = consumedBefore..<(before + reader.bytesConsumed)
                    consumedBefore = batch.inputRange.upperBound
                    read.push(Handoff(batch))
                }
                return false
            }
            var before = 0
            for (index, input) in readerInputs.value.enumerated() {
                var reader = BatchReader(input: input, stop: readerStop)
                guard pump(&reader, input: index, before: before) else { return }
                before += reader.bytesConsumed
                // a file cut short under us: what was read of it is finished, no input after it
                // is read (InputFile/truncation says what happened)
                if input.truncation != nil { return }
            }
        }

        // writer: decided batches → outputs, in order
        let writerBox = Handoff(BatchWriter(output: output, errors: errors, maxErrors: options.maxErrors,
                                            inputNames: inputs.count > 1 ? inputs.map(\.name) : nil,
                                            pushSink: options.pushSink, geofences: geofences,
                                            geofenceEvents: geofenceEvents, geofenceSink: options.geofenceSink))
        let writerDone = Latch()
        let written = Monitor(EnrichStatistics())
        let writeStage: @Sendable () -> Void = {
            defer { writerDone.signal() }
            let writer = writerBox.value
            var writing = true
            var lastProgress = started
            while let batch = decided.pop()?.value {
                if writing {
                    do throws(StreamError) {
                        if try !writer.write(batch) {
                            writing = false
                            halt.request(1)
                            readerStop.request(1)
                        }
                        if batch.endsBurst { try writer.flush() }
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                        writing = false
                        halt.request(1)
                        readerStop.request(1)
                    }
                }
                batch.reset()
                free.push(Handoff(batch))
                if let progress {
                    let now = DispatchTime.now().uptimeNanoseconds
                    if now - lastProgress >= 500_000_000 {
                        lastProgress = now
                        progress(Progress(lines: writer.statistics.lines, bytes: writer.statistics.bytes, totalBytes: totalBytes,
                                          elapsedSeconds: Double(now - started) / 1e9))
                    }
                }
            }
            do throws(StreamError) { try writer.flush() } catch { failure.withLock { if $0 == nil { $0 = error } } }
            let statistics = writer.statistics
            written.withLock { $0 = statistics }
        }
        DetachedThread.start(readStage)
        DetachedThread.start(writeStage)

        // this thread: read and decide
        while let batch = read.pop()?.value {
            if !halt.isRequested { runner.process(batch) } else { batch.reset() }
            decided.push(Handoff(batch))
        }
        decided.close()
        readerDone.wait()
        writerDone.wait()

        var statistics = written.withLock { $0 }
        if stop.isRequested || inputs.contains(where: { $0.truncation != nil }) { statistics.stoppedEarly = true }
        if let error = failure.withLock({ $0 }) { throw error }
        return statistics
    }
}
