import GeoModel

/// The push policy as a pure state machine: what to send, when to retry, what to give up on.
/// No clock, no network, no randomness of its own: events come in with the time, actions come
/// out, and the driver (``LocationPusher``) performs them. Deterministic, hence tested directly.
///
/// Per session at most one request is in flight. A newer location replaces one not yet sent
/// (`coalesced`), so an older location never lands after a newer one, and memory holds at most
/// one waiting update per session. Retryable failures back off exponentially with full jitter
/// (or as `Retry-After` says, clamped); an update that cannot be delivered within
/// ``PushPolicy/maxRetryTime``, or that the server refuses for good, becomes a dead letter.
///
/// Every submitted update ends exactly once as `pushed`, `coalesced` or `failed`, so
/// `submitted == pushed + coalesced + failed + pending` at any time. A session keeps one dead
/// letter at most, its newest location given up: an older one, superseded by a newer dead letter
/// or a newer delivered update, moves from `failed` to `coalesced`, so `failed` is the number of
/// dead letters kept.
public struct PushScheduler: Sendable {
    /// What the driver must do.
    public enum Action: Sendable, Equatable {
        /// Send `body` for `session` (attempt 1, 2, …).
        case send(session: SessionID, body: [UInt8], attempt: Int)
        /// Call ``retryDue(session:now:)`` for `session` after `delay` seconds.
        case wait(session: SessionID, delay: Double)
        /// Give up on an update: record it for a later replay, in place of any earlier dead
        /// letter of its session (a replay must not send an older location after a newer one).
        case deadLetter(DeadLetter)
        /// A newer location of `session` was delivered: its dead letter is out of date; drop it.
        case dropDeadLetter(session: SessionID)
    }

    /// How a request ended.
    public enum Outcome: Sendable, Equatable {
        /// 2xx.
        case delivered
        /// A network error, a timeout, 408, 429 or 5xx; `retryAfter` in seconds when the server said.
        case retryable(reason: String, retryAfter: Double?)
        /// Any other answer: not retried.
        case refused(reason: String)
    }

    private enum Phase: Sendable { case queued, inFlight, backingOff }

    private struct SessionState: Sendable {
        var current: [UInt8]
        var pending: [UInt8]?
        var phase: Phase
        var attempts = 0
        /// When the current update was first tried, and why its last attempt failed.
        var firstAttempt: Double?
        var lastError: String?
    }

    public let policy: PushPolicy
    private var sessions: [SessionID: SessionState] = [:]
    private var slots: SendSlots
    private var backoff: RetryBackoff
    /// Requests in flight.
    public var inFlight: Int { slots.inFlight }
    public private(set) var statistics = PushStatistics()
    /// Sessions with a dead letter kept.
    private var lettered: Set<SessionID> = []

    /// - Parameters:
    ///   - policy: the bounds and backoff.
    ///   - seed: the jitter's random seed.
    public init(policy: PushPolicy, seed: UInt64 = 0x9E37_79B9) {
        self.policy = policy
        slots = SendSlots(limit: policy.maxInFlight)
        backoff = RetryBackoff(policy: policy, seed: seed)
    }

    /// Sessions with an update not yet delivered or given up.
    public var activeSessions: Int { sessions.count }

    /// Whether nothing is left to deliver.
    public var isIdle: Bool { sessions.isEmpty }

    /// A new location for `session` (the body of its PUT).
    public mutating func submit(session: SessionID, body: [UInt8], now: Double) -> [Action] {
        statistics.submitted += 1
        guard var state = sessions[session] else {
            sessions[session] = SessionState(current: body, phase: .queued)
            return schedule(session, now: now)
        }
        switch state.phase {
        case .inFlight:
            if state.pending != nil { statistics.coalesced += 1 }
            state.pending = body
        case .queued, .backingOff:
            // not on the wire: the newer location takes its place (and its retry budget)
            statistics.coalesced += 1
            state.current = body
            state.firstAttempt = nil
        }
        sessions[session] = state
        return []
    }

    /// A request of `session` ended.
    public mutating func completed(session: SessionID, outcome: Outcome, now: Double) -> [Action] {
        guard var state = sessions[session], state.phase == .inFlight else { return [] }
        slots.vacate()
        var actions: [Action] = []
        switch outcome {
        case .delivered:
            statistics.pushed += 1
            actions += delivered(session)
            if let next = state.pending {
                state = SessionState(current: next, phase: .queued)
                sessions[session] = state
                actions += schedule(session, now: now)
            } else {
                sessions[session] = nil
            }
        case .refused(let reason):
            actions.append(giveUp(DeadLetter(session: session, body: state.current, reason: reason,
                                             attempts: state.attempts)))
            if let next = state.pending {
                sessions[session] = SessionState(current: next, phase: .queued)
                actions += schedule(session, now: now)
            } else {
                sessions[session] = nil
            }
        case .retryable(let reason, let retryAfter):
            state.lastError = reason
            if let next = state.pending {
                // a newer location supersedes the failed one: it is what the retry carries
                statistics.coalesced += 1
                state.current = next
                state.pending = nil
                state.firstAttempt = now
            }
            let first = state.firstAttempt ?? now
            let delay = backoff.delay(attempts: state.attempts, retryAfter: retryAfter)
            if now + delay - first > policy.maxRetryTime {
                actions.append(giveUp(DeadLetter(session: session, body: state.current,
                                                 reason: "gave up after \(state.attempts) attempts in \(Int(now - first)) s: \(reason)",
                                                 attempts: state.attempts)))
                sessions[session] = nil
            } else {
                statistics.retries += 1
                state.phase = .backingOff
                sessions[session] = state
                actions.append(.wait(session: session, delay: delay))
            }
        }
        return actions + fillSlots(now: now)
    }

