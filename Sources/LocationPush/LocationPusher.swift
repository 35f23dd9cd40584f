import AsyncHTTPClient
import CoreMetrics
@_exported import GeoModel
import Logging
import NIOCore
import NIOHTTP1
import ThreadSharing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pushes accepted locations to the session-location endpoint over async-http-client, with the
/// policy of ``PushScheduler``: at most one request in flight per session, newer locations
/// coalescing older unsent ones, retries with backoff, bounded requests in flight, connections
/// kept alive.
///
/// ``submit(session:body:)`` never waits for the network: it records the update and returns
/// (call it from any thread). ``drain(timeout:interrupted:)`` waits for what is left at the end
/// of a run and hands back what could not be delivered.
///
/// In a service, run it as a swift-service-lifecycle `Service` (the conformance comes with
/// `import GeoEnrich`, so that the `geo-enrich` command does not link the lifecycle library):
/// `run()` waits for the graceful shutdown, then drains for ``drainTimeout`` seconds, logs each
/// dead letter (its session and reason, never the key or the location) and keeps them in
/// ``deadLetters``.
///
/// **Requests whose outcome is unknown.** The pusher never sends a session's older location after
/// a newer one, but a request that times out (``PushPolicy/requestTimeout``) may already be on the
/// wire, and the server may still take it after the newer location sent in its place: the
/// server's location then goes back in time. Under the thread sanitizer, with a 0.5 s timeout and
/// other work on the machine, the integration test saw it (a session's requests arrived as
/// [24, 0]). Keep the timeout well above the endpoint's slowest normal answer; an endpoint
/// that must never go back needs an order it can check in what it receives.
///
/// ```swift
/// let pusher = LocationPusher(endpoint: try PushEndpoint(baseURL: url, apiKey: key))
/// pusher.submit(session: "s-42", body: Array(#"{"latitude":49.9,"longitude":-97.1}"#.utf8))
/// let undelivered = await pusher.drain(timeout: 30)
/// try await pusher.shutdown()
/// ```
public final class LocationPusher: Sendable {
    public let endpoint: PushEndpoint
    public let policy: PushPolicy
    /// Seconds that the service's `run()` waits for the pushes under way once asked to stop.
    public let drainTimeout: Double
    private let client: HTTPClient
    /// Whether the pusher made its client (and so shuts it down), or was given the service's.
    private let ownsClient: Bool
    private let clientShutDown = Monitor(false)
    // pthread locks rather than `Synchronization.Mutex`: the test command runs the push's tests
    // under the thread sanitizer, which does not see Mutex's locking (see ThreadSharing)
    private let state: Monitor<State>
    private let clock = SchedulerClock()
    /// Where the pusher logs (the service conformance in GeoEnrich logs there too).
    package let logger: Logger
    private let metrics: PushMetrics

