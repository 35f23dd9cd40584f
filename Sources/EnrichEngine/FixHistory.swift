import GeoModel

/// The accepted fixes that sessions keep for late events (an event up to one expiry behind its
/// session's newest fix still finds the fix that was live at its time), other than each
/// session's newest, which ``SessionState`` holds inline.
///
/// One pool for the whole table, of nodes linked into a list per session, oldest first: a
/// session's fixes are appended at its list's tail and dropped from its head once they fall out
/// of the window, so recording a fix is O(1) amortised and allocates only when the pool grows.
/// (A per-session `Array` allocates on a session's second fix, again as it grows, and shifts its
/// elements when the front is dropped.) Freed nodes go on a free list and are reused; ``compact(_:)``
/// rebuilds the pool without them, so its memory follows the live sessions down.
///
/// Node references are the node's position plus one, in 32 bits, with 0 for none, to keep
/// ``SessionState`` small.
struct FixHistory {
    /// One kept fix and the next (newer) fix of its session, or the next free node.
    struct Node {
        var fix: Enrichment
        var next: UInt32
    }

    private var nodes: [Node] = []
    /// The first free node, 0 when none.
    private var free: UInt32 = 0
    /// Nodes on the free list.
    private(set) var freeCount = 0

    /// Nodes in use.
    var count: Int { nodes.count - freeCount }

    /// Nodes allocated, in use, free or not yet used.
    var allocatedNodes: Int { nodes.capacity }

    /// The fix of node `reference`.
    @inline(__always)
    func fix(_ reference: UInt32) -> Enrichment { nodes[Int(reference) - 1].fix }

    /// The timestamp of node `reference`'s fix, in epoch milliseconds.
    @inline(__always)
    func time(_ reference: UInt32) -> Int64 { nodes[Int(reference) - 1].fix.fixTimestamp.milliseconds }

    /// The node after `reference` in its list, 0 at the tail.
    @inline(__always)
    func next(_ reference: UInt32) -> UInt32 { nodes[Int(reference) - 1].next }

    /// Appends `fix` to the list `head`…`tail` (both 0 for an empty list).
    ///
    /// - Complexity: O(1) amortised.
    @inline(__always)
    mutating func append(_ fix: Enrichment, head: inout UInt32, tail: inout UInt32) {
        let node: UInt32
        if free != 0 {
            node = free
            free = nodes[Int(node) - 1].next
            freeCount -= 1
            nodes[Int(node) - 1] = Node(fix: fix, next: 0)
        } else {
            precondition(nodes.count < Int(UInt32.max), "more kept fixes than a 32-bit reference holds")
            nodes.append(Node(fix: fix, next: 0))
            node = UInt32(nodes.count)
        }
        if tail == 0 { head = node } else { nodes[Int(tail) - 1].next = node }
        tail = node
    }

    /// Drops the fixes taken before `cutoff` (epoch ms) from the head of the list `head`…`tail`.
    ///
    /// - Complexity: O(k + 1), k the fixes dropped.
    @inline(__always)
    mutating func dropFixes(before cutoff: Int64, head: inout UInt32, tail: inout UInt32) {
        while head != 0 && time(head) < cutoff {
            let next = nodes[Int(head) - 1].next
            release(head)
            head = next
        }
        if head == 0 { tail = 0 }
    }

    /// Frees every node of the list starting at `head`.
    ///
    /// - Complexity: O(k), k the list's length.
    mutating func releaseAll(from head: UInt32) {
        var node = head
        while node != 0 {
            let next = nodes[Int(node) - 1].next
            release(node)
            node = next
        }
    }

    private mutating func release(_ node: UInt32) {
        nodes[Int(node) - 1].next = free
        free = node
        freeCount += 1
    }

    /// Whether enough of the pool is free for ``compact(_:)`` to be worth its O(n): more than
    /// half of it, so that compaction costs O(1) amortised per node freed.
    var isSparse: Bool { freeCount > 64 && 2 * freeCount > nodes.count }

    /// Rebuilds the pool with only the nodes reachable from `states`, in list order, in storage
    /// of exactly that size, and relinks the states to it.
    ///
    /// - Complexity: O(n + m), n the states and m the nodes in use.
    mutating func compact(_ states: inout [SessionState]) {
        var kept: [Node] = []
        kept.reserveCapacity(count)
        for i in states.indices where states[i].olderHead != 0 {
            var node = states[i].olderHead
            states[i].olderHead = UInt32(kept.count + 1)
            while node != 0 {
                let n = nodes[Int(node) - 1]
                kept.append(Node(fix: n.fix, next: n.next == 0 ? 0 : UInt32(kept.count + 2)))
                node = n.next
            }
            states[i].olderTail = UInt32(kept.count)
        }
        nodes = kept
        free = 0
        freeCount = 0
    }
}
