/// The seconds a scheduler's driver gives it as `now`: since the driver was made, on the
/// monotonic clock (``LocationPusher`` and ``TransitionWebhook``).
struct SchedulerClock: Sendable {
    private let started = ContinuousClock.now

    var now: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Waits, checking every 5 ms, until `isIdle` says nothing is left, `timeout` seconds pass,
    /// or `interrupted` says to stop waiting.
    /// - Returns: the reason to give what is left when the driver gives up on it.
    func drainWait(timeout: Double, isIdle: () -> Bool, interrupted: () -> Bool) async -> String {
        let deadline = now + timeout
        while !isIdle() && now < deadline {
            if interrupted() { return "not delivered: the drain was interrupted" }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return "not delivered within the drain timeout of \(timeout) s"
    }
}
