import Testing
@testable import LocationPush

/// The webhook's policy alone, event by event: no network, no clock.
@Suite struct TransitionSchedulerTests {
    func body(_ n: Int) -> [UInt8] { Array(#"{"n":\#(n)}"#.utf8) }

    func sends(_ actions: [TransitionScheduler.Action]) -> [[UInt8]] {
        actions.compactMap { if case .send(_, let b, _) = $0 { b } else { nil } }
    }

    func letters(_ actions: [TransitionScheduler.Action]) -> [DeadLetter] {
        actions.compactMap { if case .deadLetter(let l) = $0 { l } else { nil } }
    }

    @Test func nothingIsCoalescedAndEachSessionSendsInOrderOneAtATime() {
        var s = TransitionScheduler(policy: PushPolicy())
        #expect(sends(s.submit(session: "a", body: body(1), now: 0)) == [body(1)])
        #expect(s.submit(session: "a", body: body(2), now: 0).isEmpty)
        #expect(s.submit(session: "a", body: body(3), now: 0).isEmpty)
        #expect(sends(s.submit(session: "b", body: body(9), now: 0)) == [body(9)])  // another session: at once
        #expect(sends(s.completed(session: "a", outcome: .delivered, now: 1)) == [body(2)])
        #expect(sends(s.completed(session: "a", outcome: .delivered, now: 2)) == [body(3)])
        #expect(s.completed(session: "a", outcome: .delivered, now: 3).isEmpty)
        #expect(s.completed(session: "b", outcome: .delivered, now: 3).isEmpty)
        #expect(s.isIdle)
        #expect(s.statistics.submitted == 4 && s.statistics.delivered == 4 && s.statistics.pending == 0)
    }

    @Test func aRetriedTransitionIsSentAgainBeforeTheNextOne() {
        var s = TransitionScheduler(policy: PushPolicy())
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)
        let actions = s.completed(session: "a", outcome: .retryable(reason: "HTTP 503", retryAfter: 2), now: 1)
        #expect(actions == [.wait(session: "a", delay: 2)])
        #expect(sends(s.retryDue(session: "a", now: 3)) == [body(1)])
        #expect(sends(s.completed(session: "a", outcome: .delivered, now: 4)) == [body(2)])
        #expect(s.statistics.retries == 1)
    }

    @Test func aTransitionGivenUpHoldsBackEveryLaterOneOfItsSessionOnly() {
        var s = TransitionScheduler(policy: PushPolicy())
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)
        _ = s.submit(session: "b", body: body(7), now: 0)
        let given = letters(s.completed(session: "a", outcome: .refused(reason: "HTTP 400"), now: 1))
        #expect(given.map(\.body) == [body(1), body(2)])
        #expect(given[0].reason == "HTTP 400" && given[0].attempts == 1)
        #expect(given[1].reason.hasPrefix("held back") && given[1].attempts == 0)
        // later transitions of a go straight to the dead letters; b is not affected
        #expect(letters(s.submit(session: "a", body: body(3), now: 2)).map(\.body) == [body(3)])
        #expect(sends(s.completed(session: "b", outcome: .delivered, now: 2)).isEmpty)
        #expect(sends(s.submit(session: "b", body: body(8), now: 3)) == [body(8)])
        #expect(s.statistics.failed == 3 && s.statistics.delivered == 1 && s.statistics.pending == 1)
    }

    @Test func theRetryBudgetGivesUpAndAbandonAllKeepsEachSessionsOrder() {
        var policy = PushPolicy()
        policy.maxRetryTime = 5
        var s = TransitionScheduler(policy: policy)
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "a", body: body(2), now: 0)
        let given = letters(s.completed(session: "a", outcome: .retryable(reason: "HTTP 503", retryAfter: 10), now: 1))
        #expect(given.map(\.body) == [body(1), body(2)] && given[0].reason.contains("HTTP 503"))
        _ = s.submit(session: "c", body: body(5), now: 2)
        _ = s.submit(session: "c", body: body(6), now: 2)
        _ = s.submit(session: "b", body: body(4), now: 2)
        let abandoned = letters(s.abandonAll(reason: "drain timeout"))
        #expect(abandoned.map(\.body) == [body(4), body(5), body(6)])
        #expect(s.isIdle && s.inFlight == 0 && s.statistics.pending == 0)
    }

    @Test func theCapacityCountsEveryTransitionNotYetDeliveredOrGivenUp() {
        var policy = PushPolicy()
        policy.maxInFlight = 1
        var s = TransitionScheduler(policy: policy, capacity: 3)
        _ = s.submit(session: "a", body: body(1), now: 0)
        _ = s.submit(session: "b", body: body(2), now: 0)  // waits for the slot
        #expect(s.hasRoom)
        _ = s.submit(session: "a", body: body(3), now: 0)
        #expect(!s.hasRoom)
        // a delivery frees room and the slot goes to b, which waited longest
        #expect(sends(s.completed(session: "a", outcome: .delivered, now: 1)) == [body(2)])
        #expect(s.hasRoom && s.inFlight == 1)
    }
}
