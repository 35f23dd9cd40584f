import ThreadSharing
import Synchronization

/// Fixed worker threads for fork-join steps: ``run(_:)`` calls `body(k)` for every worker index
/// k at once, k = 0 on the calling thread, and returns when all are done.
///
/// Why not `DispatchQueue.concurrentPerform`: its iterations go to whichever thread claims them
/// first, and on a busy two-core machine the caller often claimed them all before a pool thread
/// woke, leaving a core idle. Here worker k always runs on thread k, which also keeps each
/// session partition's data in one core's cache. The threads end when the pool is released.
final class WorkerPool: Sendable {
    /// What the threads wait on; they hold it, not the pool, so the pool can go.
    private struct Round {
        var generation = 0
        var pending = 0
        var job: (@Sendable (Int) -> Void)?
        var shuttingDown = false
    }

    let count: Int
    private let round = Monitor(Round())

    /// - Parameter count: workers, the caller's thread included (at least 1).
    init(count: Int) {
        self.count = max(1, count)
        for k in 1..<self.count {
            let round = self.round
            DetachedThread.start { Self.loop(k, round) }
        }
    }

    deinit {
        round.withLockAndWake { $0.shuttingDown = true }
    }

    /// Runs `body(k)` for k in 0..<count in parallel and waits for all of them.
    func run(_ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else { body(0); return }
        round.withLockAndWake { r in
            r.job = body
            r.pending = count - 1
            r.generation += 1
        }
        body(0)
        round.wait(until: { $0.pending == 0 }) { $0.job = nil }
    }

    private static func loop(_ k: Int, _ round: Monitor<Round>) {
        var seen = 0
        while true {
            let body = round.wait(until: { $0.generation != seen || $0.shuttingDown }) { r -> (@Sendable (Int) -> Void)? in
                if r.shuttingDown { return nil }
                seen = r.generation
                return r.job
            }
            guard let body else { return }
            body(k)
            round.withLockAndWake { $0.pending -= 1 }
        }
    }
}

/// Indices claimed by workers, each worker's own first: worker w takes the unclaimed index
/// k with k ≡ w (mod workers) first, then any other still unclaimed (a worker descheduled a
/// while has its share taken by the others). For the session partitions: each stays with one
/// worker's thread from batch to batch, its sessions' tables and renderings in that core's
/// cache, rather than with whichever worker claimed it first.
///
/// A lock a claim (a ``Monitor``, which the thread sanitizer sees): a batch has a claim a
/// partition.
final class AffineClaims: Sendable {
    private let claimed: Monitor<[Bool]>
    private let workers: Int

    init(count: Int, workers: Int) {
        claimed = Monitor(Array(repeating: false, count: count))
        self.workers = max(1, workers)
    }

    /// The next index for `worker` (0..<workers), or `nil` when all are taken.
    func next(for worker: Int) -> Int? {
        claimed.withLock { claimed -> Int? in
            var k = worker
            while k < claimed.count {
                if !claimed[k] { claimed[k] = true; return k }
                k += workers
            }
            guard let any = claimed.firstIndex(of: false) else { return nil }
            claimed[any] = true
            return any
        }
    }
}

/// Hands out the indices 0, 1, 2, … once each to whichever worker asks first.
final class Claims: Sendable {
    private let counter = Atomic<Int>(0)

    /// The next unclaimed index below `limit`, or `nil` when all are taken.
    func next(below limit: Int) -> Int? {
        let i = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return i < limit ? i : nil
    }
}