    /// - Parameters:
    ///   - endpoint: where to send, with the key.
    ///   - policy: bounds and backoff.
    ///   - httpClient: the service's client, to share its connections and event loops; the
    ///     pusher never shuts it down. It must not follow redirects (a followed redirect would
    ///     carry the key to another host): make it with ``httpClientConfiguration(policy:)``,
    ///     or set `redirectConfiguration = .disallow`. A redirect that such a client follows
    ///     anyway is counted as a refused delivery and logged as an error. Without a client,
    ///     the pusher makes its own and shuts it down in ``shutdown()``, at the end of the
    ///     service's `run()`, or, failing both, when it is released.
    ///   - drainTimeout: seconds that the service's `run()` waits at shutdown for the pushes under way.
    ///   - logger: where to log (quiet by default): retries at `debug`, dead letters at
    ///     `warning`; never the key, never a location.
    ///   - metrics: where the push's counters go (default: the process's `MetricsSystem`).
    public init(endpoint: PushEndpoint, policy: PushPolicy = PushPolicy(), httpClient: HTTPClient? = nil,
                drainTimeout: Double = 30, logger: Logger = LocationPusher.quietLogger,
                metrics: (any MetricsFactory)? = nil) {
        self.endpoint = endpoint
        self.policy = policy
        self.drainTimeout = drainTimeout
        self.logger = logger
        self.metrics = PushMetrics(factory: metrics ?? MetricsSystem.factory)
        if let httpClient {
            client = httpClient
            ownsClient = false
        } else {
            client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.httpClientConfiguration(policy: policy))
            ownsClient = true
        }
        state = Monitor(State(scheduler: PushScheduler(policy: policy)))
    }

    /// The scheduler and the dead letters it gave up, under one lock: a letter is kept in the
    /// step that gives it up, so a drain that finds the scheduler idle finds every letter. (They
    /// were kept after the step, under a lock of their own, and a drain could return in between:
    /// CI once saw 2 letters of 3.)
    private struct State {
        var scheduler: PushScheduler
        /// One per session (its newest given up), in the order sessions were first given up.
        var letters = DeadLetters()

        /// Runs one step of the scheduler and keeps or drops the letters it says to.
        mutating func step(_ body: (inout PushScheduler) -> [PushScheduler.Action]) -> [PushScheduler.Action] {
            let actions = body(&scheduler)
            for action in actions {
                switch action {
                case .deadLetter(let letter): letters.keep(letter)
                case .dropDeadLetter(let session): letters.drop(session: session)
                case .send, .wait: break
                }
            }
            return actions
        }
    }

    /// The configuration of the client the pusher makes: connections kept for a minute, as many
    /// per host as ``PushPolicy/maxInFlight``, the policy's request timeout, and redirects never
    /// followed (async-http-client re-sends a followed request with its headers, the API key
    /// among them, to whatever host `Location` names; a 3xx is a refused delivery, reported
    /// with its status). Use it for a client you give the pusher.
    public static func httpClientConfiguration(policy: PushPolicy) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: policy.maxInFlight)
        configuration.timeout = .init(connect: .seconds(5), read: .milliseconds(Int64(policy.requestTimeout * 1000)))
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// A logger that logs nothing: the default, so that a library is quiet unless asked.
    public static let quietLogger = Logger(label: "geo-enrich.push", factory: { _ in SwiftLogNoOpLogHandler() })

    deinit {
        // a client of our own that nobody shut down: shut it down now rather than trap (the
        // client's debug check) or leak its connections; the future keeps it alive until done
        if ownsClient && !clientShutDown.withLock({ $0 }) {
            _ = client.shutdown()
        }
    }

    /// Seconds since the pusher was made (the scheduler's clock).
    private var now: Double { clock.now }

    /// What the push has done so far.
    public var statistics: PushStatistics { state.withLock { $0.scheduler.statistics } }

    /// The dead letters kept so far: each session's newest update given up, with the reason.
    public var deadLetters: [DeadLetter] { state.withLock { $0.letters.inOrder } }

    /// Records a new location of `session` (the PUT body, JSON) and returns at once.
    public func submit(session: SessionID, body: [UInt8]) {
        let t = now
        perform(schedule { $0.submit(session: session, body: body, now: t) })
    }

    /// Runs one step of the scheduler under its lock, keeping its dead letters, and counts what
    /// it changed in the metrics.
    private func schedule(_ step: (inout PushScheduler) -> [PushScheduler.Action]) -> [PushScheduler.Action] {
        let (before, actions, after) = state.withLock { state in
            let before = state.scheduler.statistics
            let actions = state.step(step)
            return (before, actions, state.scheduler.statistics)
        }
        metrics.count(from: before, to: after)
        return actions
    }

    /// Waits until every update is delivered or given up, or `timeout` seconds pass, or
    /// `interrupted` (polled every 5 ms) says to stop waiting; then gives up on the rest.
    /// - Returns: every update not delivered during the pusher's life, with the reason: its
    ///   session's newest location given up, one per session.
    public func drain(timeout: Double, interrupted: @Sendable () -> Bool = { false }) async -> [DeadLetter] {
        let reason = await clock.drainWait(timeout: timeout, isIdle: { state.withLock { $0.scheduler.isIdle } },
                                           interrupted: interrupted)
        perform(schedule { $0.abandonAll(reason: reason) })
        return deadLetters
    }

    /// Closes the connections of the pusher's own client (a client it was given is left to
    /// its owner). Safe to call more than once.
    public func shutdown() async throws {
        guard ownsClient, clientShutDown.withLock({ done in
            defer { done = true }
            return !done
        }) else { return }
        try await client.shutdown()
    }

    // MARK: Driving the scheduler

    private func perform(_ actions: [PushScheduler.Action]) {
        for action in actions {
            switch action {
            case .send(let session, let body, _):
                Task { await self.send(session: session, body: body) }
            case .wait(let session, let delay):
                logger.debug("push retry scheduled", metadata: ["session": "\(session)", "delay_s": "\(delay)"])
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    let t = self.now
                    self.perform(self.schedule { $0.retryDue(session: session, now: t) })
                }
            case .deadLetter(let letter):
                // kept already, in the step (State.step)
                logger.warning("push given up", metadata: ["session": "\(letter.session)", "reason": "\(letter.reason)",
                                                           "attempts": "\(letter.attempts)"])
            case .dropDeadLetter:
                break  // dropped in the step
            }
        }
    }

    private func send(session: SessionID, body: [UInt8]) async {
        let stopwatch = Stopwatch()
        let outcome = await put(session: session, body: body)
        metrics.requestDuration.recordNanoseconds(stopwatch.elapsedNanoseconds)
        let t = now
        perform(schedule { $0.completed(session: session, outcome: outcome, now: t) })
    }

    /// One PUT, classified.
    private func put(session: SessionID, body: [UInt8]) async -> PushScheduler.Outcome {
        var request = HTTPClientRequest(url: endpoint.url(session: session))
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-API-Key", value: endpoint.apiKey.value)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(policy.requestTimeout * 1000)),
                                                    logger: logger)
            // read the answer to its end, so that the connection can be reused
            _ = try await response.body.collect(upTo: 1 << 20)
            if response.history.count > 1 {
                // only a client given to us can follow one (ours never does): the key went along
                logger.error("the HTTP client given to the pusher followed a redirect; give it redirectConfiguration .disallow")
                return .refused(reason: "HTTP \(response.history[0].responseHead.status.code) (a redirect, followed by the given HTTP client)")
            }
            return Self.classify(status: Int(response.status.code),
                                 retryAfter: response.headers.first(name: "Retry-After"), now: Self.unixTime())
        } catch {
            return .retryable(reason: "network: \(Self.describe(error))", retryAfter: nil)
        }
    }

    /// 2xx delivered; 408, 429, 5xx retryable (with `Retry-After` when given); the rest refused,
    /// a 3xx as a redirect that was not followed.
    static func classify(status: Int, retryAfter: String?, now: Double) -> PushScheduler.Outcome {
        switch status {
        case 200..<300:
            return .delivered
        case 408, 429, 500..<600:
            return .retryable(reason: "HTTP \(status)", retryAfter: retryAfter.flatMap { RetryAfter.seconds($0, now: now) })
        case 300..<400:
            return .refused(reason: "HTTP \(status) (a redirect, not followed)")
        default:
            return .refused(reason: "HTTP \(status)")
        }
    }

    /// An error for a reason text, with its cause in words where it is a common one (a refused
    /// connection, a timeout), then the error itself; never the key (only the body and URL are
    /// ours in a request, and the header is not echoed by the client).
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        let causes: [(needle: String, words: String)] = [
            ("connectTimeout", "connect timed out"), ("deadlineExceeded", "no answer within the request timeout"),
            ("readTimeout", "no answer within the request timeout"),
            ("Connection refused", "connection refused"), ("ECONNREFUSED", "connection refused"),
            ("connection reset", "connection reset"), ("remoteConnectionClosed", "connection closed by the server"),
        ]
        for cause in causes where text.contains(cause.needle) { return "\(cause.words) (\(text))" }
        return text
    }

    static func unixTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// The push's counters, named after its statistics: `geo_enrich_push_submitted_total`,
