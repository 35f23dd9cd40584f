import GeoModel

/// The geofence webhook's policy as a pure state machine, beside ``PushScheduler``'s for the
/// location push: the same slots, backoff, `Retry-After` and retry budget (``PushPolicy``), but
/// nothing is coalesced. Every transition is delivered, at least once, in order per session, or
/// given up to the dead-letter file, also in order.
///
/// Per session a first-in first-out queue with one request in flight. A transition that cannot
/// be delivered (refused, or out of its retry budget) becomes a dead letter, and so does every
/// later transition of its session, then and for the rest of the run ("held back"): delivered
/// now, a later one would land before the earlier one that a replay sends afterwards.
///
/// Memory is bounded by ``capacity``: ``hasRoom`` says whether another transition may be
/// submitted, and the driver makes its caller wait until it may (backpressure, never a drop).
///
/// Every submitted transition ends exactly once as `delivered` or `failed`, so
/// `submitted == delivered + failed + pending` at any time.
public struct TransitionScheduler: Sendable {
    /// What the driver must do.
    public enum Action: Sendable, Equatable {
        /// Send `body` for `session` (attempt 1, 2, …).
        case send(session: SessionID, body: [UInt8], attempt: Int)
        /// Call ``retryDue(session:now:)`` for `session` after `delay` seconds.
        case wait(session: SessionID, delay: Double)
        /// Give up on a transition: append it to the dead letters (in order).
        case deadLetter(DeadLetter)
    }

    /// How a request ended (as the push classifies answers).
    public typealias Outcome = PushScheduler.Outcome

    /// What the webhook did.
    public struct Statistics: Sendable, Equatable {
        public var submitted = 0
        /// Delivered (2xx).
        public var delivered = 0
        /// Given up: dead letters.
        public var failed = 0
        /// Retries scheduled.
        public var retries = 0

        public init() {}

        /// Transitions neither delivered nor given up yet.
        public var pending: Int { submitted - delivered - failed }
    }

    private enum Phase: Sendable { case queued, inFlight, backingOff }

    private struct SessionQueue: Sendable {
        var bodies: [[UInt8]]
        var head = 0
        var phase = Phase.queued
        /// Of the transition at the head: attempts so far, when it was first tried, and why its
        /// last attempt failed.
        var attempts = 0
        var firstAttempt: Double?
        var lastError: String?

        var current: [UInt8] { bodies[head] }
        var remaining: ArraySlice<[UInt8]> { bodies[head...] }
    }

    public let policy: PushPolicy
    /// Transitions held at most (queued, in flight or backing off).
    public let capacity: Int
    private var sessions: [SessionID: SessionQueue] = [:]
    /// Sessions with a transition given up, and why: their later transitions are given up too.
    private var held: [SessionID: String] = [:]
    private var slots: SendSlots
    private var backoff: RetryBackoff
    public private(set) var statistics = Statistics()

    /// - Parameters:
    ///   - policy: the slots, backoff and retry budget (the push's).
    ///   - capacity: transitions held at most before ``hasRoom`` says no.
    ///   - seed: the jitter's random seed.
    public init(policy: PushPolicy, capacity: Int = 10_000, seed: UInt64 = 0x9E37_79B9) {
        precondition(capacity >= 1, "the capacity must be at least 1")
        self.policy = policy
        self.capacity = capacity
        slots = SendSlots(limit: policy.maxInFlight)
        backoff = RetryBackoff(policy: policy, seed: seed)
    }

    /// Whether another transition may be submitted now.
    public var hasRoom: Bool { statistics.pending < capacity }

    /// Whether nothing is left to deliver.
    public var isIdle: Bool { sessions.isEmpty }

    /// Requests in flight.
    public var inFlight: Int { slots.inFlight }

    /// A new transition of `session` (the POST body, JSON). Call only while ``hasRoom``.
    public mutating func submit(session: SessionID, body: [UInt8], now: Double) -> [Action] {
        statistics.submitted += 1
        if let reason = held[session] {
            statistics.failed += 1
            return [.deadLetter(DeadLetter(session: session, body: body, reason: Self.heldBack(reason), attempts: 0))]
        }
        if sessions[session] != nil {
            sessions[session]!.bodies.append(body)
            return []
        }
        sessions[session] = SessionQueue(bodies: [body])
        return schedule(session, now: now)
    }

