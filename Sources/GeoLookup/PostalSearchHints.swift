#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread's postal searches remember between calls: for grid cells that hold no
/// centroid, how far a search from the cell had to reach and in which cell it found its answer.
///
/// A search from an empty cell (a lake, a park, the countryside between towns: about a fifth of
/// the points in a city's box) reads the 3 × 3 cells around it first; when those are empty too
/// it does not know how far its nearest centroid is, so it scans twice the cells' diagonal, then
/// four times that, and so on, rescanning the rows it has seen. Once a search from a cell has
/// found its answer at distance D, every other point of the cell has its answer within D plus
/// the cell's diagonal, and most likely in or near the same cell; the next search from that cell
/// reads the answer's cell first (a best distance from the start, which clips every row after
/// it) and scans that radius once. The hint only sets where a search starts, never what it
/// finds: the answer is the same with or without hints (`PostalIndexTests` checks it).
///
/// A fixed direct-mapped table (16,384 cells of 16 bytes, 256 KiB; a newer cell takes an older
/// one's slot), so memory stays flat however many cells a stream visits. Not thread-safe: one
/// per thread, as ``LocationLookup/Locator`` keeps one.
public final class PostalSearchHints {
    /// What a search from an empty cell starts from.
    struct Start {
        /// Metres: the radius to scan.
        var radius: Double
        /// The grid row and column of the cell where the last search found its answer, if it
        /// found one.
        var answerCell: (row: Int, column: Int)?
    }

    /// log2 of the number of slots.
    static let bits = 14
    /// Two words per slot, side by side (one cache line): the cell's key plus one (0: empty
    /// slot), and the start packed as the radius's `Float` bits (rounded up) above the answer
    /// cell's row · 2^17 + column (all ones: none).
    private let slots: UnsafeMutablePointer<UInt64>

    public init() {
        // zeroed by `calloc`, which takes a block this large straight from the system's zeroed
        // pages: only the pages a search touches become resident. Zeroed by hand, every
        // locator's two tables were written whole at start-up: with two workers' eight
        // partitions, 30 % of the run's page faults (perf, 1 M-line benchmark stream).
        guard let zeroed = calloc(2 << Self.bits, MemoryLayout<UInt64>.stride) else {
            fatalError("PostalSearchHints: cannot allocate \(16 << Self.bits) bytes")
        }
        slots = zeroed.assumingMemoryBound(to: UInt64.self)
    }

    deinit {
        free(slots)
    }

    /// The key of a grid cell (row and column are non-negative).
    @inline(__always) static func key(row: Int, column: Int) -> UInt64 {
        (UInt64(truncatingIfNeeded: row) << 32 | UInt64(truncatingIfNeeded: column)) &+ 1
    }

    @inline(__always) private static func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// 17 bits of column (a 1/125° grid has 45,000 columns; one finer than 1/364° keeps no answer cell).
    private static let columnBits = 17
    private static let noCell: UInt64 = 0xFFFF_FFFF

    /// Where to start a search from this cell, if a search from it has finished.
    @inline(__always) func start(for key: UInt64) -> Start? {
        let s = 2 &* Self.slot(key)
        guard slots[s] == key else { return nil }
        let packed = slots[s &+ 1]
        let radius = Double(Float(bitPattern: UInt32(truncatingIfNeeded: packed >> 32)))
        let cell = packed & Self.noCell
        guard cell != Self.noCell else { return Start(radius: radius, answerCell: nil) }
        return Start(radius: radius, answerCell: (Int(cell >> UInt64(Self.columnBits)), Int(cell & (1 << UInt64(Self.columnBits) - 1))))
    }

    /// Remembers where a search from this cell should start: `radius` in metres (rounded up to
    /// a `Float`), and the cell of the answer found, if any.
    @inline(__always) func remember(_ radius: Double, answerCell: (row: Int, column: Int)?, for key: UInt64) {
        let s = 2 &* Self.slot(key)
        var r = Float(radius)
        if Double(r) < radius { r = r.nextUp }
        var cell = Self.noCell
        if let (row, column) = answerCell, row >= 0, column >= 0, column < 1 << Self.columnBits, row < 1 << (32 - Self.columnBits) - 1 {
            cell = UInt64(row) << UInt64(Self.columnBits) | UInt64(column)
        }
        slots[s] = key
        slots[s &+ 1] = UInt64(r.bitPattern) << 32 | cell
    }
}
