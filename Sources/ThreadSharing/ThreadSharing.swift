#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Every `@unchecked Sendable` of the engine, the stream and the push is in this file: the four ways
// their threads share what the compiler cannot check, each with the reason it is safe.
// Everything else is checked (`Sendable` or not, honestly), and the test command runs the
// engine's, the stream's and the push's tests under the thread sanitizer (`scripts/ci/tsan.sh`).
//
// The lock is a pthread mutex and condition variable, not `Synchronization.Mutex`: the thread
// sanitizer sees pthread's happens-before edges but not `Mutex`'s (on Linux with Swift 6.3 a
// six-line program of four threads counting under `Mutex.withLock` is reported as an access
// race on every run; the same program under a pthread mutex is clean), so with pthread its runs
// check the hand-overs below as well as the code around them.

/// A value guarded by a lock, with a condition to wait on: the one primitive the stream's
/// queues, worker pool and partitions and the engine's shards are built on.
///
/// `@unchecked Sendable`: the value is read and written only inside ``withLock(_:)`` and
/// ``wait(until:then:)``, under the lock. It enters through a `sending` parameter, so no other
/// thread keeps a reference to it; what a body returns must likewise not alias the value.
@usableFromInline
package final class Monitor<State>: @unchecked Sendable {
    // usable from inlinable code: `withLock`, on the engine's per-fix path through a shard, is
    // inlined into the caller (a call into this module and a `_modify` coroutine for the value
    // cost the engine's `LocationEngine.ingest` 19 ns a fix, 65 against 47 ns)
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    @usableFromInline var state: State

    package init(_ state: sending State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the value under the lock.
    @inlinable
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` on the value under the lock, then wakes every thread waiting in
    /// ``wait(until:then:)``.
    package func withLockAndWake<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `ready` holds of the value, then runs `body` on it under the lock and wakes
    /// every other waiter.
    package func wait<R>(until ready: (State) -> Bool, then body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !ready(state) { pthread_cond_wait(condition, mutex) }
        return try body(&state)
    }

}

/// Carries a value that is not `Sendable` (a batch of lines, an input, the writer) to another
/// thread, which alone uses it from then on.
///
/// `@unchecked Sendable`: the stream moves each such value through a queue or into a thread's
/// closure and keeps no other reference it uses meanwhile; a batch goes round the stages
/// reader → decider → writer → reader, one stage holding it at a time, and each hand-over
/// passes through a ``Monitor``'s lock.
package struct Handoff<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// A batch's bytes, read by all the workers while the batch is processed; a fence file's bytes,
/// read by the parts of its loading.
///
/// `@unchecked Sendable`: the bytes are a batch's own buffer, not written while the batch is
/// processed (the reader fills a batch before, the writer recycles it after), and the batch outlives every worker's use (the worker pool's `run` returns
/// only when all are done); a fence file's bytes are an array that is not written while
/// ``ForkJoin/map(parts:_:)`` runs and outlives it (it returns only when every part has).
package struct SharedBytes: @unchecked Sendable {
    private let base: UnsafePointer<UInt8>

    package init(_ base: UnsafePointer<UInt8>) { self.base = base }

    /// The `count` bytes at `start`.
    @inline(__always)
    package func bytes(start: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: count)
    }
}

/// Byte strings appended under a lock and read without one: a table that grows while threads
/// read it, each string by the index its append returned. The fence lists' JSON and numbers
/// (GeoModel's `GeofenceListTable`), read for every line a fix in two or more fences enriches,
/// where reading under a lock and retaining an array was about 7 % of what fences cost a line.
///
/// `@unchecked Sendable`: a string is written once, in ``append(_:)`` under the lock, into memory
/// that never moves or changes until `deinit` (blocks of bytes, and a directory of fixed-size
/// chunks of places); its index is known only to the appending thread until that thread hands
/// it on, and every hand-over of an index (a lock, a queue, a cache filled from `append`'s
/// result) comes after the lock's release, so a reader of index `k` sees string `k` written.
/// An index from another list, or never returned, traps (checked against the directory) or
/// reads an empty string; it cannot read outside the list's memory.
package final class PublishedBytes: @unchecked Sendable {
    private struct Place {
        var start: UnsafeRawPointer?
        var count: Int
    }
    /// Places per chunk (a power of two), and chunks at most: 2^26 strings.
    private static let chunkBits = 12, chunkMask = (1 << 12) - 1, mostChunks = 1 << 14
    /// Bytes are allocated in blocks of this size (or one block for a larger string), 8-byte
    /// aligned, so that strings of `UInt32`s can be read as such.
    private static let blockSize = 1 << 16

    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Place>?>
    private struct Writer {
        var count = 0
        var blocks: [UnsafeMutableRawPointer] = []
        var free: UnsafeMutableRawPointer?
        var left = 0
    }
    private let writer = Monitor(Writer())

    package init() {
        chunks = .allocate(capacity: Self.mostChunks)
        chunks.initialize(repeating: nil, count: Self.mostChunks)
    }

    deinit {
        writer.withLock { w in for block in w.blocks { block.deallocate() } }
        for c in 0..<Self.mostChunks { chunks[c]?.deallocate() }
        chunks.deallocate()
    }

    /// Strings appended so far.
    package var count: Int { writer.withLock { $0.count } }

    /// Appends a copy of `bytes`; its index (0, 1, … in the order of appends).
    @discardableResult
    package func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        append(byteCount: bytes.count) { string in
            if let base = bytes.baseAddress, bytes.count > 0 { string.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        }
    }

    /// Appends a string of `byteCount` bytes that `write` writes in place, every one of them
    /// (it must not keep the buffer); its index (0, 1, … in the order of appends). The caller
    /// that has the string in parts saves making it whole first, and a copy.
    @discardableResult
    package func append(byteCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Int {
        writer.withLock { w in
            let k = w.count
            precondition(k < Self.mostChunks << Self.chunkBits, "PublishedBytes: more than 2^26 strings")
            let size = (byteCount + 7) & ~7
            if size > w.left {
                let block = UnsafeMutableRawPointer.allocate(byteCount: max(Self.blockSize, size), alignment: 8)
                w.blocks.append(block)
                (w.free, w.left) = (block, max(Self.blockSize, size))
            }
            let start = w.free!
            write(UnsafeMutableRawBufferPointer(start: start, count: byteCount))
            (w.free, w.left) = (start + size, w.left - size)
            let chunk = k >> Self.chunkBits
            if chunks[chunk] == nil {
                let places = UnsafeMutablePointer<Place>.allocate(capacity: 1 << Self.chunkBits)
                places.initialize(repeating: Place(start: nil, count: 0), count: 1 << Self.chunkBits)
                chunks[chunk] = places
            }
            chunks[chunk]![k & Self.chunkMask] = Place(start: UnsafeRawPointer(start), count: byteCount)
            w.count = k + 1
            return k
        }
    }

    /// String `k`, without the lock: valid while the list lives.
    /// - Precondition: `k` was returned by ``append(_:)`` of this list (see the type's comment).
    @inline(__always)
    package subscript(k: Int) -> UnsafeRawBufferPointer {
        precondition(k >= 0 && k < Self.mostChunks << Self.chunkBits, "PublishedBytes: no such string")
        guard let places = chunks[k >> Self.chunkBits] else { preconditionFailure("PublishedBytes: no such string") }
        let place = places[k & Self.chunkMask]
        return UnsafeRawBufferPointer(start: place.start, count: place.count)
    }
}
