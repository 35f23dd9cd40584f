/// What one thread's postal searches remember between calls: for grid cells that hold no
/// centroid, how far a search from the cell had to reach.
///
/// A search from an empty cell (a lake, a park, the countryside between towns: about a fifth of
/// the points in a city's box) reads the 3 × 3 cells around it first; when those are empty too
/// it does not know how far its nearest centroid is, so it scans twice the cells' diagonal, then
/// four times that, and so on, rescanning the rows it has seen. Once a
/// search from a cell has found its answer at distance D, every other point of the cell has its
/// answer within D plus the cell's diagonal; the next search from that cell starts with that
/// radius and scans once. The hint only sets where a search starts, never what it finds: the
/// answer is the same with or without hints (`PostalIndexTests` checks it).
///
/// A fixed direct-mapped table (16,384 cells, 192 KiB; a newer cell takes an older one's slot),
/// so memory stays flat however many cells a stream visits. Not thread-safe: one per thread, as
/// ``LocationLookup/Locator`` keeps one.
public final class PostalSearchHints {
    /// log2 of the number of slots.
    static let bits = 14
    /// Per slot: the cell's key plus one (0: empty slot) and the radius to start with, in metres.
    private let keys: UnsafeMutablePointer<UInt64>
    private let radii: UnsafeMutablePointer<Double>

    public init() {
        let count = 1 << Self.bits
        keys = .allocate(capacity: count)
        keys.initialize(repeating: 0, count: count)
        radii = .allocate(capacity: count)
        radii.initialize(repeating: 0, count: count)
    }

    deinit {
        keys.deallocate()
        radii.deallocate()
    }

    /// The key of a grid cell (row and column are non-negative).
    @inline(__always) static func key(row: Int, column: Int) -> UInt64 {
        (UInt64(truncatingIfNeeded: row) << 32 | UInt64(truncatingIfNeeded: column)) &+ 1
    }

    @inline(__always) private static func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The radius to start a search from this cell with, if a search from it has finished.
    @inline(__always) func radius(for key: UInt64) -> Double? {
        let s = Self.slot(key)
        return keys[s] == key ? radii[s] : nil
    }

    /// Remembers the radius a search from this cell should start with.
    @inline(__always) func remember(_ radius: Double, for key: UInt64) {
        let s = Self.slot(key)
        keys[s] = key
        radii[s] = radius
    }
}