    /// A request of `session` ended.
    public mutating func completed(session: SessionID, outcome: Outcome, now: Double) -> [Action] {
        guard var queue = sessions[session], queue.phase == .inFlight else { return [] }
        slots.vacate()
        var actions: [Action] = []
        switch outcome {
        case .delivered:
            statistics.delivered += 1
            queue.head += 1
            if queue.head == queue.bodies.count {
                sessions[session] = nil
            } else {
                // the next transition, with its own attempts and budget
                queue.bodies.removeFirst(queue.head)
                sessions[session] = SessionQueue(bodies: queue.bodies)
                actions += schedule(session, now: now)
            }
        case .refused(let reason):
            actions += giveUp(session, queue, reason: reason)
        case .retryable(let reason, let retryAfter):
            queue.lastError = reason
            let first = queue.firstAttempt ?? now
            let delay = backoff.delay(attempts: queue.attempts, retryAfter: retryAfter)
            if now + delay - first > policy.maxRetryTime {
                actions += giveUp(session, queue, reason: "gave up after \(queue.attempts) attempts in \(Int(now - first)) s: \(reason)")
            } else {
                statistics.retries += 1
                queue.phase = .backingOff
                sessions[session] = queue
                actions.append(.wait(session: session, delay: delay))
            }
        }
        return actions + fillSlots(now: now)
    }

    /// The backoff of `session` is over: send again when a slot is free.
    public mutating func retryDue(session: SessionID, now: Double) -> [Action] {
        guard var queue = sessions[session], queue.phase == .backingOff else { return [] }
        queue.phase = .queued
        sessions[session] = queue
        return schedule(session, now: now)
    }

    /// Gives up on everything not delivered (the drain timeout), session by session in order
    /// of id, each session's transitions in their order.
    public mutating func abandonAll(reason: String) -> [Action] {
        var actions: [Action] = []
        for (session, queue) in sessions.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            actions += giveUp(session, queue, reason: queue.lastError.map { "\(reason) (last error: \($0))" } ?? reason)
        }
        slots.removeAll()
        return actions
    }

    // MARK: Giving up

    /// Gives up on the head of `session`'s queue for `reason`, and on the rest of it as held
    /// back; the session is held from now on.
    private mutating func giveUp(_ session: SessionID, _ queue: SessionQueue, reason: String) -> [Action] {
        var actions: [Action] = [.deadLetter(DeadLetter(session: session, body: queue.current, reason: reason,
                                                         attempts: queue.attempts))]
        for body in queue.remaining.dropFirst() {
            actions.append(.deadLetter(DeadLetter(session: session, body: body, reason: Self.heldBack(reason), attempts: 0)))
        }
        statistics.failed += queue.remaining.count
        held[session] = reason
        sessions[session] = nil
        return actions
    }

    private static func heldBack(_ reason: String) -> String {
        "held back: an earlier transition of the session was not delivered (\(reason))"
    }

    // MARK: Slots

    private mutating func schedule(_ session: SessionID, now: Double) -> [Action] {
        guard slots.admit(session) else { return slots.hasRoom ? fillSlots(now: now) : [] }
        return [start(session, now: now)]
    }

    private mutating func start(_ session: SessionID, now: Double) -> Action {
        var queue = sessions[session]!
        queue.phase = .inFlight
        queue.attempts += 1
        if queue.firstAttempt == nil { queue.firstAttempt = now }
        sessions[session] = queue
        slots.occupy()
        return .send(session: session, body: queue.current, attempt: queue.attempts)
    }

    private mutating func fillSlots(now: Double) -> [Action] {
        var actions: [Action] = []
        while let session = slots.dequeue() {
            if sessions[session]?.phase == .queued { actions.append(start(session, now: now)) }
        }
        return actions
    }
}
