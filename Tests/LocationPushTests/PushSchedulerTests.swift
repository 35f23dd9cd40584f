import Testing
@testable import LocationPush

/// The policy alone, event by event: no network, no clock.
@Suite struct PushSchedulerTests {
    func body(_ n: Int) -> [UInt8] { Array(#"{"latitude":\#(n),"longitude":0}"#.utf8) }

    func sends(_ actions: [PushScheduler.Action]) -> [(SessionID, [UInt8])] {
        actions.compactMap { if case .send(let s, let b, _) = $0 { (s, b) } else { nil } }
    }

    @Test func oneRequestInFlightPerSessionAndTheNewestWaits() {
        var s = PushScheduler(policy: PushPolicy())
        #expect(sends(s.submit(session: "a", body: body(1), now: 0)).map(\.1) == [body(1)])
        #expect(s.submit(session: "a", body: body(2), now: 0).isEmpty)
        #expect(s.submit(session: "a", body: body(3), now: 0).isEmpty)  // replaces 2
        #expect(s.statistics.coalesced == 1)
        #expect(sends(s.completed(session: "a", outcome: .delivered, now: 1)).map(\.1) == [body(3)])
        #expect(s.completed(session: "a", outcome: .delivered, now: 2).isEmpty)
        #expect(s.isIdle)
        #expect(s.statistics == {
            var x = PushStatistics(); x.submitted = 3; x.pushed = 2; x.coalesced = 1; return x
        }())
    }

