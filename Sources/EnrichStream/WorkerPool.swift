import Foundation

/// Fixed worker threads for fork-join steps: ``run(_:)`` calls `body(k)` for every worker index
/// k at once, k = 0 on the calling thread, and returns when all are done.
///
/// Why not `DispatchQueue.concurrentPerform`: its iterations go to whichever thread claims them
/// first, and on a busy two-core machine the caller often claimed them all before a pool thread
/// woke, leaving a core idle. Here worker k always runs on thread k, which also keeps each
/// session partition's data in one core's cache.
final class WorkerPool: @unchecked Sendable {
    let count: Int
    private let condition = NSCondition()
    // guarded by `condition`
    private var generation = 0
    private var pending = 0
    private var job: ((Int) -> Void)?
    private var shuttingDown = false

    /// - Parameter count: workers, the caller's thread included (at least 1).
    init(count: Int) {
        self.count = max(1, count)
        for k in 1..<self.count {
            let thread = Thread { [unowned self] in self.loop(k) }
            thread.name = "geo-enrich worker \(k)"
            thread.start()
        }
    }

    deinit {
        condition.lock()
        shuttingDown = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body(k)` for k in 0..<count in parallel and waits for all of them.
    func run(_ body: @escaping (Int) -> Void) {
        guard count > 1 else { body(0); return }
        condition.lock()
        job = body
        pending = count - 1
        generation += 1
        condition.broadcast()
        condition.unlock()
        body(0)
        condition.lock()
        while pending > 0 { condition.wait() }
        job = nil
        condition.unlock()
    }

    private func loop(_ k: Int) {
        var seen = 0
        while true {
            condition.lock()
            while generation == seen && !shuttingDown { condition.wait() }
            if shuttingDown { condition.unlock(); return }
            seen = generation
            let body = job!
            condition.unlock()
            body(k)
            condition.lock()
            pending -= 1
            if pending == 0 { condition.broadcast() }
            condition.unlock()
        }
    }
}
