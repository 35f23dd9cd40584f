import Testing
import ThreadSharing
@testable import EnrichStream

/// The session partitions' claims: each worker its own partitions first, every index once.
@Suite struct ClaimsTests {
    @Test("a worker claims its own indices first, then what the others left")
    func ownFirst() {
        let claims = AffineClaims(count: 5, workers: 2)
        #expect(claims.next(for: 1) == 1)
        #expect(claims.next(for: 0) == 0)
        #expect(claims.next(for: 1) == 3)
        // worker 1's own are taken: the first left, worker 0's
        #expect(claims.next(for: 1) == 2)
        #expect(claims.next(for: 0) == 4)
        #expect(claims.next(for: 0) == nil)
        #expect(claims.next(for: 1) == nil)
    }

    @Test("claimed from many threads at once, every index is claimed once")
    func eachOnce() {
        let count = 1_000, workers = 8
        let claims = AffineClaims(count: count, workers: workers)
        let taken = Monitor<[Int: Int]>([:])
        _ = ForkJoin.map(parts: workers) { worker in
            while let k = claims.next(for: worker) {
                taken.withLock { $0[k, default: 0] += 1 }
            }
        }
        taken.withLock { taken in
            #expect(taken.count == count && taken.values.allSatisfy { $0 == 1 })
        }
    }
}
