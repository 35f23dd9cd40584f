import AsyncHTTPClient
import Foundation
import GeoEnrich
import Hummingbird
import IngestServiceCore
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
import ServiceLifecycle
import Synchronization
import Testing

/// The service over real HTTP on loopback, driven by async-http-client: its answers and its
/// output equal `geo-enrich enrich` on the same records; bad bodies are 400s with the bad-line
/// code; a wrong key is a 401 and never logged; SIGTERM loses no accepted request.
@Suite(.serialized) struct IngestServiceTests {
    static let key = "ingest-test-key-5c1e"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = repository.appendingPathComponent("Examples/IngestService")

    /// geo-enrich's own CLI: `GEO_ENRICH_BIN`, else the repository's release or debug build.
    static func cli() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["GEO_ENRICH_BIN"] { return bin }
        for build in ["release", "debug"] {
            let path = repository.appendingPathComponent(".build/\(build)/geo-enrich").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure("geo-enrich is not built: run `swift build -c release --product geo-enrich` in \(repository.path)")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(name)-\(UUID().uuidString)").path
    }

    /// Runs the application on a free loopback port for the length of `body`, then shuts it down
    /// gracefully (which flushes the output).
    static func withService(output: String, logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                            registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                            _ body: @Sendable (Int) async throws -> Void) async throws {
        var configuration = IngestConfiguration(apiKey: key, dataDirectory: repository.appendingPathComponent("data").path,
                                                outputPath: output)
        configuration.port = 0
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = try IngestApplication.make(configuration, logger: logger, registry: registry) { port in
            portSink.yield(port)
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw Failure("the server did not start") }
            do {
                try await body(port)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static func send(_ client: HTTPClient, _ method: HTTPMethod, _ url: String, _ body: String,
                     key: String? = IngestServiceTests.key) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        if let key { request.headers.add(name: "X-API-Key", value: key) }
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// A seeded workload: per session, location updates wandering near a city and track events,
    /// times rising; each request is (method, path, body).
    static func workload(seed: UInt64, sessions: Int, perSession: Int) -> [[(HTTPMethod, String, String)]] {
        var rng = SeededGenerator(seed: seed)
        let cities = [(43.6532, -79.3832), (49.8951, -97.1384), (40.7128, -74.0060), (45.5019, -73.5674)]
        return (0..<sessions).map { s in
            let session = "s-\(s)-\(seed % 1000)"
            let city = cities[s % cities.count]
            var time: Int64 = 1_764_237_600_000 + Int64(s) * 7
            var last = city
            return (0..<perSession).map { _ in
                // now and then a fix from before the last one (stale)
                time += Int.random(in: 0..<10, using: &rng) == 0 ? -5_000 : Int64.random(in: 200...30_000, using: &rng)
                if Bool.random(using: &rng) {
                    // a quarter of the fixes within metres of the last one (distance)
                    let near = Int.random(in: 0..<4, using: &rng) == 0
                    let spread = near ? 0.0002 : 0.01
                    let lat = (near ? last.0 : city.0) + Double.random(in: -spread...spread, using: &rng)
                    let lng = (near ? last.1 : city.1) + Double.random(in: -spread...spread, using: &rng)
                    last = (lat, lng)
                    let accuracy = Int.random(in: 1...60, using: &rng)
                    return (.PUT, "/v2/tracking-session/\(session)/location",
                            #"{"latitude":\#(lat),"longitude":\#(lng),"accuracy":\#(accuracy),"timestamp":\#(time)}"#)
                }
                return (.POST, "/v2/tracking-session-data",
                        #"{"brand_id":925,"session_id":"\#(session)","event_name":"TAP","data":{"screen":"home"},"timestamp":\#(time)}"#)
            }
        }
    }

    /// The line the service makes of a request (the session of a location update's path added
    /// before the final `}`; these bodies all carry their timestamp).
    static func line(_ request: (HTTPMethod, String, String)) -> String {
        guard request.0 == .PUT else { return request.2 }
        let session = request.1.split(separator: "/")[2]
        return String(request.2.dropLast()) + #","session_id":"\#(session)"}"#
    }

    @Test func answersAndOutputEqualEnrichOnTheSameRecords() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("IngestServiceTests.answersAndOutput seed \(seed)")
        let sessions = Self.workload(seed: seed, sessions: 48, perSession: 30)
        let output = Self.scratch("out")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        // answers[s][i]: the answer to session s's request i
        let answers = Locked<[Int: [(status: Int, body: String)]]>([:])
        try await Self.withService(output: output) { port in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for lane in 0..<8 {
                    tasks.addTask {
                        for s in stride(from: lane, to: sessions.count, by: 8) {
                            var mine: [(Int, String)] = []
                            for request in sessions[s] {
                                mine.append(try await Self.send(client, request.0, "http://127.0.0.1:\(port)\(request.1)", request.2))
                            }
                            answers.withLock { $0[s] = mine.map { (status: $0.0, body: $0.1) } }
                        }
                    }
                }
                try await tasks.waitForAll()
            }
        }
        try await client.shutdown()

        // the same records through `geo-enrich enrich --format mobiletracker`: with
        // --emit-rejected one output line per record (a rejected fix's line as it came, in the SDK
        // formats), so that answers line up; without it, what the output file must hold
        let lines = sessions.flatMap { $0.map(Self.line) }
        let (reference, _) = try Self.enrich(lines, format: "mobiletracker", emitRejected: true)
        #expect(reference.count == lines.count, "one output line per record with --emit-rejected")
        let (expectedOutput, statistics) = try Self.enrich(lines, format: "mobiletracker", emitRejected: false)
        let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Set(written) == Set(expectedOutput) && written.count == expectedOutput.count,
                "seed \(seed): \(written.count) lines written, \(expectedOutput.count) expected")

        var k = 0
        let all = answers.withLock { $0 }
        var accepted = 0, rejected = 0, eventsWithGeo = 0
        var reasons: [String: Int] = [:]
        for (s, requests) in sessions.enumerated() {
            for (i, request) in requests.enumerated() {
                let answer = try #require(all[s]?[i])
                let enriched = reference[k]
                k += 1
                #expect(answer.status == 200, "seed \(seed): \(request.1) → \(answer)")
                if request.0 == .PUT {
                    if let reason = answer.body.wholeMatch(of: /\{"accepted":false,"reason":"([a-z]+)"\}/)?.1 {
                        #expect(!enriched.contains(#""geo":"#), "seed \(seed): \(answer.body) against \(enriched)")
                        reasons[String(reason), default: 0] += 1
                        rejected += 1
                    } else {
                        let geo = try #require(answer.body.firstMatch(of: /^\{"accepted":true,"geo":(.*)\}$/)?.1,
                                               "seed \(seed): \(answer.body) against \(enriched)")
                        #expect(enriched.hasSuffix(#","geo":\#(geo)}"#), "seed \(seed): \(answer.body) against \(enriched)")
                        accepted += 1
                    }
                } else {
                    let geo = try #require(answer.body.firstMatch(of: /^\{"geo":(.*)\}$/)?.1)
                    if geo == "{}" {
                        #expect(!enriched.contains(#""geo":"#), "seed \(seed)")
                    } else {
                        #expect(enriched.contains(#""geo":\#(geo)"#), "seed \(seed): \(answer.body) against \(enriched)")
                        eventsWithGeo += 1
                    }
                }
            }
        }
        // the reasons, against enrich's statistics
        for reason in ["distance", "stale", "accuracy", "consent"] {
            let counted = try statistics.firstMatch(of: Regex(#""\#(reason)":([0-9]+)"#))
            #expect(counted.map { Int($0.output[1].substring!)! } == reasons[reason, default: 0],
                    "seed \(seed): \(reason): \(reasons) against \(statistics)")
        }
        #expect(accepted > 100 && rejected > 20 && eventsWithGeo > 100,
                "seed \(seed): a workload that tests something: \(accepted) accepted, \(reasons), \(eventsWithGeo) events with geo")
    }

