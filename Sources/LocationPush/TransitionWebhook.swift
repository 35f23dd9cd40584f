import AsyncHTTPClient
import GeoModel
import Logging
import NIOCore
import ThreadSharing

/// Posts each geofence transition (contract rule 11, `--geofence-webhook`) to a URL, as
/// Tile38's hooks do: `POST url` with the transition's JSON object, `Content-Type:
/// application/json` and `X-API-Key`, with the policy of ``TransitionScheduler`` (every
/// transition at least once, in order per session, retried as the push is, undelivered ones to
/// ``deadLetters`` in order).
///
/// ``submit(session:body:)`` waits while ``TransitionScheduler/capacity`` transitions are
/// undelivered: the stream's writer calls it, so a slow or failing server slows the stream down
/// (backpressure) instead of growing memory or dropping transitions. Call it from a thread that
/// may block (the stream's writer thread), not from a task of the concurrency pool.
public final class TransitionWebhook: Sendable {
    public let endpoint: WebhookEndpoint
    public let policy: PushPolicy
    private let client: HTTPClient
    private let clientShutDown = Monitor(false)
    // a pthread lock and condition (see ThreadSharing): `submit` waits on it for room
    private let state: Monitor<State>
    private let clock = SchedulerClock()
    private let logger: Logger

    /// - Parameters:
    ///   - endpoint: where to post, with the key.
    ///   - policy: slots, backoff and retry budget (the push's).
    ///   - capacity: transitions undelivered at most before ``submit(session:body:)`` waits.
    ///   - logger: where to log (quiet by default): retries at `debug`, dead letters at
    ///     `warning`; never the key, never a location.
    public init(endpoint: WebhookEndpoint, policy: PushPolicy = PushPolicy(), capacity: Int = 10_000,
                logger: Logger = LocationPusher.quietLogger) {
        self.endpoint = endpoint
        self.policy = policy
        self.logger = logger
        client = HTTPClient(eventLoopGroupProvider: .singleton,
                            configuration: LocationPusher.httpClientConfiguration(policy: policy))
        state = Monitor(State(scheduler: TransitionScheduler(policy: policy, capacity: capacity)))
    }

    /// The scheduler and the transitions it gave up, under one lock: a letter is kept in the step
    /// that gives it up, so a drain that finds the scheduler idle finds every letter (as in
    /// ``LocationPusher``).
    private struct State {
        var scheduler: TransitionScheduler
        var letters: [DeadLetter] = []

        /// Runs one step of the scheduler and keeps the letters it gives up.
        mutating func step(_ body: (inout TransitionScheduler) -> [TransitionScheduler.Action]) -> [TransitionScheduler.Action] {
            let actions = body(&scheduler)
            for case .deadLetter(let letter) in actions { letters.append(letter) }
            return actions
        }
    }

    deinit {
        if !clientShutDown.withLock({ $0 }) { _ = client.shutdown() }
    }

    private var now: Double { clock.now }

    /// What the webhook has done so far.
    public var statistics: TransitionScheduler.Statistics { state.withLock { $0.scheduler.statistics } }

    /// The transitions given up so far, in the order they were given up (each session's in its
    /// order).
    public var deadLetters: [DeadLetter] { state.withLock { $0.letters } }

    /// Records a transition of `session` (its JSON object) for delivery; waits first while the
    /// webhook holds its capacity of undelivered transitions.
    public func submit(session: SessionID, body: [UInt8]) {
        let actions = state.wait(until: { $0.scheduler.hasRoom }) {
            $0.step { $0.submit(session: session, body: body, now: self.now) }
        }
        perform(actions)
    }

    /// Waits until every transition is delivered or given up, or `timeout` seconds pass, or
    /// `interrupted` (polled every 5 ms) says to stop waiting; then gives up on the rest.
    /// - Returns: every transition not delivered during the webhook's life, in order.
    public func drain(timeout: Double, interrupted: @Sendable () -> Bool = { false }) async -> [DeadLetter] {
        let reason = await clock.drainWait(timeout: timeout, isIdle: { state.withLock { $0.scheduler.isIdle } },
                                           interrupted: interrupted)
        perform(state.withLockAndWake { $0.step { $0.abandonAll(reason: reason) } })
        return deadLetters
    }

    /// Closes the webhook's connections. Safe to call more than once.
    public func shutdown() async throws {
        guard clientShutDown.withLock({ done in
            defer { done = true }
            return !done
        }) else { return }
        try await client.shutdown()
    }

    // MARK: Driving the scheduler

    private func perform(_ actions: [TransitionScheduler.Action]) {
        for action in actions {
            switch action {
            case .send(let session, let body, _):
                Task { await self.send(session: session, body: body) }
            case .wait(let session, let delay):
                logger.debug("geofence webhook retry scheduled", metadata: ["session": "\(session)", "delay_s": "\(delay)"])
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    let t = self.now
                    self.perform(self.state.withLock { $0.step { $0.retryDue(session: session, now: t) } })
                }
            case .deadLetter(let letter):
                logger.warning("geofence transition given up", metadata: ["session": "\(letter.session)",
                                                                          "reason": "\(letter.reason)"])
                // kept already, in the step (State.step)
            }
        }
    }

    private func send(session: SessionID, body: [UInt8]) async {
        let outcome = await post(body)
        let t = now
        // wakes a submit waiting for room
        perform(state.withLockAndWake { $0.step { $0.completed(session: session, outcome: outcome, now: t) } })
    }

    /// One POST, classified as the push classifies its PUTs.
    private func post(_ body: [UInt8]) async -> TransitionScheduler.Outcome {
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-API-Key", value: endpoint.apiKey.value)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(policy.requestTimeout * 1000)),
                                                    logger: logger)
            _ = try await response.body.collect(upTo: 1 << 20)
            return LocationPusher.classify(status: Int(response.status.code),
                                           retryAfter: response.headers.first(name: "Retry-After"),
                                           now: LocationPusher.unixTime())
        } catch {
            return .retryable(reason: "network: \(LocationPusher.describe(error))", retryAfter: nil)
        }
    }
}

/// Where geofence transitions are posted: one `http://` or `https://` URL, and the key.
public struct WebhookEndpoint: Sendable {
    public let url: String
    /// The API key; never printed (see ``APIKey``).
    public let apiKey: APIKey

    /// - Throws: ``PushError/invalidURL(_:reason:)`` unless `url` is an `http://` or
    ///   `https://` URL with a host, an optional port and path, and nothing else (credentials
    ///   in it would be a secret in an argument; the key goes in the header).
    public init(url: String, apiKey: APIKey) throws(PushError) {
        if var reason = PushEndpoint.problem(url) {
            if reason.contains("session's path") { reason = "a webhook URL takes no query or fragment" }
            throw .invalidURL(reason.contains("credentials") ? nil : url, reason: reason)
        }
        self.url = url
        self.apiKey = apiKey
    }
}
