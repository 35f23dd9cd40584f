import Benchmark
import EnrichEngine

// Benchmarks of the enrichment engine (EnrichEngine) on the realistic stream.
//
// The issue "The enrichment engine as a library" sets the targets, on pre-parsed fixes of a
// `gen_stream.py 1000000` stream (about 30 % of fixes accepted), per core: at least 3 million
// fixes per second with the enrichment of the accepted ones, at least 20 million for the decision
// alone; attaching a location to an event in under 50 ns; one million live sessions in at most
// 256 MB; memory flat on an endless stream of short sessions.
//
// The stream benchmarks replay the stream in stream order, 1,000 fixes (events, records) per
// iteration, lap after lap, each lap moved later in time (see `Laps`), on a table that has already
// seen one whole lap in set-up: the steady state of a long-running ingester. Figures are per fix
// (event, record), on one thread. Each result is folded into a checksum black-holed once per
// iteration.
//
// The memory benchmarks fill a table with new sessions, 250,000 per iteration, and report
// resident memory read from /proc/self at chosen points as custom metrics (bytes). An iteration
// is kept well under a second because package-benchmark drops a throughput below one iteration
// per second, and its JMH export drops a benchmark without one.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: EngineInputs.scalingFactor,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )
    var countingAccepted = Benchmark.defaultConfiguration
    countingAccepted.metrics.append(StreamMetric.acceptedFixes)
    var countingLocated = Benchmark.defaultConfiguration
    countingLocated.metrics.append(StreamMetric.locatedEvents)

    // The decision alone: consent, accuracy, staleness, the distance filter, and recording the
    // accepted fixes, with an enricher that returns a constant.
    Benchmark("engine ingest, decision only", configuration: countingAccepted) { benchmark, run in
        ingestBatch(benchmark, run)
    } setup: {
        IngestRun(enricher: try ConstantEnricher())
    }

    // The same with the standard enricher: H3 cell, country and postal code of each accepted fix.
    Benchmark("engine ingest with enrichment", configuration: countingAccepted) { benchmark, run in
        ingestBatch(benchmark, run)
    } setup: {
        IngestRun(enricher: try StandardEnricher(lookup: EngineInputs.lookup, resolution: .finest))
    }

    // Attach alone: per iteration, the next 1,000 events of the stream; the fixes among them are
    // ingested before measurement, then only the attach calls are timed. Set-up checks that this
    // order gives every event the answer of stream order.
    Benchmark("engine attach", configuration: countingLocated) { (benchmark: Benchmark, run: AttachRun<ConstantEnricher>) in
        let events = run.prepareBatch()
        benchmark.startMeasurement()
        let (checksum, located) = run.withTable { table in
            var checksum: UInt64 = 0, located = 0
            for e in events {
                if let a = table.attach(session: e.session, at: e.time) {
                    checksum &+= a.enrichment.checksum
                    located += 1
                }
            }
            return (checksum, located)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(StreamMetric.locatedEvents, located)
        blackHole(checksum)
    } setup: {
        let enricher = try ConstantEnricher()
        EngineInputs.checkBatchedAttach(enricher: enricher)
        return AttachRun(enricher: enricher)
    }

    // The codec's share of a line of `enrich`: parse and check it as the peer does, and splice a
    // rendered `geo` into it (no engine, no lookup); 1,000 lines an iteration.
    Benchmark("NDJSON parse and splice, per line") { benchmark, run in
        blackHole(run.run(1_000))
    } setup: {
        try LineRun()
    }

    // Fixes and events interleaved as they come, per record: what a CLI pass costs in the engine.
    Benchmark("engine ingest and attach, stream order") { benchmark, run in
        let batch = run.nextBatch()
        benchmark.startMeasurement()
        let checksum = run.withTable { table in
            var checksum: UInt64 = 0
            for r in batch { checksum &+= RecordRun.apply(r, to: &table) }
            return checksum
        }
        benchmark.stopMeasurement()
        blackHole(checksum)
    } setup: {
        RecordRun(enricher: try ConstantEnricher(), eventsPerBatch: false)
    }

    // The thread-safe facade (64 shards, a mutex each) from one thread, constant enricher: the
    // decision plus the shard choice and an uncontended lock.
    Benchmark("LocationEngine ingest", configuration: countingAccepted) { benchmark, run in
        let batch = run.nextBatch()
        benchmark.startMeasurement()
        var checksum: UInt64 = 0, accepted = 0
        for r in batch {
            let decision = run.engine.ingest(r.fix, session: r.session)
            checksum &+= decision.checksum
            if case .accepted = decision { accepted += 1 }
        }
        benchmark.stopMeasurement()
        benchmark.measurement(StreamMetric.acceptedFixes, accepted)
        blackHole(checksum)
    } setup: {
        try EngineRun { try ConstantEnricher() }
    }

    memoryBenchmarks()
}

