import ThreadSharing

/// A first-in first-out queue of at most `capacity` elements between threads: `push` waits while
/// it is full, `pop` while it is empty. What keeps the pipeline's memory flat: a stage that runs
/// ahead waits for the one behind it.
///
/// `close()` ends the stream: `pop` returns what is left, then `nil`; `push` after it drops the
/// element and returns `false`.
final class BlockingQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element?]
        var head = 0
        var count = 0
        var closed = false
    }

    private let state: Monitor<State>

    /// - Parameter capacity: the most elements held at once (at least 1).
    init(capacity: Int) {
        state = Monitor(State(items: Array(repeating: nil, count: max(1, capacity))))
    }

    /// Appends `element`, waiting for room.
    /// - Returns: `false` when the queue was closed (the element is dropped).
    @discardableResult
    func push(_ element: Element) -> Bool {
        state.wait(until: { $0.count < $0.items.count || $0.closed }) { s in
            if s.closed { return false }
            s.items[(s.head + s.count) % s.items.count] = element
            s.count += 1
            return true
        }
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed and empty.
    func pop() -> Element? {
        state.wait(until: { $0.count > 0 || $0.closed }) { s in
            if s.count == 0 { return nil }
            let element = s.items[s.head]
            s.items[s.head] = nil
            s.head = (s.head + 1) % s.items.count
            s.count -= 1
            return element
        }
    }

    /// Ends the stream: waiting and future `pop`s return what is left, then `nil`.
    func close() {
        state.withLockAndWake { $0.closed = true }
    }
}

/// A one-time signal from one thread to another: ``wait()`` returns once ``signal()`` has
/// been called (and everything the signalling thread did before it is visible).
final class Latch: Sendable {
    private let done = Monitor(false)

    func signal() { done.withLockAndWake { $0 = true } }

    func wait() { done.wait(until: { $0 }) { _ in } }
}
