import Synchronization

/// A request to stop the stream early, from a signal handler or another thread: the reader stops
/// reading, and what was read is finished, written and counted.
public final class StopFlag: Sendable {
    private let signal = Atomic<Int32>(0)
    private let parent: StopFlag?

    public init() { parent = nil }

    /// A flag that is also raised whenever `parent` is (the pipeline's own stop, which the user's
    /// signal and the writer's error limit both raise).
    init(following parent: StopFlag) { self.parent = parent }

    /// Asks the stream to stop; `signal` is what the caller wants to remember as the cause (the
    /// signal number, or any non-zero value). The first request wins.
    public func request(_ signal: Int32) {
        _ = self.signal.compareExchange(expected: 0, desired: signal == 0 ? -1 : signal, ordering: .relaxed)
    }

    /// Whether a stop was requested.
    public var isRequested: Bool { signal.load(ordering: .relaxed) != 0 || parent?.isRequested == true }

    /// The cause given to the first ``request(_:)``, or 0.
    public var cause: Int32 { signal.load(ordering: .relaxed) }
}
