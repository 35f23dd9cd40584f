import Benchmark
import EnrichEngine
import Foundation
import GeoLookup
import H3Core
import RecordCodec

/// One record of the generated stream, parsed and validated as the CLI would before the engine
/// sees it: a fix (with its session) or an event (a session and a time).
struct StreamRecord: Sendable {
    let session: SessionID
    /// The record's timestamp in epoch milliseconds.
    let time: Int64
    /// The fix, for a `"type":"location"` record; `nil` for an event.
    let fix: Fix?
}

/// The stream every stream benchmark draws from, built once per benchmark process in a `setup`
/// closure, so neither generating nor parsing it is measured.
///
/// The stream is `gen_stream.py`'s (the "realistic stream"): `count` lines from 2,000
/// sessions walking, cycling and driving through 12 Canadian cities, time-ordered, 45 % fixes
/// (about 30 % of them accepted under the default rules), the rest events. It is written once to
/// `benchmarks/output/` (the Makefile does it before the run; a benchmark run on its own does it in
/// its first setup) and parsed here with Foundation's JSONSerialization.
enum EngineInputs {
    /// Lines in the generated stream: `gen_stream.py 1000000`.
    static let count = 1_000_000

    /// Operations (fixes, events or records) per measured iteration; results are reported per
    /// operation. `render_results.py` divides by the same number (`OPERATIONS_PER_ITERATION`).
    static var scalingFactor: BenchmarkScalingFactor { .kilo }

    /// The benchmark package's directory, found from this file's path.
    static let packageDirectory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The repository's `data/`.
    static let dataDirectory = packageDirectory.deletingLastPathComponent().appendingPathComponent("data").path

    /// The generator: `$GEN_STREAM`, or the shared bench's copy.
    static let generator = ProcessInfo.processInfo.environment["GEN_STREAM"] ?? "/work/shared/bench/gen_stream.py"

    /// Where the stream is kept between benchmark processes (the Makefile writes the same path).
    static let streamFile = packageDirectory.appendingPathComponent("output/engine_stream.ndjson")

    /// The bundled data, opened once per process.
    static let lookup: LocationLookup = {
        do {
            return try LocationLookup(dataDirectory: dataDirectory)
        } catch {
            fatalError("cannot open the lookup data in \(dataDirectory): \(error); rebuild it with ./scripts/data/build_data.sh")
        }
    }()

    /// Every record of the stream, in stream order.
    static let records: [StreamRecord] = {
        do {
            if !FileManager.default.fileExists(atPath: streamFile.path) { try generate() }
            return try parse(Data(contentsOf: streamFile))
        } catch {
            fatalError("cannot prepare the stream \(streamFile.path): \(error)")
        }
    }()

    /// The stream's fixes with their sessions, in stream order.
    static let fixes: [(fix: Fix, session: SessionID)] = records.compactMap { r in r.fix.map { ($0, r.session) } }

    /// Runs `python3 gen_stream.py count` into a temporary file and renames it into place, so a
    /// concurrent or interrupted run never sees half a stream.
    static func generate() throws {
        let directory = streamFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("engine_stream.\(ProcessInfo.processInfo.processIdentifier).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot create \(partial.path)"])
        }
        let output = try FileHandle(forWritingTo: partial)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator, String(count)]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(generator) exited with \(process.terminationStatus)"])
        }
        _ = try? FileManager.default.removeItem(at: streamFile)
        try FileManager.default.moveItem(at: partial, to: streamFile)
    }

    /// Parses the NDJSON lines of `data` with the product's own ``RecordParser`` (the contract's
    /// validation and timestamp rules): a `location` record becomes a validated ``Fix``, any other
    /// record an event. Session ids are interned, as one parser's would be per line anyway: ids
    /// of up to 15 bytes are stored inline in the `String`, so it makes no difference.
    static func parse(_ data: Data) throws -> [StreamRecord] {
        var interned: [String: SessionID] = [:]
        var records: [StreamRecord] = []
        let parser = RecordParser()
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            defer { start = end + 1 }
            guard end > start else { continue }
            guard case .record(let r) = parser.parse(data[start..<end]) else { throw CocoaError(.propertyListReadCorrupt) }
            let session = interned[r.sessionID] ?? SessionID(r.sessionID)!
            interned[r.sessionID] = session
            var fix: Fix?
            if let f = r.fix {
                // the numbers as the stream's records wrote them, as `enrich` gives them to the engine
                fix = try Fix(latitude: f.latitude, longitude: f.longitude, accuracy: f.accuracy,
                              timestamp: Timestamp(milliseconds: r.timestamp))
            }
            records.append(StreamRecord(session: session, time: r.timestamp, fix: fix))
        }
        return records
    }

    /// How far each lap of a cycling benchmark moves the stream in time: its span, plus the
    /// eviction delay and one expiry, so a lap starts as the first did (every session new to the
    /// table, the previous lap's sessions evicted as the sweep reaches them).
    static func lapShift(configuration: EngineConfiguration) -> Int64 {
        guard let first = records.first?.time, let last = records.last?.time else { return 0 }
        return last - first + configuration.effectiveEvictAfter + configuration.expiry
    }
}

/// An enricher that returns one fixed answer (the contract example's: Winnipeg's H3 cell, CA and
/// R3C 4L9 at 19.7 m, computed once with the real lookup), so that a benchmark measures the
/// engine's decision and bookkeeping alone, with an enrichment of realistic shape.
struct ConstantEnricher: FixEnricher {
    let answer: Enrichment

    init() throws {
        var real = try StandardEnricher(lookup: EngineInputs.lookup, resolution: .finest)
        answer = real.enrich(ReportedPosition(latitude: .double(49.888171), longitude: .double(-97.131112), accuracy: nil),
                             at: Timestamp(milliseconds: 0))
    }

    /// The fix's own position and time with the fixed place.
    @inline(__always)
    mutating func enrich(_ position: ReportedPosition, at timestamp: Timestamp) -> Enrichment {
        Enrichment(position: position, fixTimestamp: timestamp, h3: answer.h3, country: answer.country,
                   postal: answer.postal)
    }
}

extension Enrichment {
    /// The enrichment folded into 64 bits, so the optimiser cannot drop the work.
    @inline(__always)
    var checksum: UInt64 {
        fixTimestamp.milliseconds.magnitude &+ h3.rawValue &+ UInt64(postal?.code.packed ?? 0)
    }
}

extension FixDecision {
    /// The decision folded into 64 bits.
    @inline(__always)
    var checksum: UInt64 {
        switch self {
        case .accepted(let e): e.checksum
        case .rejected(.distance): 1
        case .rejected(.stale): 2
        case .rejected: 3
        }
    }
}
