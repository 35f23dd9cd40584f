import Foundation

/// Fixed worker threads for fork-join steps: ``run(_:)`` calls `body(k)` for every worker index
/// k at once, k = 0 on the calling thread, and returns when all are done.
///
/// Why not `DispatchQueue.concurrentPerform`: its iterations go to whichever thread claims them
/// first, and on a busy two-core machine the caller often claimed them all before a pool thread
/// woke, leaving a core idle. Here worker k always runs on thread k, which also keeps each
/// session partition's data in one core's cache. The threads end when the pool is released.
final class WorkerPool: @unchecked Sendable {
    /// What the threads share with the pool; they hold it, not the pool, so the pool can go.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        // guarded by `condition`
        var generation = 0
        var pending = 0
        var job: ((Int) -> Void)?
        var shuttingDown = false
    }

    let count: Int
    private let shared = Shared()

    /// - Parameter count: workers, the caller's thread included (at least 1).
    init(count: Int) {
        self.count = max(1, count)
        for k in 1..<self.count {
            let shared = self.shared
            let thread = Thread { Self.loop(k, shared) }
            thread.name = "geo-enrich worker \(k)"
            thread.start()
        }
    }

    deinit {
        shared.condition.lock()
        shared.shuttingDown = true
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Runs `body(k)` for k in 0..<count in parallel and waits for all of them.
    func run(_ body: @escaping (Int) -> Void) {
        guard count > 1 else { body(0); return }
        let s = shared
        s.condition.lock()
        s.job = body
        s.pending = count - 1
        s.generation += 1
        s.condition.broadcast()
        s.condition.unlock()
        body(0)
        s.condition.lock()
        while s.pending > 0 { s.condition.wait() }
        s.job = nil
        s.condition.unlock()
    }

    private static func loop(_ k: Int, _ s: Shared) {
        var seen = 0
        while true {
            s.condition.lock()
            while s.generation == seen && !s.shuttingDown { s.condition.wait() }
            if s.shuttingDown { s.condition.unlock(); return }
            seen = s.generation
            let body = s.job!
            s.condition.unlock()
            body(k)
            s.condition.lock()
            s.pending -= 1
            if s.pending == 0 { s.condition.broadcast() }
            s.condition.unlock()
        }
    }
}
