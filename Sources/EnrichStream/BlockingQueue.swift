import Foundation

/// A first-in first-out queue of at most `capacity` elements between threads: `push` waits while
/// it is full, `pop` while it is empty. What keeps the pipeline's memory flat: a stage that runs
/// ahead waits for the one behind it.
///
/// `close()` ends the stream: `pop` returns what is left, then `nil`; `push` after it drops the
/// element and returns `false`.
final class BlockingQueue<Element>: @unchecked Sendable {
    // guarded by `condition`
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false
    private let condition = NSCondition()

    /// - Parameter capacity: the most elements held at once (at least 1).
    init(capacity: Int) {
        items = Array(repeating: nil, count: max(1, capacity))
    }

    /// Appends `element`, waiting for room.
    /// - Returns: `false` when the queue was closed (the element is dropped).
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == items.count && !closed { condition.wait() }
        if closed { return false }
        items[(head + count) % items.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        if count == 0 { return nil }
        let element = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        condition.broadcast()
        return element
    }

    /// Ends the stream: waiting and future `pop`s return what is left, then `nil`.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