/// `…_pushed_total` (delivered), `…_coalesced_total`, `…_failed_total` (dead letters),
/// `…_retries_total`; and `geo_enrich_push_request_duration_seconds`, a timer per request.
struct PushMetrics: Sendable {
    let submitted, pushed, coalesced, failed, retries: Counter
    let requestDuration: CoreMetrics.Timer

    init(factory: any MetricsFactory) {
        func counter(_ name: String) -> Counter { Counter(label: "geo_enrich_push_\(name)_total", factory: factory) }
        submitted = counter("submitted")
        pushed = counter("pushed")
        coalesced = counter("coalesced")
        failed = counter("failed")
        retries = counter("retries")
        requestDuration = CoreMetrics.Timer(label: "geo_enrich_push_request_duration_seconds", dimensions: [],
                                            preferredDisplayUnit: .seconds, factory: factory)
    }

    /// Adds what changed between two readings of the statistics. `failed` may go down (a dead
    /// letter superseded moves to `coalesced`): a counter only rises, so it counts letters
    /// given up, superseded or not.
    func count(from a: PushStatistics, to b: PushStatistics) {
        if b.submitted > a.submitted { submitted.increment(by: Int64(b.submitted - a.submitted)) }
        if b.pushed > a.pushed { pushed.increment(by: Int64(b.pushed - a.pushed)) }
        if b.coalesced > a.coalesced { coalesced.increment(by: Int64(b.coalesced - a.coalesced)) }
        if b.failed > a.failed { failed.increment(by: Int64(b.failed - a.failed)) }
        if b.retries > a.retries { retries.increment(by: Int64(b.retries - a.retries)) }
    }
}

/// Dead letters by session: the newest of each, in the order sessions were first given up.
struct DeadLetters {
    private var bySession: [SessionID: (order: Int, letter: DeadLetter)] = [:]
    private var next = 0

    mutating func keep(_ letter: DeadLetter) {
        let order = bySession[letter.session]?.order ?? next
        if order == next { next += 1 }
        bySession[letter.session] = (order, letter)
    }

    mutating func drop(session: SessionID) { bySession[session] = nil }

    var inOrder: [DeadLetter] { bySession.values.sorted { $0.order < $1.order }.map(\.letter) }
}
