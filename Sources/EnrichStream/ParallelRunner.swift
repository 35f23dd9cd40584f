import ThreadSharing
import EnrichEngine
import GeoLookup
import RecordCodec

/// Runs ``RecordProcessor``s over batches on all cores, keeping each session's records in
/// input order. It only batches, partitions and keeps order; what a line becomes is the
/// processor's.
///
/// Two parallel steps a batch:
/// 1. **read**: the lines are cut into ranges (several per worker, claimed as they come); each
///    range's lines become a ``ParsedChunk``, with the partition of each record's session.
/// 2. **decide**: sessions are partitioned by the hash of their id, each partition with its own
///    processor (its sessions, its renderer); every partition walks the whole batch in
///    order and takes its own sessions' lines, so each session sees its records in input order
///    without a lock per line. Partitions are claimed as they come, and locate with the
///    locator of the worker that claimed them (its GEOS context and prepared polygons).
///
/// The ``BatchWriter`` then interleaves the partitions' outputs in input order.
final class ParallelRunner {
    /// A processor that owns its partition's sessions.
    typealias StreamProcessor = RecordProcessor<SessionTable<StandardEnricher>>

    /// One partition's processor, locked by the worker that claims the partition for a batch.
    private final class Partition: Sendable {
        let processor: Monitor<StreamProcessor>
        init(_ processor: sending StreamProcessor) { self.processor = Monitor(processor) }
    }

    private let partitions: [Partition]
    private let reader: LineReader
    /// What each worker remembers of the lines it read (``ReaderMemory``: layouts and session
    /// ids), one per worker: worker k always runs on thread k, and the caller's thread is worker 0.
    private let memories: [Monitor<ReaderMemory>]
    /// Each worker's locator, which the partitions it decides use while it holds them
    /// (``RecordProcessor/use(_:)``), one per worker like ``memories``. A locator's GEOS
    /// context, prepared border polygons and postal hints are then made once per thread: when
    /// each of the 8 partitions of two workers prepared its own (GEOS reading the WKB and
    /// indexing the polygons' segments), two workers spent 1,350 M instructions on the
    /// benchmark stream's first 200,000 lines, against 1,250 M with one locator per worker
    /// (callgrind).
    private let locators: [Monitor<LocationLookup.Locator>]
    private let pool: WorkerPool
    /// Session partitions per worker thread. One: with four (claimed as they come, so that a
    /// worker that lost its core for a while took fewer), two workers spent about 9 % more CPU
    /// on the benchmark stream than with one each (0.63 against 0.57 s, 4 runs each, with a
    /// locator per worker in both), and were no faster with a busy loop on one of the two
    /// cores (0.52 against 0.50 s): more partitions touch more memory (each its session
    /// table, renderer and output) for the same lines. Not in instructions: callgrind counted
    /// 1,260 M with four a worker, 1,280 M with one (before the renderers' slots were divided
    /// among the partitions, ``GeoRenderer/streamCacheSlots``).
    static let partitionsPerWorker = 1
    /// Ranges of lines per worker thread when reading.
    static let readChunksPerWorker = 8
    /// How many of a partition's records ahead of the one decided its session's index slot is
    /// asked for, and its state (``SessionTable/prefetch(slotOf:stateOf:)``).
    static let slotAhead = 8
    static let stateAhead = 4
    /// Below this many lines a batch is processed on the calling thread alone (a live stream's
    /// small batches are not worth waking the workers for).
    static let parallelThreshold = 256

