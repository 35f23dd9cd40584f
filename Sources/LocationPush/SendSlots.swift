import GeoModel

/// The request slots of a scheduler: how many requests are in flight over all sessions
/// (at most ``limit``), and the sessions waiting for a slot, first come first served.
/// ``PushScheduler`` and ``TransitionScheduler`` share it.
struct SendSlots: Sendable {
    let limit: Int
    private(set) var inFlight = 0
    private var waiting: [SessionID] = []
    private var head = 0

    init(limit: Int) { self.limit = limit }

    /// Whether a request may start now.
    var hasRoom: Bool { inFlight < limit }

    /// Whether sessions wait for a slot (some may no longer need one).
    var hasWaiting: Bool { head < waiting.count }

    /// A request starts.
    mutating func occupy() { inFlight += 1 }

    /// A request ended.
    mutating func vacate() { inFlight -= 1 }

    /// `session` waits for a slot.
    mutating func enqueue(_ session: SessionID) { waiting.append(session) }

    /// Whether `session`, ready to send, may start now; if not, it waits (``enqueue(_:)``).
    /// First come, first served: only when a slot is free and no session waits, so that a session
    /// whose next request is ready as its last one ends goes behind the sessions already
    /// waiting (taking the freed slot at once, one busy session could keep others waiting for
    /// good).
    mutating func admit(_ session: SessionID) -> Bool {
        guard hasRoom && !hasWaiting else {
            enqueue(session)
            return false
        }
        return true
    }

    /// The session that has waited longest, while a slot is free; `nil` when none waits or no
    /// slot is free. (A session dequeued may no longer need its slot: the caller checks.)
    mutating func dequeue() -> SessionID? {
        guard hasRoom && head < waiting.count else {
            // keep the queue's storage from growing without end behind its head
            if head > 1024 && head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return nil
        }
        head += 1
        return waiting[head - 1]
    }

    /// Nothing in flight, nobody waiting (everything was given up).
    mutating func removeAll() {
        waiting.removeAll()
        head = 0
        inFlight = 0
    }
}

/// The delay before a retry: full jitter, uniform in [0, min(cap, base · 2^(attempts−1))];
/// or the server's `Retry-After`, clamped to ``PushPolicy/maxRetryAfter``. Seeded, so a
/// scheduler is deterministic.
struct RetryBackoff: Sendable {
    let policy: PushPolicy
    private var rng: SplitMix64

    init(policy: PushPolicy, seed: UInt64) {
        self.policy = policy
        rng = SplitMix64(seed: seed)
    }

    mutating func delay(attempts: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return Swift.min(Swift.max(retryAfter, 0), policy.maxRetryAfter) }
        let exponent = Swift.min(Swift.max(attempts - 1, 0), 30)
        let ceiling = Swift.min(policy.maxBackoff, policy.baseBackoff * Double(1 << exponent))
        return ceiling * rng.nextUnit()
    }
}
