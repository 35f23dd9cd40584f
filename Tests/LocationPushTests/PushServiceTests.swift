import AsyncHTTPClient
import Logging
import MetricsTestKit
import NIOPosix
import GeoEnrich  // the pusher as a swift-service-lifecycle Service
import ServiceLifecycle
import Testing
import TestSupport
@testable import LocationPush

#if canImport(Glibc)
import Glibc
#endif

/// The pusher inside a service: a shared client, the service lifecycle, metrics, dead letters
/// that say why, and no trap when it is dropped.
@Suite(.serialized) struct PushServiceTests {
    static let key = PushIntegrationTests.key

    static func policy() -> PushPolicy {
        var policy = PushPolicy()
        policy.baseBackoff = 0.01
        policy.maxBackoff = 0.1
        // generous: the test command runs these beside every other suite, and under TSan
        policy.requestTimeout = 5
        return policy
    }

    static func endpoint(_ port: Int) throws -> PushEndpoint {
        try PushEndpoint(baseURL: "http://127.0.0.1:\(port)", apiKey: APIKey(key)!)
    }

    /// A loopback port with nobody listening (bound, then closed).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                guard bind(fd, a, length) == 0, getsockname(fd, a, &length) == 0 else { throw POSIXFailure() }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
    struct POSIXFailure: Error {}

    /// Regression: a pusher dropped without `shutdown()` trapped a debug build inside
    /// async-http-client ("Client not shut down before the deinit").
    @Test func aPusherDroppedWithoutShutdownDoesNotTrap() async throws {
        let server = FaultyServer(expectedKey: Self.key) { _ in .ok }
        let port = try server.start()
        defer { server.stop() }
        do {
            let pusher = LocationPusher(endpoint: try Self.endpoint(port), policy: Self.policy())
            pusher.submit(session: "a", body: PushIntegrationTests.body(1))
            // delivered, or (when the test command's other suites starve the event loops, as under
            // the thread sanitizer) a dead letter: either way the client was used, then dropped
            let letters = await pusher.drain(timeout: 10)
            let stats = pusher.statistics
            #expect(stats.pushed + letters.count == 1 && stats.outstanding == 0, "\(stats) \(letters)")
        }
        do { _ = LocationPusher(endpoint: try Self.endpoint(port)) }  // never used
        try await Task.sleep(nanoseconds: 200_000_000)
    }

    @Test func aSharedClientIsUsedAndLeftRunning() async throws {
        let server = FaultyServer(expectedKey: Self.key) { _ in .ok }
        let port = try server.start()
        defer { server.stop() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: LocationPusher.httpClientConfiguration(policy: Self.policy()))
        let pusher = LocationPusher(endpoint: try Self.endpoint(port), policy: Self.policy(), httpClient: client)
        for s in 0..<5 { pusher.submit(session: "s\(s)", body: PushIntegrationTests.body(s)) }
        #expect(await pusher.drain(timeout: 60).isEmpty)
        try await pusher.shutdown()
        // the service's client still works after the pusher is done with it
        let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/health"), timeout: .seconds(5))
        #expect(response.status.code == 200 || response.status.code == 401)
        try await client.shutdown()
        #expect(server.recorded.count >= 5)
    }

    /// A client that follows redirects, given to the pusher: the followed redirect is a refused
    /// delivery, not a success (the key went along: it is logged as an error).
    @Test func aGivenClientThatFollowsARedirectIsCaught() async throws {
        let elsewhere = FaultyServer(expectedKey: Self.key) { _ in .ok }
        let elsewherePort = try elsewhere.start()
        defer { elsewhere.stop() }
        let server = FaultyServer(expectedKey: Self.key) { _ in
            .redirect(307, location: "http://127.0.0.1:\(elsewherePort)/v2/tracking-session/x/location")
        }
        let port = try server.start()
        defer { server.stop() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)  // follows redirects
        let sink = LogSink()
        let pusher = LocationPusher(endpoint: try Self.endpoint(port), policy: Self.policy(), httpClient: client,
                                    logger: Logger(label: "test") { _ in sink })
        pusher.submit(session: "a", body: PushIntegrationTests.body(1))
        let letters = await pusher.drain(timeout: 10)
        #expect(pusher.statistics.pushed == 0)
        #expect(letters.map(\.reason) == ["HTTP 307 (a redirect, followed by the given HTTP client)"])
        #expect(sink.lines.contains { $0.hasPrefix("error") && $0.contains("redirect") })
        #expect(!sink.lines.joined().contains(Self.key))
        try await client.shutdown()
    }

    /// Regression: over a refused connection the dead letter said only "not delivered within the
    /// drain timeout".
    @Test func aDeadLetterSaysTheConnectionWasRefused() async throws {
        var policy = Self.policy()
        policy.maxRetryTime = 0.5
        let pusher = LocationPusher(endpoint: try Self.endpoint(try Self.closedPort()), policy: policy)
        pusher.submit(session: "a", body: PushIntegrationTests.body(1))
        let letters = await pusher.drain(timeout: 10)
        try await pusher.shutdown()
        #expect(letters.count == 1)
        #expect(letters.first?.reason.contains("connection refused") == true, "\(letters)")
    }

    /// As a service: it runs until the group shuts down gracefully, then drains; its counters
    /// match its statistics; its log has the dead letter's session and reason, never the key.
    @Test func asAServiceItDrainsOnGracefulShutdown() async throws {
        // the first requests are the sessions' first updates, some answered 503 (retried); the
        // later ones carry their newest updates, refused for good: dead letters, nothing after
        let server = FaultyServer(expectedKey: Self.key) { n in
            n % 4 == 1 ? .status(503, retryAfter: nil) : n > 10 ? .status(400, retryAfter: nil) : .ok
        }
        let port = try server.start()
        defer { server.stop() }
        let metrics = TestMetrics()
        let sink = LogSink()
        var logger = Logger(label: "test") { _ in sink }
        logger.logLevel = .debug
        let pusher = LocationPusher(endpoint: try Self.endpoint(port), policy: Self.policy(), drainTimeout: 60,
                                    logger: logger, metrics: metrics)
        let group = ServiceGroup(services: [pusher], logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for u in 0..<4 {
                for s in 0..<10 { pusher.submit(session: "s\(s)", body: PushIntegrationTests.body(u)) }
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let stats = pusher.statistics
        #expect(stats.outstanding == 0, "the drain ran: \(stats)")
        #expect(stats.submitted == 40 && stats.failed == pusher.deadLetters.count && stats.failed >= 1)
        #expect(try metrics.expectCounter("geo_enrich_push_submitted_total").totalValue == 40)
        #expect(try metrics.expectCounter("geo_enrich_push_pushed_total").totalValue == Int64(stats.pushed))
        #expect(try metrics.expectCounter("geo_enrich_push_retries_total").totalValue == Int64(stats.retries))
        #expect(stats.retries > 0)
        #expect(try metrics.expectTimer("geo_enrich_push_request_duration_seconds").values.count == server.recorded.count)
        let log = sink.lines.joined(separator: "\n")
        #expect(log.contains("push given up") && log.contains("HTTP 400"), "\(log)")
        #expect(!log.contains(Self.key) && !log.contains("latitude"))
    }
}