    /// - Parameters:
    ///   - configuration: the engine's rules.
    ///   - lookup: the bundled data.
    ///   - workers: threads (the number of cores).
    ///   - format: how records are read and where the enrichment goes.
    ///   - emitRejected: write rejected fixes too.
    ///   - collectsAccepted: keep the accepted fixes for the push.
    /// - Throws: ``GeoBridge/GEOSError`` when GEOS cannot make a context.
    init(configuration: EngineConfiguration, lookup: LocationLookup, workers: Int, format: RecordFormat,
         emitRejected: Bool, collectsAccepted: Bool) throws {
        let count = format.mixesSessionsInALine ? 1 : min(255, max(1, workers) * Self.partitionsPerWorker)
        // the renderers' slots divided among the partitions: a power of two each
        var slots = GeoRenderer.defaultCacheSlots
        while slots * 2 * count <= GeoRenderer.streamCacheSlots { slots *= 2 }
        var partitions: [Partition] = []
        for _ in 0..<count {
            partitions.append(Partition(try StreamProcessor(configuration: configuration, lookup: lookup, format: format,
                                                            emitRejected: emitRejected,
                                                            collectsAccepted: collectsAccepted, renderCacheSlots: slots)))
        }
        self.partitions = partitions
        reader = LineReader(format: format)
        pool = WorkerPool(count: max(1, workers))
        memories = (0..<max(1, workers)).map { _ in Monitor(ReaderMemory()) }
        var locators: [Monitor<LocationLookup.Locator>] = []
        for _ in 0..<max(1, workers) {
            locators.append(Monitor(try lookup.makeLocator(postalMaxDistance: configuration.postalMaxDistance)))
        }
        self.locators = locators
    }

    /// The number of session partitions (each batch has as many outputs).
    var partitionCount: Int { partitions.count }

    /// Sessions holding location state, over all partitions.
    var liveSessions: Int { partitions.reduce(0) { n, p in n + p.processor.withLock { $0.liveSessions } } }

    /// Reads and decides every line of `batch`, leaving ``LineBatch/chunks`` and
    /// ``LineBatch/outputs`` for the writer.
    func process(_ batch: LineBatch) {
        let n = batch.lines.count
        let lines = batch.lines
        let bytes = SharedBytes(batch.base)
        let parallel = pool.count > 1 && n >= Self.parallelThreshold

        // step 1: read, one range of lines per chunk; each chunk's arrays are the batch's own,
        // reused from batch to batch
        let chunkCount = parallel ? pool.count * Self.readChunksPerWorker : 1
        let partitionCount = partitions.count
        let reader = self.reader
        let memories = self.memories
        let chunks = Monitor(batch.takeChunks(count: chunkCount))
        let readChunk: @Sendable (Int, Int) -> Void = { worker, c in
            var chunk = chunks.withLock { all in
                defer { all[c] = ParsedChunk() }
                return all[c]
            }
            memories[worker].withLock { memory in
                chunk.read(lines, range: (n * c / chunkCount)..<(n * (c + 1) / chunkCount), bytes: bytes,
                           reader: reader, memory: &memory, partitions: partitionCount)
            }
            chunks.withLock { $0[c] = chunk }
        }
        run(parallel, count: chunkCount, readChunk)
        let parsed = chunks.withLock { all in
            defer { all = [] }
            return all
        }

        // step 2: decide, one partition at a time per worker
        let outputs = Monitor(batch.takeOutputs(count: partitionCount))
        let partitions = self.partitions
        let locators = self.locators
        let decidePartition: @Sendable (Int, Int) -> Void = { worker, p in
            var output = outputs.withLock { all in
                defer { all[p] = ProcessorOutput() }
                return all[p]
            }
            // the worker's locator, held (always before a partition) while the partition uses it
            locators[worker].withLock { locator in
                partitions[p].processor.withLock { processor in
                    processor.use(locator)
                    for chunk in parsed {
                        chunk.withLines(of: p) { order, hashes, kinds, records, payloads in
                            // a large session table's cache misses, hidden behind the records before:
                            // a session's index slot (and its render cache slot) is asked for
                            // `slotAhead` records ahead, its state (and cached rendering) `stateAhead`
                            // records ahead
                            let count = order.count
                            for n in 0..<count {
                                processor.prefetch(slotOf: n + Self.slotAhead < count ? hashes[Int(order[n + Self.slotAhead])] : 0,
                                                   stateOf: n + Self.stateAhead < count ? hashes[Int(order[n + Self.stateAhead])] : 0)
                                let j = Int(order[n])
                                let i = chunk.first + j
                                // the record read where the chunk keeps it
                                switch kinds[j] {
                                case .blank, .bad:
                                    continue
                                case .record(let r):
                                    processor.process(records.baseAddress! + Int(r), line: bytes.line(lines[i]), index: Int32(i), into: &output)
                                case .records(let r):
                                    processor.process(payloads.baseAddress! + Int(r), line: bytes.line(lines[i]), index: Int32(i), into: &output)
                                }
                            }
                        }
                    }
                }
            }
            outputs.withLock { $0[p] = output }
        }
        // each partition with the same worker every batch, its tables in that core's cache:
        // against claims by whichever worker came first, CPU 0.935 on the million-session
        // stream and 0.996 on the benchmark stream (alternating pairs, 9 and 21)
        run(parallel && partitionCount > 1, count: partitionCount, affine: true, decidePartition)

        batch.chunks = parsed
        batch.outputs = outputs.withLock { all in
            defer { all = [] }
            return all
        }
    }