    @Test func badBodiesAre400sWithTheReasonAndAWrongKeyIsA401NeverLogged() async throws {
        let output = Self.scratch("bad")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let sink = LogSink()
        var logger = Logger(label: "test") { _ in sink }
        logger.logLevel = .debug
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await Self.withService(output: output, logger: logger) { port in
            let base = "http://127.0.0.1:\(port)"
            let cases: [(HTTPMethod, String, String, String)] = [
                (.PUT, "/v2/tracking-session/a/location", #"{"latitude":43.6,"longitude":-79.3"#, "invalid_json"),
                (.PUT, "/v2/tracking-session/a/location", #"{"latitude":91,"longitude":-79.3}"#, "bad_coordinates"),
                (.PUT, "/v2/tracking-session/a/location", #"{"accuracy":5}"#, "missing_location"),
                (.PUT, "/v2/tracking-session/a/location", #"{"latitude":43.6,"longitude":-79.3,"session_id":"b"}"#, "session_id_mismatch"),
                (.PUT, "/v2/tracking-session/a/location", #"{"latitude":43.6,"longitude":-79.3,"timestamp":"yesterday"}"#, "bad_timestamp"),
                (.POST, "/v2/tracking-session-data", #"{"brand_id":925,"event_name":"TAP"}"#, "missing_session_id"),
                (.POST, "/v2/tracking-session-data", #"[1,2]"#, "not_an_object"),
                (.POST, "/v2/tracking-session", #"not json"#, "not_an_object"),
                (.POST, "/eqworks/batch", #"{"cmd":"batch","batch_info":7}"#, "bad_batch"),
            ]
            for (method, path, body, reason) in cases {
                let answer = try await Self.send(client, method, base + path, body)
                #expect(answer.status == 400 && answer.body == #"{"reason":"\#(reason)"}"#, "\(path) \(body): \(answer)")
            }
            for key in [nil, "wrong-key", Self.key + "x"] {
                let answer = try await Self.send(client, .PUT, base + "/v2/tracking-session/a/location",
                                                 #"{"latitude":43.6,"longitude":-79.3}"#, key: key)
                #expect(answer.status == 401 && answer.body == #"{"reason":"unauthorized"}"#)
            }
            let created = try await Self.send(client, .POST, base + "/v2/tracking-session",
                                              #"{"device_id":"d-1","os_name":"iOS","device_type":"Mobile","brand_id":925}"#)
            #expect(created.status == 200 && created.body.wholeMatch(of: /\{"data":\{"id":"[0-9a-f-]{36}"\}\}/) != nil, "\(created)")
            // without a timestamp, the time of receipt
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            let fix = try await Self.send(client, .PUT, base + "/v2/tracking-session/t/location", #"{"latitude":49.9,"longitude":-97.1}"#)
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(fix.body.hasPrefix(#"{"accepted":true,"#))
            let health = try await Self.send(client, .GET, base + "/health", "", key: nil)
            #expect(health.status == 200 && health.body == #"{"status":"ok"}"#)
            let written = try await Self.eventually(output) { $0.contains(#""session_id":"t""#) }
            let stamp = try #require(written.firstMatch(of: /"session_id":"t","timestamp":([0-9]+)/)?.1)
            #expect((before...after).contains(Int64(stamp)!), "\(stamp) not within \(before)...\(after)")
        }
        try await client.shutdown()
        let log = sink.lines.joined(separator: "\n")
        #expect(!log.contains(Self.key) && !log.contains("wrong-key"), "a key in the log")
        #expect(log.contains("invalid_json"), "bad lines are logged at debug with their reason")
    }

    /// Waits (at most 5 s) until the output file holds what `ready` wants: it is flushed at least
    /// every 200 ms while the service runs.
    static func eventually(_ path: String, _ ready: (String) -> Bool) async throws -> String {
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), ready(text) { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure("\(path) never held what was expected")
    }

    @Test func metricsCountWhatWasDecided() async throws {
        let output = Self.scratch("metrics")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await Self.withService(output: output) { port in
            let base = "http://127.0.0.1:\(port)"
            for (n, lat) in [43.6532, 43.6533, 43.7, 43.8].enumerated() {
                _ = try await Self.send(client, .PUT, base + "/v2/tracking-session/m/location",
                                        #"{"latitude":\#(lat),"longitude":-79.38,"timestamp":\#(1_764_237_600_000 + n * 1000)}"#)
            }
            let metrics = try await Self.send(client, .GET, base + "/metrics", "", key: nil)
            #expect(metrics.status == 200)
            #expect(metrics.body.contains("geo_enrich_fixes_accepted_total 3"), "\(metrics.body)")
            #expect(metrics.body.contains(#"geo_enrich_fixes_rejected_total{reason="distance"} 1"#))
            #expect(metrics.body.contains("geo_enrich_line_duration_seconds_count"))
        }
        try await client.shutdown()
    }

    /// The executable under SIGTERM while requests are under way: it answers what it accepted,
    /// writes every accepted record, and exits 0.
    @Test func sigtermLosesNoAcceptedRequest() async throws {
        let binary = Self.example.appendingPathComponent(".build/debug/IngestService").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure("\(binary) is not built: run `swift build --package-path Examples/IngestService` first")
        }
        let output = Self.scratch("sigterm")
        let keyFile = Self.scratch("key")
        try Self.key.write(toFile: keyFile, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: keyFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--api-key-file", keyFile, "--data", Self.repository.appendingPathComponent("data").path,
                             "--output", output, "--log-level", "warning"]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        var heard = Data()
        while !String(decoding: heard, as: UTF8.self).contains("\n") {
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure("IngestService ended before it listened") }
            heard += chunk
        }
        let port = try #require(String(decoding: heard, as: UTF8.self).firstMatch(of: /:([0-9]+)\n/)?.1)

        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let accepted = Locked<[String]>([])
        let sent = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for lane in 0..<8 {
                tasks.addTask {
                    for n in 0..<100_000 {
                        let session = "sig-\(lane)-\(n)"
                        sent.withLock { $0 += 1 }
                        guard let answer = try? await Self.send(
                            client, .PUT, "http://127.0.0.1:\(port)/v2/tracking-session/\(session)/location",
                            #"{"latitude":43.65,"longitude":-79.38,"timestamp":1764237600000}"#) else { return }
                        guard answer.status == 200 else { return }
                        if answer.body.hasPrefix(#"{"accepted":true"#) { accepted.withLock { $0.append(session) } }
                    }
                }
            }
            tasks.addTask {
                while sent.withLock({ $0 }) < 400 { try await Task.sleep(for: .milliseconds(5)) }
                process.terminate()  // SIGTERM, with requests under way on every lane
            }
            try await tasks.waitForAll()
        }
        try await client.shutdown()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let written = Set(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            .compactMap { $0.firstMatch(of: /"session_id":"([^"]+)"/).map { String($0.1) } })
        let answered = accepted.withLock { $0 }
        // SIGTERM went when the lanes had sent 400: each lane sends its next request only once the
        // last is answered, so at most one a lane (8) was in flight, and those may be refused
        #expect(answered.count >= 400 - 8, "\(answered.count) accepted answers")
        let lost = answered.filter { !written.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) accepted requests not in the output, e.g. \(lost.prefix(3))")
    }

    /// `geo-enrich enrich` on `lines`: its output lines and its statistics (JSON).
    static func enrich(_ lines: [String], format: String, emitRejected: Bool) throws -> ([String], String) {
        let input = scratch("in")
        let out = scratch("ref")
        let stats = scratch("stats")
        defer {
            for file in [input, out, stats] { try? FileManager.default.removeItem(atPath: file) }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try cli())
        process.arguments = ["enrich", "--format", format, "--quiet", "-o", out, "--stats", stats, "--data",
                             repository.appendingPathComponent("data").path, input] + (emitRejected ? ["--emit-rejected"] : [])
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure("geo-enrich enrich exited \(process.terminationStatus)") }
        return (try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init),
                try String(contentsOfFile: stats, encoding: .utf8))
    }
}

/// SplitMix64: a seeded generator, so that a failing workload can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// A value shared by the test's tasks, behind a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

/// A log handler that keeps what it is given.
final class LogSink: LogHandler, Sendable {
    private let kept = Mutex<[String]>([])
    private let level = Mutex<Logger.Level>(.info)
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    var lines: [String] { kept.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        let text = "\(event.level) \(event.message) \(event.metadata ?? [:])"
        kept.withLock { $0.append(text) }
    }
}
