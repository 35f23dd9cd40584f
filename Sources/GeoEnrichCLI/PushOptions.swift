import ArgumentParser
import Dispatch
import EnrichStream
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import LocationPush
import Synchronization

/// The push options shared by `enrich` and `push`.
struct PushOptions: ParsableArguments {
    @Option(name: .customLong("push-url"), help: "Push each accepted fix to PUT <url>/v2/tracking-session/{session}/location (http or https). The API key comes from $GEO_ENRICH_API_KEY or --api-key-file, never from an argument.")
    var pushURL: String?

    @Option(name: .customLong("api-key-file"), help: "A file holding the push API key (else $GEO_ENRICH_API_KEY).")
    var apiKeyFile: String?

    @Option(name: .customLong("push-drain-timeout"), help: "Seconds to wait at the end for the pushes still under way.")
    var pushDrainTimeout: Double = 30

    @Option(name: .customLong("push-dead-letter"), help: "Where undelivered updates are written (NDJSON), if any.")
    var pushDeadLetter: String = "geo-enrich-dead-letter.ndjson"

    @Option(name: .customLong("push-max-in-flight"), help: "Requests in flight at most.")
    var pushMaxInFlight: Int = 64

    @Option(name: .customLong("push-retry-time"), help: "Seconds an update may be retried before it goes to the dead-letter file.")
    var pushRetryTime: Double = 300

    @Option(name: .customLong("push-timeout"), help: "Seconds a request may take.")
    var pushTimeout: Double = 10

    func validate() throws {
        guard pushDrainTimeout.isFinite, pushDrainTimeout >= 0 else { throw ValidationError("--push-drain-timeout must be a non-negative number of seconds") }
        guard (1...4096).contains(pushMaxInFlight) else { throw ValidationError("--push-max-in-flight must be 1 to 4096") }
        guard pushRetryTime.isFinite, pushRetryTime >= 0 else { throw ValidationError("--push-retry-time must be a non-negative number of seconds") }
        guard pushTimeout.isFinite, pushTimeout > 0 else { throw ValidationError("--push-timeout must be a positive number of seconds") }
    }

    /// The pusher, or `nil` without `--push-url`.
    /// - Throws: `ValidationError` (exit 64) for a bad URL or a missing key; the key itself is
    ///   never part of a message.
    func makePusher() throws -> LocationPusher? {
        guard let pushURL else { return nil }
        let keyText: String
        if let apiKeyFile {
            guard let text = try? String(contentsOfFile: apiKeyFile, encoding: .utf8) else {
                throw ValidationError("cannot read the API key file \(apiKeyFile)")
            }
            keyText = text
        } else if let env = ProcessInfo.processInfo.environment["GEO_ENRICH_API_KEY"] {
            keyText = env
        } else {
            throw ValidationError("--push-url needs an API key: set GEO_ENRICH_API_KEY or give --api-key-file")
        }
        if let problem = APIKey.problem(keyText) {
            throw ValidationError("the API key (\(apiKeyFile.map { "from \($0)" } ?? "from GEO_ENRICH_API_KEY")) cannot be used: \(problem)")
        }
        guard let key = APIKey(keyText) else { throw ValidationError("the API key cannot be used") }
        let endpoint: PushEndpoint
        do { endpoint = try PushEndpoint(baseURL: pushURL, apiKey: key) } catch { throw ValidationError("\(error)") }
        var policy = PushPolicy()
        policy.maxInFlight = pushMaxInFlight
        policy.maxRetryTime = pushRetryTime
        policy.requestTimeout = pushTimeout
        return LocationPusher(endpoint: endpoint, policy: policy)
    }

    /// Drains `pusher`, writes the dead letters (if any), closes it.
    /// - Returns: the push figures and the number of dead letters written.
    func finish(_ pusher: LocationPusher) throws -> (PushStatistics, Int) {
        let timeout = pushDrainTimeout
        // a SIGINT or SIGTERM while draining ends the wait: the rest become dead letters
        StopSignals.draining.store(true, ordering: .relaxed)
        defer { StopSignals.draining.store(false, ordering: .relaxed) }
        let letters = blocking { await pusher.drain(timeout: timeout, interrupted: { StopSignals.drainInterrupted }) }
        blocking { try? await pusher.shutdown() }
        if !letters.isEmpty {
            do {
                let file = try OutputFile(path: pushDeadLetter)
                for letter in letters { try file.appendLine(String(decoding: DeadLetterFile.line(letter).dropLast(), as: UTF8.self)) }
                try file.flush()
            } catch {
                StandardError.line("geo-enrich: \(error)")
                throw ExitCode(1)
            }
        }
        return (pusher.statistics, letters.count)
    }

    /// The statistics' push keys.
    static func statisticsKeys(_ s: PushStatistics?) -> [(key: String, json: String)] {
        let keys = [("pushed", "\(s?.pushed ?? 0)"), ("push_retries", "\(s?.retries ?? 0)"),
                    ("coalesced", "\(s?.coalesced ?? 0)"), ("push_failed", "\(s?.failed ?? 0)")]
        // with a push only: whether a signal cut its final wait short (the rest are dead letters)
        guard s != nil else { return keys }
        return keys + [("push_drain_interrupted", StopSignals.drainInterrupted ? "true" : "false")]
    }
}

/// Feeds accepted fixes to the pusher (never waits for the network).
struct PusherSink: AcceptedFixSink {
    let pusher: LocationPusher
    func accepted(session: SessionID, body: [UInt8]) { pusher.submit(session: session, body: body) }
}

/// Runs async work from the synchronous command and waits for it.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// `geo-enrich push --replay FILE`: sends a dead-letter file's updates again.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send the updates of a dead-letter file again (`--replay FILE`).",
        discussion: """
            Reads the NDJSON lines that `enrich --push-url` wrote to its dead-letter file and sends \
            each update again, in file order, with the same policy. What is still undelivered is \
            written to --push-dead-letter (it may be the same file: it is read first). Exit status \
            0 when everything was delivered, 3 when some updates are in the dead-letter file again.
            """)

    @Option(help: "The dead-letter file to send again.")
    var replay: String

    @OptionGroup var push: PushOptions

    func validate() throws {
        guard push.pushURL != nil else { throw ValidationError("push --replay needs --push-url") }
    }

    func run() throws {
        guard let pusher = try push.makePusher() else { return }
        guard let data = FileManager.default.contents(atPath: replay) else {
            StandardError.line("geo-enrich: cannot read \(replay)")
            throw ExitCode(1)
        }
        var count = 0
        for (n, line) in data.split(separator: 0x0A).enumerated() where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            guard let letter = ReplayedLetter(line: line) else {
                StandardError.line("geo-enrich: \(replay):\(n + 1): not a dead-letter line (session_id and body needed)")
                throw ExitCode(1)
            }
            pusher.submit(session: letter.session, body: Array(letter.body.utf8))
            count += 1
        }
        let (stats, failed) = try push.finish(pusher)
        StandardError.line("geo-enrich: replayed \(count) updates: \(stats.pushed) pushed, \(stats.coalesced) coalesced, "
            + "\(stats.retries) retries, \(stats.failed) failed" + (failed > 0 ? " (in \(push.pushDeadLetter))" : ""))
        if failed > 0 { throw ExitCode(3) }
    }
}
