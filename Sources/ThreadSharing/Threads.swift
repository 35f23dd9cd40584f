#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A detached pthread in place of Foundation's `Thread`: `Thread` lives in the full
// swift-corelibs-foundation, whose link pulls in FoundationInternationalization and 34 MB of ICU
// data that nothing here uses. The threads are started as `Thread.start()` started them on
// Linux: detached, with the default attributes (the stack size of RLIMIT_STACK), so the
// stream's stages and the worker pool run as before.

/// What a new thread runs; retained across `pthread_create` and released by the thread.
private final class ThreadStart: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts threads that nobody joins: they end when their body returns, and the caller waits
/// for them, when it must, through a ``Monitor`` (the stream's latches, the pool's rounds).
package enum DetachedThread {
    /// Starts `body` on a new thread.
    ///
    /// Unnamed, as before: the pool named its threads "geo-enrich worker k", which is longer than
    /// the 15 bytes Linux keeps, so `pthread_setname_np` refused it and no name was ever set
    /// (and Glibc's Swift module does not declare that GNU function).
    ///
    /// A thread that cannot be made (the process's limit reached) stops the program: the stream
    /// cannot run without its stages.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let status = pthread_create(&thread, &attributes, { argument in
            #if canImport(Glibc)
            let start = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue()
            #else
            let start = Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue()
            #endif
            start.body()
            return nil
        }, start)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }
}

/// Runs the parts of one job at once and waits for them all: a fence file's features checked in
/// parts, its index marked in parts.
package enum ForkJoin {
    /// The processors online (at least 1): how many parts a job that scales should have.
    package static var processors: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// How many parts a job of `count` items should have: one a processor, but none smaller
    /// than `least` items (a thread costs tens of microseconds to start) and at most 8.
    package static func parts(for count: Int, least: Int) -> Int {
        min(processors, max(1, count / least), 8)
    }

    /// The items of part `part` of `parts`, when `count` items are shared as evenly as they can
    /// be, in order.
    package static func share(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// `body(part)` for every part of `0..<parts`, part 0 on the calling thread and each other
    /// on a thread of its own; returns their results in part order once all have returned.
    package static func map<T: Sendable>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard parts > 1 else { return parts == 1 ? [body(0)] : [] }
        let results = Monitor([T?](repeating: nil, count: parts))
        for part in 1..<parts {
            DetachedThread.start {
                let value = body(part)
                results.withLockAndWake { $0[part] = value }
            }
        }
        let first = body(0)
        return results.wait(until: { $0.dropFirst().allSatisfy { $0 != nil } }) { state in
            state[0] = first
            return state.map { $0! }
        }
    }
}