    /// Runs `body(worker, k)` for k in 0..<count, on all workers (claimed as they come, or
    /// `affine`: each worker's own first, ``AffineClaims``) or on this thread (worker 0).
    private func run(_ parallel: Bool, count: Int, affine: Bool = false, _ body: @escaping @Sendable (Int, Int) -> Void) {
        guard parallel else {
            for k in 0..<count { body(0, k) }
            return
        }
        if affine {
            let claims = AffineClaims(count: count, workers: pool.count)
            pool.run { worker in
                while let k = claims.next(for: worker) { body(worker, k) }
            }
            return
        }
        let claims = Claims()
        pool.run { worker in
            while let k = claims.next(below: count) { body(worker, k) }
        }
    }
}

/// What a line of a ``ParsedChunk`` is: plain data, its records kept beside it in the chunk.
enum LineKind: Sendable {
    /// Only white space.
    case blank
    /// A bad line, with its reason.
    case bad(BadLineReason)
    /// A canonical record: ``ParsedChunk/records``' element at this index.
    case record(Int32)
    /// An SDK payload's records: ``ParsedChunk/payloads``' element at this index.
    case records(Int32)
}

/// A range of a batch's lines, read: the lines from ``first`` on, each one's partition, and
/// the lines of each partition.
///
/// A line's kind is plain data, and its record lies in an array of records: as a
/// ``CheckedLine`` enum per line, each record (two strings, the record's id and its session's)
/// was copied into the array, copied again where the decision bound it, and each copy
/// destroyed: retains, releases and outlined copies, 86 instructions a line of the benchmark
/// stream (callgrind). Now each record is moved in once, read in place (the processor passes
/// its fields, which saved 85 more), and destroyed once.
struct ParsedChunk: Sendable {
    /// The index in the batch of the chunk's first line.
    var first = 0
    /// One per line.
    var kinds: [LineKind] = []
    /// The canonical records, in input order (``LineKind/record(_:)`` indexes them).
    var records: [SessionRecord] = []
    /// The SDK payloads, in input order (``LineKind/records(_:)`` indexes them).
    var payloads: [SDKPayload] = []
    /// One per line: the partition of the line's session (0 for blank and bad lines). It
    /// follows from the line's hash in `hashes`; kept because the counting sort and the writer
    /// read it for every line, a byte where the hash would cost a division.
    var routes: [UInt8] = []
    /// One per line: the ``SessionID/stableHash`` of the line's session (0 for blank and bad
    /// lines), for the session table's prefetch.
    var hashes: [UInt64] = []
    /// The chunk's lines (indices in ``kinds``) grouped by partition, in input order within
    /// each: partition `p`'s are `byPartition[starts[p]..<starts[p + 1]]`. Each partition
    /// visits only its own lines; when every partition walked all the routes, a line cost
    /// as many tests as there are partitions.
    private var byPartition: [Int32] = []
    private var starts: [Int32] = []

    /// Empties the chunk, keeping its storage (the records' ids are let go now).
    mutating func removeAll() {
        kinds.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
        payloads.removeAll(keepingCapacity: true)
        routes.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
    }

