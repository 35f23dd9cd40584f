import AsyncHTTPClient
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
/// (call it from any thread). ``drain(timeout:)`` waits for what is left at the end of a run and
/// hands back what could not be delivered.
///
/// ```swift
/// let pusher = try LocationPusher(endpoint: PushEndpoint(baseURL: url, apiKey: key))
/// pusher.submit(session: "s-42", body: Array(#"{"latitude":49.9,"longitude":-97.1}"#.utf8))
/// let undelivered = await pusher.drain(timeout: 30)
/// try await pusher.shutdown()
/// ```
public final class LocationPusher: Sendable {
    public let endpoint: PushEndpoint
    public let policy: PushPolicy
    private let client: HTTPClient
    // pthread locks rather than `Synchronization.Mutex`: the test command runs the push's tests
    // under the thread sanitizer, which does not see Mutex's locking (see ThreadSharing)
    private let scheduler: Monitor<PushScheduler>
    /// The dead letters kept, one per session (its newest given up), in the order they were
    /// first given up.
    private let letters = Monitor(DeadLetters())
    private let started = ContinuousClock.now

    /// - Parameters:
    ///   - endpoint: where to send, with the key.
    ///   - policy: bounds and backoff.
    public init(endpoint: PushEndpoint, policy: PushPolicy = PushPolicy()) {
        self.endpoint = endpoint
        self.policy = policy
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: policy.maxInFlight)
        configuration.timeout = .init(connect: .seconds(5), read: .milliseconds(Int64(policy.requestTimeout * 1000)))
        configuration.decompression = .disabled
        // never follow a redirect: async-http-client re-sends a followed request with its headers,
        // the API key among them, to whatever host `Location` names (a 3xx is a refused delivery,
        // reported with its status; see `classify`)
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        scheduler = Monitor(PushScheduler(policy: policy))
    }

    /// Seconds since the pusher was made (the scheduler's clock).
    private var now: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// What the push has done so far.
    public var statistics: PushStatistics { scheduler.withLock { $0.statistics } }

    /// Records a new location of `session` (the PUT body, JSON) and returns at once.
    public func submit(session: String, body: [UInt8]) {
        let t = now
        let actions = scheduler.withLock { $0.submit(session: session, body: body, now: t) }
        perform(actions)
    }

    /// Waits until every update is delivered or given up, or `timeout` seconds pass, or
    /// `interrupted` (polled every 5 ms) says to stop waiting; then gives up on the rest.
    /// - Returns: every update not delivered during the pusher's life, with the reason: its
    ///   session's newest location given up, one per session.
    public func drain(timeout: Double, interrupted: @Sendable () -> Bool = { false }) async -> [DeadLetter] {
        let deadline = now + timeout
        var cut = false
        while !scheduler.withLock({ $0.isIdle }) && now < deadline {
            if interrupted() { cut = true; break }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        let reason = cut ? "not delivered: the drain was interrupted" : "not delivered within the drain timeout of \(timeout) s"
        let actions = scheduler.withLock { $0.abandonAll(reason: reason) }
        perform(actions)
        return letters.withLock { $0.inOrder }
    }

    /// Closes the connections.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    // MARK: Driving the scheduler

    private func perform(_ actions: [PushScheduler.Action]) {
        for action in actions {
            switch action {
            case .send(let session, let body, _):
                Task { await self.send(session: session, body: body) }
            case .wait(let session, let delay):
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    let t = self.now
                    self.perform(self.scheduler.withLock { $0.retryDue(session: session, now: t) })
                }
            case .deadLetter(let letter):
                letters.withLock { $0.keep(letter) }
            case .dropDeadLetter(let session):
                letters.withLock { $0.drop(session: session) }
            }
        }
    }

    private func send(session: String, body: [UInt8]) async {
        let outcome = await put(session: session, body: body)
        let t = now
        perform(scheduler.withLock { $0.completed(session: session, outcome: outcome, now: t) })
    }

    /// One PUT, classified.
    private func put(session: String, body: [UInt8]) async -> PushScheduler.Outcome {
        var request = HTTPClientRequest(url: endpoint.url(session: session))
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-API-Key", value: endpoint.apiKey.value)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(policy.requestTimeout * 1000)))
            // read the answer to its end, so that the connection can be reused
            _ = try await response.body.collect(upTo: 1 << 20)
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

    /// An error for a reason text: its type and description, which never hold the key (only
    /// the body and URL are ours in a request, and the header is not echoed by the client).
    static func describe(_ error: any Error) -> String {
        "\(error)"
    }

    static func unixTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// Dead letters by session: the newest of each, in the order sessions were first given up.
struct DeadLetters {
    private var bySession: [String: (order: Int, letter: DeadLetter)] = [:]
    private var next = 0

    mutating func keep(_ letter: DeadLetter) {
        let order = bySession[letter.session]?.order ?? next
        if order == next { next += 1 }
        bySession[letter.session] = (order, letter)
    }

    mutating func drop(session: String) { bySession[session] = nil }

    var inOrder: [DeadLetter] { bySession.values.sorted { $0.order < $1.order }.map(\.letter) }
}