/// Custom metrics of the stream benchmarks: what the engine answered, per iteration of 1,000
/// fixes (events), counted in the measured loop at the cost of an addition.
enum StreamMetric {
    static let acceptedFixes = BenchmarkMetric.custom("accepted fixes", polarity: .prefersLarger, useScalingFactor: false)
    static let locatedEvents = BenchmarkMetric.custom("located events", polarity: .prefersLarger, useScalingFactor: false)
}

/// Custom metrics of the memory benchmarks (bytes, or sessions).
enum MemoryMetric {
    static let residentBytes = BenchmarkMetric.custom("resident bytes", polarity: .prefersSmaller, useScalingFactor: false)
    static let peakResidentBytes = BenchmarkMetric.custom("peak resident bytes", polarity: .prefersSmaller, useScalingFactor: false)
    static let liveSessions = BenchmarkMetric.custom("live sessions", polarity: .prefersSmaller, useScalingFactor: false)
}

func memoryBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, MemoryMetric.residentBytes,
                                      MemoryMetric.peakResidentBytes, MemoryMetric.liveSessions]

    // One million sessions, one accepted fix each, all live: resident memory once the table holds
    // them all, above what the process held before (the enricher open, no table), and the peak
    // while filling (growth copies included). The table fills 250,000 sessions per iteration and
    // reports after the fourth. Ids and fixes are made as the table fills, as a parser would make
    // them, so a heap-allocated id counts (with the 16-byte header that the malloc interposer
    // linked into benchmark executables adds to every allocation).
    let iterationsPerMillion = MemoryInputs.liveSessions / MemoryInputs.sessionsPerIteration
    let million = Benchmark.Configuration(metrics: metrics, timeUnits: .milliseconds, warmupIterations: 0,
                                          scalingFactor: .one, maxDuration: .seconds(600),
                                          maxIterations: iterationsPerMillion)
    for (name, form) in [("engine memory, 1M live sessions", MemoryInputs.IDForm.short),
                         ("engine memory, 1M live sessions, 27-character ids", .clickstream)] {
        Benchmark(name, configuration: million) { benchmark, fill in
            fill.fill()
            guard fill.sessions == MemoryInputs.liveSessions else { return }
            benchmark.measurement(MemoryMetric.residentBytes, ResidentMemory.current() - fill.baseline)
            benchmark.measurement(MemoryMetric.peakResidentBytes, ResidentMemory.peak() - fill.baseline)
            benchmark.measurement(MemoryMetric.liveSessions, fill.liveSessions)
        } setup: {
            try SessionFill(form: form, sessionsPerSecond: MemoryInputs.liveSessionsPerSecond)
        }
    }

    // An endless stream of short sessions: one fix each, one session per millisecond of stream
    // time. The first million are warm-up (the table growing to its steady size); then resident
    // memory and live sessions are sampled after every 250,000 more, four million in all: their
    // spread over the samples (p0 to p100) should be small and not grow.
    let endless = Benchmark.Configuration(metrics: metrics, timeUnits: .milliseconds,
                                          warmupIterations: MemoryInputs.endlessWarmupIterations,
                                          scalingFactor: .one, maxDuration: .seconds(600),
                                          maxIterations: MemoryInputs.endlessIterations)
    Benchmark("engine memory, endless short sessions", configuration: endless) { benchmark, fill in
        fill.fill()
        benchmark.measurement(MemoryMetric.residentBytes, ResidentMemory.current() - fill.baseline)
        benchmark.measurement(MemoryMetric.peakResidentBytes, ResidentMemory.peak() - fill.baseline)
        benchmark.measurement(MemoryMetric.liveSessions, fill.liveSessions)
    } setup: {
        try SessionFill(form: .short, sessionsPerSecond: MemoryInputs.endlessSessionsPerSecond)
    }
}

/// One iteration of an ingest benchmark: the next batch of fixes through the table, timed, with
/// the count of accepted fixes recorded. Shared by the decision-only and enriched benchmarks,
/// which differ only in their enricher.
@inline(__always)
func ingestBatch<Enricher: FixEnricher>(_ benchmark: Benchmark, _ run: IngestRun<Enricher>) {
        let batch = run.nextBatch()
        benchmark.startMeasurement()
        let (checksum, accepted) = run.withTable { table in
            var checksum: UInt64 = 0, accepted = 0
            for r in batch {
                let decision = table.ingest(r.fix, session: r.session)
                checksum &+= decision.checksum
                if case .accepted = decision { accepted += 1 }
            }
            return (checksum, accepted)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(StreamMetric.acceptedFixes, accepted)
        blackHole(checksum)
}
