import ArgumentParser
import EnrichEngine
import EnrichStream
import GeoEnrichOptions
import GeoLookup
import LocationPush

/// `enrich`'s geofence options (contract rule 11).
struct GeofenceOptions: ParsableArguments {
    @Option(name: .customLong("geofences"), help: ArgumentHelp(
        "GeoJSON fences (a FeatureCollection, or one Feature a line): each accepted fix's geo gets \"geofences\":[ids] last, and the sessions' enter and exit transitions are counted (contract rule 11). A broken file is refused before any input is read.",
        valueName: "file"))
    var geofences: String?

    @Option(name: .customLong("geofence-events"), help: ArgumentHelp(
        "Write each geofence transition to this file, one JSON object a line in input order: {\"session_id\",\"fence\",\"transition\",\"timestamp\",\"latitude\",\"longitude\"}.",
        valueName: "file"))
    var events: String?

    @Option(name: .customLong("geofence-dwell"), parsing: .unconditional, help: ArgumentHelp(
        "Also give a dwell transition once per stay, at the first accepted fix at least this many seconds after the stay's enter.",
        valueName: "seconds"))
    var dwell: Double?

    @Option(name: .customLong("geofence-webhook"), help: ArgumentHelp(
        "POST each geofence transition (the JSON object of --geofence-events) to this http(s) URL with X-API-Key (the push's key), every one at least once and in order per session, retried as the push is (--push-max-in-flight, --push-retry-time, --push-timeout, --push-drain-timeout).",
        valueName: "url"))
    var webhook: String?

    @Option(name: .customLong("geofence-dead-letter"), help: ArgumentHelp(
        "Where undelivered transitions are written (NDJSON), if any; `geo-enrich push --replay FILE --geofence-webhook URL` sends them again.",
        valueName: "file"))
    var deadLetter: String = "geo-enrich-geofence-dead-letter.ndjson"

    @Option(name: .customLong("geofence-queue"), parsing: .unconditional, help: ArgumentHelp(
        "Transitions the webhook holds undelivered at most; when full, the stream waits for it.", valueName: "count"))
    var queue: Int = 10_000

    func validate() throws {
        if geofences == nil && (events != nil || dwell != nil || webhook != nil) {
            throw ValidationError("--geofence-events, --geofence-dwell and --geofence-webhook need --geofences")
        }
        guard queue >= 1 else { throw ValidationError("--geofence-queue must be at least 1, not \(queue)") }
        if let dwell, !(dwell.isFinite && dwell >= 0 && dwell < 1e12) {
            throw ValidationError("--geofence-dwell must be a non-negative number of seconds, not \(dwell)")
        }
    }

    /// Milliseconds of the dwell time, when given.
    var dwellMilliseconds: Int64? { dwell.map { Int64(($0 * 1000).rounded()) } }

    /// The webhook, or `nil` without `--geofence-webhook`.
    /// - Throws: `ValidationError` for a bad URL or a missing key (never shown).
    func makeWebhook(_ push: PushOptions) throws -> TransitionWebhook? {
        guard let webhook else { return nil }
        return try Self.makeWebhook(url: webhook, push: push, capacity: queue)
    }

    /// A webhook posting to `url` with the push's key and policy (also `push --replay`'s).
    /// - Throws: `ValidationError` for a bad URL or a missing key (never shown).
    static func makeWebhook(url: String, push: PushOptions, capacity: Int) throws -> TransitionWebhook {
        let key = try push.apiKey(for: "--geofence-webhook")
        let endpoint: WebhookEndpoint
        do { endpoint = try WebhookEndpoint(url: url, apiKey: key) } catch { throw ValidationError("\(error)") }
        return TransitionWebhook(endpoint: endpoint, policy: push.policy, capacity: capacity)
    }

    /// Drains `webhook` for `timeout` seconds, writes its dead letters (if any) to
    /// `--geofence-dead-letter`, closes it.
    /// - Returns: the webhook's figures and the number of dead letters written.
    func finish(_ webhook: TransitionWebhook, timeout: Double) throws -> (TransitionScheduler.Statistics, Int) {
        try Self.finish(webhook, timeout: timeout, deadLetter: deadLetter)
    }

    /// ``finish(_:timeout:)`` with the dead-letter file given (also `push --replay`'s).
    static func finish(_ webhook: TransitionWebhook, timeout: Double, deadLetter: String) throws -> (TransitionScheduler.Statistics, Int) {
        StopSignals.draining.store(true, ordering: .relaxed)
        defer { StopSignals.draining.store(false, ordering: .relaxed) }
        let letters = blocking { await webhook.drain(timeout: timeout, interrupted: { StopSignals.drainInterrupted }) }
        blocking { try? await webhook.shutdown() }
        if !letters.isEmpty {
            do {
                let file = try OutputFile(path: deadLetter)
                for letter in letters {
                    let line = DeadLetterFile.line(letter, kind: DeadLetterFile.geofenceTransitionKind)
                    try file.appendLine(String(decoding: line.dropLast(), as: UTF8.self))
                }
                try file.flush()
            } catch {
                StandardError.line("geo-enrich: \(error)")
                throw ExitCode(1)
            }
        }
        return (webhook.statistics, letters.count)
    }

    /// The statistics' webhook keys (with a webhook only).
    static func statisticsKeys(_ s: TransitionScheduler.Statistics?) -> [(key: String, json: String)] {
        guard let s else { return [] }
        return [("geofence_webhook", #"{"delivered":\#(s.delivered),"retries":\#(s.retries),"failed":\#(s.failed)}"#)]
    }
}

/// Feeds transitions to the webhook (waits while its queue is full).
struct WebhookSink: GeofenceTransitionSink {
    let webhook: TransitionWebhook
    func transition(session: SessionID, body: [UInt8]) { webhook.submit(session: session, body: body) }
}