    @Test func aFailedOlderUpdateIsNeverSentAfterANewerOne() {
        var s = PushScheduler(policy: PushPolicy())
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)
        let actions = s.completed(session: "a", outcome: .retryable(reason: "HTTP 503", retryAfter: nil), now: 1)
        guard case .wait(_, let delay)? = actions.first else { Issue.record("expected a wait"); return }
        #expect(delay >= 0 && delay <= 0.1)
        #expect(sends(s.retryDue(session: "a", now: 1 + delay)).map(\.1) == [body(2)])  // the newer one
        #expect(s.statistics.coalesced == 1 && s.statistics.retries == 1)
    }

    @Test func backoffGrowsWithFullJitterAndRetryAfterIsClampedAndHonoured() {
        var policy = PushPolicy()
        policy.maxRetryAfter = 60
        policy.maxRetryTime = 1e9
        // the ceiling of attempt k is min(30 s, 0.1 s · 2^(k−1)); over 32 jitter seeds each
        // attempt's delays stay under it and spread over it: some above 60 % of it (so the
        // backoff does grow, to the cap) and some below 40 % (so it is jittered, not fixed)
        let ceilings = (1...12).map { min(30, 0.1 * Double(1 << ($0 - 1))) }
        var delays = [[Double]](repeating: [], count: ceilings.count)
        var s = PushScheduler(policy: policy)
        var t = 0.0
        for seed in 0..<32 as Range<UInt64> {
            s = PushScheduler(policy: policy, seed: seed)
            t = 0
            _ = s.submit(session: "a", body: body(1), now: 0)
            for (k, ceiling) in ceilings.enumerated() {
                guard case .wait(_, let d)? = s.completed(session: "a", outcome: .retryable(reason: "x", retryAfter: nil), now: t).first
                else { Issue.record("no wait"); return }
                #expect(d >= 0 && d <= ceiling, "attempt \(k + 1), seed \(seed): \(d) s")
                delays[k].append(d)
                t += d
                _ = s.retryDue(session: "a", now: t)
            }
        }
        for (k, ceiling) in ceilings.enumerated() {
            #expect(delays[k].max()! > 0.6 * ceiling && delays[k].min()! < 0.4 * ceiling,
                    "attempt \(k + 1): delays \(delays[k].min()!)...\(delays[k].max()!) s under a ceiling of \(ceiling) s")
        }
        guard case .wait(_, let honoured)? = s.completed(session: "a", outcome: .retryable(reason: "429", retryAfter: 7), now: t).first
        else { Issue.record("no wait"); return }
        #expect(honoured == 7)
        _ = s.retryDue(session: "a", now: t + 7)
        guard case .wait(_, let clamped)? = s.completed(session: "a", outcome: .retryable(reason: "429", retryAfter: 3600), now: t).first
        else { Issue.record("no wait"); return }
        #expect(clamped == 60)
    }

    @Test func updatesThatCannotBeDeliveredInTimeOrAreRefusedBecomeDeadLetters() {
        var policy = PushPolicy()
        policy.maxRetryTime = 10
        var s = PushScheduler(policy: policy)
        _ = s.submit(session: "a", body: body(1), now: 0)
        var t = 0.0
        var letter: DeadLetter?
        while letter == nil && t < 100 {
            for action in s.completed(session: "a", outcome: .retryable(reason: "HTTP 500", retryAfter: 4), now: t) {
                if case .deadLetter(let l) = action { letter = l }
            }
            t += 4
            _ = s.retryDue(session: "a", now: t)
        }
        #expect(letter?.body == body(1) && letter?.reason.contains("HTTP 500") == true)
        #expect(t <= 16)
        _ = s.submit(session: "b", body: body(2), now: t)
        let refused = s.completed(session: "b", outcome: .refused(reason: "HTTP 401"), now: t)
        #expect(refused == [.deadLetter(DeadLetter(session: "b", body: body(2), reason: "HTTP 401", attempts: 1))])
        #expect(s.statistics.failed == 2 && s.statistics.pushed == 0 && s.isIdle)
    }

    @Test func requestsInFlightAreBoundedAndQueuedSessionsGoInOrder() {
        var policy = PushPolicy()
        policy.maxInFlight = 3
        var s = PushScheduler(policy: policy)
        var started: [SessionID] = []
        for i in 0..<10 { started += sends(s.submit(session: "s\(i)", body: body(i), now: 0)).map(\.0) }
        #expect(started == ["s0", "s1", "s2"] && s.inFlight == 3)
        // a queued session's update is replaced in place, not queued twice
        _ = s.submit(session: "s5", body: body(55), now: 0)
        var order: [SessionID] = []
        var bodies: [SessionID: [UInt8]] = [:]
        var queue = started
        while let next = queue.first {
            queue.removeFirst()
            for (session, b) in sends(s.completed(session: next, outcome: .delivered, now: 1)) {
                order.append(session)
                bodies[session] = b
                queue.append(session)
            }
            #expect(s.inFlight <= 3)
        }
        #expect(order == (3..<10).map { "s\($0)" })
        #expect(bodies["s5"] == body(55))
        #expect(s.statistics.pushed == 10 && s.statistics.coalesced == 1 && s.isIdle)
    }

    @Test func abandoningKeepsTheNewestLocationOfEachSession() {
        var s = PushScheduler(policy: PushPolicy())
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)
        _ = s.submit(session: "b", body: body(3), now: 0)
        let letters = s.abandonAll(reason: "drain").compactMap { if case .deadLetter(let l) = $0 { l } else { nil } }
        #expect(letters.map(\.body) == [body(2), body(3)])
        #expect(s.statistics.submitted == s.statistics.pushed + s.statistics.coalesced + s.statistics.failed)
    }

    @Test func aSessionKeepsOneDeadLetterItsNewest() {
        var s = PushScheduler(policy: PushPolicy())
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)  // pending behind the one in flight
        var actions = s.completed(session: "a", outcome: .refused(reason: "HTTP 400"), now: 1)
        #expect(actions.contains(.deadLetter(DeadLetter(session: "a", body: body(1), reason: "HTTP 400", attempts: 1))))
        #expect(s.statistics.failed == 1)
        // the newer one fails too: it replaces the first letter, which counts as coalesced
        actions = s.completed(session: "a", outcome: .refused(reason: "HTTP 400"), now: 2)
        #expect(actions == [.deadLetter(DeadLetter(session: "a", body: body(2), reason: "HTTP 400", attempts: 1))])
        #expect(s.statistics.failed == 1 && s.statistics.coalesced == 1)
        // a newer one still is delivered: the letter is out of date and dropped
        _ = s.submit(session: "a", body: body(3), now: 3)
        actions = s.completed(session: "a", outcome: .delivered, now: 4)
        #expect(actions == [.dropDeadLetter(session: "a")])
        #expect(s.statistics.failed == 0 && s.statistics.pushed == 1 && s.statistics.coalesced == 2)
        #expect(s.statistics.submitted == s.statistics.pushed + s.statistics.coalesced + s.statistics.failed)
    }

    @Test func sessionIdsArePercentEncodedInThePath() throws {
        let endpoint = try PushEndpoint(baseURL: "https://api.example.com/", apiKey: APIKey("k")!)
        #expect(endpoint.url(session: "s 1/é?#") == "https://api.example.com/v2/tracking-session/s%201%2F%C3%A9%3F%23/location")
        #expect(endpoint.url(session: "A-z_0.9~") == "https://api.example.com/v2/tracking-session/A-z_0.9~/location")
        #expect(throws: PushError.self) { try PushEndpoint(baseURL: "ftp://x", apiKey: APIKey("k")!) }
        #expect("\(APIKey("secret-value")!)" == "<redacted API key>")
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        #expect(RetryAfter.seconds("120", now: 0) == 120)
        // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 s after the epoch (RFC 9110's example)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770) == 7)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_800) == 0)
        #expect(RetryAfter.seconds("soon", now: 0) == nil)
        #expect(RetryAfter.seconds("-5", now: 0) == nil)
    }
}