    /// The backoff of `session` is over: send again when a slot is free.
    public mutating func retryDue(session: SessionID, now: Double) -> [Action] {
        guard var state = sessions[session], state.phase == .backingOff else { return [] }
        state.phase = .queued
        sessions[session] = state
        return schedule(session, now: now)
    }

    /// Gives up on everything not delivered (the drain timeout): each session's newest location
    /// becomes a dead letter (an older one in flight counts as coalesced).
    public mutating func abandonAll(reason: String) -> [Action] {
        var actions: [Action] = []
        for (session, state) in sessions.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var body = state.current
            if let pending = state.pending {
                statistics.coalesced += 1
                body = pending
            }
            let why = state.lastError.map { "\(reason) (last error: \($0))" } ?? reason
            actions.append(giveUp(DeadLetter(session: session, body: body, reason: why, attempts: state.attempts)))
        }
        sessions.removeAll()
        slots.removeAll()
        return actions
    }

    // MARK: Dead letters

    /// Gives up on `letter`: it replaces its session's earlier dead letter, if any.
    private mutating func giveUp(_ letter: DeadLetter) -> Action {
        if lettered.insert(letter.session).inserted {
            statistics.failed += 1
        } else {
            statistics.coalesced += 1  // the earlier letter, superseded; this one is the failure
        }
        return .deadLetter(letter)
    }

    /// A newer update of `session` was delivered: its dead letter, if any, is out of date.
    private mutating func delivered(_ session: SessionID) -> [Action] {
        guard lettered.remove(session) != nil else { return [] }
        statistics.failed -= 1
        statistics.coalesced += 1
        return [.dropDeadLetter(session: session)]
    }

    // MARK: Slots

    /// Sends `session`'s current update if a slot is free, else queues the session.
    private mutating func schedule(_ session: SessionID, now: Double) -> [Action] {
        guard slots.admit(session) else { return slots.hasRoom ? fillSlots(now: now) : [] }
        return [start(session, now: now)]
    }

    private mutating func start(_ session: SessionID, now: Double) -> Action {
        var state = sessions[session]!
        state.phase = .inFlight
        state.attempts += 1
        if state.firstAttempt == nil { state.firstAttempt = now }
        sessions[session] = state
        slots.occupy()
        return .send(session: session, body: state.current, attempt: state.attempts)
    }

    /// Starts queued sessions while slots are free.
    private mutating func fillSlots(now: Double) -> [Action] {
        var actions: [Action] = []
        while let session = slots.dequeue() {
            if sessions[session]?.phase == .queued { actions.append(start(session, now: now)) }
        }
        return actions
    }
}

/// The push's bounds and backoff. Defaults are the issue's: 64 requests in flight, 5 minutes of
/// retries per update.
public struct PushPolicy: Sendable, Equatable {
    /// Requests in flight at most (over all sessions).
    public var maxInFlight = 64
    /// Seconds an update may spend being retried before it becomes a dead letter.
    public var maxRetryTime = 300.0
    /// The first backoff's ceiling, seconds; doubled each attempt up to ``maxBackoff``.
    public var baseBackoff = 0.1
    public var maxBackoff = 30.0
    /// The longest `Retry-After` honoured, seconds.
    public var maxRetryAfter = 60.0
    /// Seconds a request may take before it counts as a timeout (retryable).
    public var requestTimeout = 10.0

    public init() {}
}

/// What the push did (each submitted update ends as exactly one of pushed, coalesced, failed).
public struct PushStatistics: Sendable, Equatable {
    public var submitted = 0
    /// Delivered (2xx).
    public var pushed = 0
    /// Replaced by a newer location of the same session before delivery.
    public var coalesced = 0
    /// Given up: dead letters.
    public var failed = 0
    /// Retries scheduled.
    public var retries = 0

    public init() {}

    /// Updates neither delivered, replaced nor given up yet.
    public var outstanding: Int { submitted - pushed - coalesced - failed }
}

/// An update that was not delivered, with why: a line of the dead-letter file.
public struct DeadLetter: Sendable, Equatable {
    public var session: SessionID
    /// The PUT body, JSON.
    public var body: [UInt8]
    public var reason: String
    public var attempts: Int

    public init(session: SessionID, body: [UInt8], reason: String, attempts: Int) {
        self.session = session
        self.body = body
        self.reason = reason
        self.attempts = attempts
    }
}

/// A small seeded generator for the jitter (SplitMix64).
struct SplitMix64: Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
