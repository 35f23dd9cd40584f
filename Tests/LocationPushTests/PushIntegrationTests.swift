import Foundation
import Logging
import Testing
import TestSupport
@testable import LocationPush

/// The pusher against a real HTTP server on loopback that fails on purpose.
@Suite(.serialized) struct PushIntegrationTests {
    static let key = "test-key-7f3a"

    /// Bodies carry a per-session counter as the latitude, so order can be checked.
    static func body(_ n: Int) -> [UInt8] { Array(#"{"latitude":\#(n),"longitude":-97.1,"accuracy":5}"#.utf8) }
    static func counter(_ body: [UInt8]) -> Int? {
        let text = String(decoding: body, as: UTF8.self)
        guard let r = text.range(of: #"{"latitude":"#), let end = text[r.upperBound...].firstIndex(of: ",") else { return nil }
        return Int(text[r.upperBound..<end])
    }

    func pusher(port: Int, key: String = Self.key, _ configure: (inout PushPolicy) -> Void = { _ in }) throws -> LocationPusher {
        var policy = PushPolicy()
        policy.baseBackoff = 0.01
        policy.maxBackoff = 0.2
        policy.maxRetryAfter = 0.3
        // generous: the tests that count requests (a 401 or a redirect is sent once) failed when a
        // request under the thread sanitizer, with another CI run on the machine, took longer
        // than 0.5 s, timed out and was retried (7 requests recorded for 5); the fault test that
        // needs a request to time out sets its own
        policy.requestTimeout = 10
        configure(&policy)
        return LocationPusher(endpoint: try PushEndpoint(baseURL: "http://127.0.0.1:\(port)", apiKey: APIKey(key)!),
                              policy: policy)
    }

    @Test func oneRequestInFourFailsAndEverySessionStillEndsAtItsLastLocation() async throws {
        // request n: 500, 429 with Retry-After, dropped connection, slow beyond the timeout, then ok
        let server = FaultyServer(expectedKey: Self.key) { n in
            switch n % 16 {
            case 1: .status(500, retryAfter: nil)
            case 5: .status(429, retryAfter: "1")
            case 9: .drop
            case 13: .slow(4.0)
            default: .ok
            }
        }
        let port = try server.start()
        defer { server.stop() }
        // the request answered after 4 s must time out, and no other: at 0.5 s, under the thread
        // sanitizer with other work on the machine, requests still waiting for a connection timed
        // out too, and their bytes, already on the wire, reached the server after the update that
        // replaced them (a session's counters went [24, 0]: see the note in LocationPusher on
        // requests whose outcome is unknown)
        let pusher = try pusher(port: port) { $0.requestTimeout = 2 }
        let sessions = 60, updates = 25
        var last: [SessionID: Int] = [:]
        for u in 0..<updates {
            for s in 0..<sessions {
                let id: SessionID = "s-\(s)/ü"  // percent-encoded in the path
                pusher.submit(session: id, body: Self.body(u))
                last[id] = u
            }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let letters = await pusher.drain(timeout: 30)
        try await pusher.shutdown()
        let stats = pusher.statistics
        #expect(letters.isEmpty, "\(letters.prefix(3))")
        #expect(stats.submitted == sessions * updates)
        #expect(stats.submitted == stats.pushed + stats.coalesced + stats.failed)
        #expect(stats.retries > 0)

        let requests = server.recorded
        #expect(requests.allSatisfy { $0.apiKey == Self.key && $0.method == "PUT" && $0.contentType == "application/json" })
        // per session: what arrived never goes back in time, and the last delivered is the last submitted
        var byPath: [String: [FaultyServer.Request]] = [:]
        for r in requests { byPath[r.path, default: []].append(r) }
        #expect(byPath.count == sessions)
        for (id, lastUpdate) in last {
            let path = "/v2/tracking-session/\(PushEndpoint.percentEncoded(id.rawValue))/location"
            let seen = byPath[path] ?? []
            let counters = seen.compactMap { Self.counter($0.body) }
            #expect(counters.count == seen.count, "no invented bodies")
            #expect(zip(counters, counters.dropFirst()).allSatisfy { $0 <= $1 }, "\(id): \(counters)")
            let delivered = seen.filter { ($0.answered ?? 0) / 100 == 2 }.compactMap { Self.counter($0.body) }
            #expect(delivered.last == lastUpdate, "\(id): delivered \(delivered)")
        }
        // keep-alive: far fewer connections than requests
        #expect(server.connectionCount < requests.count / 2)
    }

    @Test func aWrongKeyIsRefusedOnceAndEndsInTheDeadLetters() async throws {
        let server = FaultyServer(expectedKey: Self.key) { _ in .ok }
        let port = try server.start()
        defer { server.stop() }
        let pusher = try pusher(port: port, key: "wrong-key")
        for s in 0..<5 { pusher.submit(session: "s\(s)", body: Self.body(1)) }
        let letters = await pusher.drain(timeout: 10)
        try await pusher.shutdown()
        #expect(letters.count == 5 && letters.allSatisfy { $0.reason == "HTTP 401" && $0.attempts == 1 })
        #expect(server.recorded.count == 5)  // 4xx: not retried
        #expect(!letters.map { String(decoding: DeadLetterFile.line($0), as: UTF8.self) }.joined().contains("wrong-key"))
    }

    /// Regression: async-http-client followed 301/302/307/308 and re-sent the PUT, `X-API-Key`
    /// and all, to the host `Location` named, and the update counted as pushed.
    @Test(arguments: [301, 302, 307, 308])
    func aRedirectIsNotFollowedAndTheKeyStaysHome(status: Int) async throws {
        let elsewhere = FaultyServer(expectedKey: Self.key) { _ in .ok }
        let elsewherePort = try elsewhere.start()
        defer { elsewhere.stop() }
        let server = FaultyServer(expectedKey: Self.key) { _ in
            .redirect(status, location: "http://127.0.0.1:\(elsewherePort)/v2/tracking-session/x/location")
        }
        let port = try server.start()
        defer { server.stop() }
        let pusher = try pusher(port: port)
        for s in 0..<3 { pusher.submit(session: "s\(s)", body: Self.body(1)) }
        let letters = await pusher.drain(timeout: 10)
        let stats = pusher.statistics
        try await pusher.shutdown()
        #expect(elsewhere.recorded.isEmpty)
        #expect(server.recorded.count == 3)
        #expect(stats.pushed == 0 && stats.failed == 3)
        #expect(letters.count == 3 && letters.allSatisfy { $0.reason == "HTTP \(status) (a redirect, not followed)" })
    }

    /// Regression: a dead letter was kept after the scheduler's step, under a lock of its own, so
    /// a drain that found the scheduler idle could return before the last letter was kept (CI
    /// saw 2 letters of 3 in the redirect test). The letter is logged on the way, and a log that
    /// takes 20 ms holds that gap open past the drain's 5 ms poll.
    @Test func everyLetterGivenUpIsInTheDrainThatFollows() async throws {
        let server = FaultyServer(expectedKey: Self.key) { _ in .status(404, retryAfter: nil) }
        let port = try server.start()
        defer { server.stop() }
        for run in 0..<10 {
            let pusher = LocationPusher(endpoint: try PushEndpoint(baseURL: "http://127.0.0.1:\(port)", apiKey: APIKey(Self.key)!),
                                        logger: Logger(label: "slow") { _ in LogSink(pause: 0.02) })
            for s in 0..<3 { pusher.submit(session: "s\(s)", body: Self.body(run)) }
            let letters = await pusher.drain(timeout: 10)
            let stats = pusher.statistics
            try await pusher.shutdown()
            try #require(stats.failed == 3 && letters.count == 3, "run \(run): \(letters.count) letters, \(stats)")
        }
    }

    @Test func memoryStaysBoundedWhileTheServerStallsAndTheDrainGivesUpCleanly() async throws {
        let server = FaultyServer(expectedKey: Self.key) { _ in .slow(30) }
        let port = try server.start()
        defer { server.stop() }
        let pusher = try pusher(port: port) { $0.requestTimeout = 60; $0.maxInFlight = 8 }
        let sessions = 500
        for u in 0..<200 {
            for s in 0..<sessions { pusher.submit(session: "s\(s)", body: Self.body(u)) }
        }
        let stats = pusher.statistics
        // at most one update on the wire and one waiting per session, whatever was submitted
        #expect(stats.outstanding <= 2 * sessions)
        #expect(stats.submitted == 100_000 && stats.coalesced >= 100_000 - 2 * sessions)
        let letters = await pusher.drain(timeout: 0.5)
        try await pusher.shutdown()
        #expect(letters.count == sessions)
        #expect(letters.allSatisfy { Self.counter($0.body) == 199 && $0.reason.contains("drain timeout") })
        let final = pusher.statistics
        #expect(final.submitted == final.pushed + final.coalesced + final.failed)
    }
}