    /// Reads `range` of the batch's lines, replacing what the chunk held.
    mutating func read(_ spans: [LineSpan], range: Range<Int>, bytes: SharedBytes, reader: LineReader,
                       memory: inout ReaderMemory, partitions: Int) {
        first = range.lowerBound
        removeAll()
        // one entry a line in each of these, written in place: appended, each line cost three
        // uniqueness checks and capacity tests, about 95 instructions a line of the benchmark
        // stream (callgrind)
        kinds.append(contentsOf: repeatElement(.blank, count: range.count))
        routes.append(contentsOf: repeatElement(0, count: range.count))
        hashes.append(contentsOf: repeatElement(0, count: range.count))
        // the records in one append for the whole range: the array's uniqueness and capacity
        // checked once, not on every record
        records.append(addingCapacity: range.count) { newRecords in
            kinds.withUnsafeMutableBufferPointer { kinds in
                routes.withUnsafeMutableBufferPointer { routes in
                    hashes.withUnsafeMutableBufferPointer { hashes in
                        for (j, i) in range.enumerated() {
                            let span = spans[i]
                            let hash: UInt64
                            // each record moved into its array, not copied
                            switch span.isCut ? .bad(.lineTooLong) : reader.read(bytes.line(span), memory: &memory) {
                            case .blank:
                                continue
                            case .bad(let reason):
                                kinds[j] = .bad(reason)
                                continue
                            case .record(let record):
                                hash = record.session.stableHash
                                kinds[j] = .record(Int32(truncatingIfNeeded: newRecords.count))
                                newRecords.append(record)
                            case .records(let payload):
                                kinds[j] = .records(Int32(truncatingIfNeeded: payloads.count))
                                let session = payload.sessions.first
                                payloads.append(payload)
                                guard let session else { continue }  // a payload of no records: partition 0
                                hash = session.stableHash
                            }
                            routes[j] = Self.partition(ofHash: hash, among: partitions)
                            hashes[j] = hash
                        }
                    }
                }
            }
        }
        group(partitions: partitions)
    }

    /// Fills ``byPartition`` from ``routes``: a counting sort, stable.
    private mutating func group(partitions: Int) {
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: partitions + 1))
        byPartition.removeAll(keepingCapacity: true)
        byPartition.append(contentsOf: repeatElement(0, count: routes.count))
        routes.withUnsafeBufferPointer { routes in
            starts.withUnsafeMutableBufferPointer { starts in
                for route in routes { starts[Int(route) + 1] &+= 1 }
                for p in 0..<partitions { starts[p + 1] &+= starts[p] }
                var next = Array(starts[..<partitions])
                byPartition.withUnsafeMutableBufferPointer { grouped in
                    for (j, route) in routes.enumerated() {
                        grouped[Int(next[Int(route)])] = Int32(truncatingIfNeeded: j)
                        next[Int(route)] &+= 1
                    }
                }
            }
        }
    }

    /// Calls `body` with the indices in ``kinds`` of partition `p`'s lines, in input order
    /// (blank and bad lines are partition 0's: the caller passes over them), the ``hashes``
    /// and ``kinds`` of all the chunk's lines, and the chunk's ``records`` and ``payloads``.
    func withLines<R>(of p: Int, _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<LineKind>,
                                          UnsafeBufferPointer<SessionRecord>, UnsafeBufferPointer<SDKPayload>) -> R) -> R {
        byPartition.withUnsafeBufferPointer { all in
            hashes.withUnsafeBufferPointer { hashes in
                kinds.withUnsafeBufferPointer { kinds in
                    records.withUnsafeBufferPointer { records in
                        payloads.withUnsafeBufferPointer { payloads in
                            body(UnsafeBufferPointer(rebasing: all[Int(starts[p])..<Int(starts[p + 1])]), hashes, kinds, records, payloads)
                        }
                    }
                }
            }
        }
    }

    /// The partition of the records of the session whose ``SessionID/stableHash`` is `hash`:
    /// from the hash's high half (the session index takes its fingerprint from the low half),
    /// scaled to `0..<partitions` by a multiply and a shift rather than a remainder (a 64-bit
    /// division on every line).
    @inline(__always)
    static func partition(ofHash hash: UInt64, among partitions: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: ((hash >> 32) &* UInt64(partitions)) >> 32)
    }
}
