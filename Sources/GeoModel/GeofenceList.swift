/// The fences that hold an accepted fix (contract rule 11), as its `geo` object's `geofences`
/// array names them: a 32-bit handle that a ``GeofenceListTable`` reads.
///
/// A handle and not an array, so that ``Enrichment`` stays a plain 80-byte value that copies
/// without reference counting (the engine keeps one per live session and per older fix, and
/// copies them on every decision). Most fixes are in no fence or in one: those two cases are
/// coded in the handle itself and need no table lookup; a list of two or more fences is
/// interned by the table once (``GeofenceListTable/list(of:)``).
public struct GeofenceList: Hashable, Sendable {
    /// 0: no fence. `1 + n`: fence number `n` alone. ``internedBit`` `| k`: the table's `k`-th
    /// list of two or more. Never `UInt32.max`, which ``Enrichment`` keeps for "no list".
    /// Meaningful only with the table that made it.
    public let rawValue: UInt32

    @usableFromInline static let internedBit: UInt32 = 1 << 31
    /// The largest fence number a handle can hold alone (and the most interned lists, less one;
    /// the table holds at most 2^26 fences and lists together, see ThreadSharing's
    /// `PublishedBytes`).
    static let largestSingle = Int(internedBit) - 2

    @inlinable init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No fence.
    public static let empty = GeofenceList(rawValue: 0)

    /// Fence number `n` alone (a place in the fence set, which is in ascending order of id).
    /// - Precondition: `0 <= n < 2^31 - 1`.
    @inlinable
    public static func single(_ n: Int) -> GeofenceList {
        precondition(n >= 0 && n < Int(internedBit) - 1, "fence number out of range")
        return GeofenceList(rawValue: UInt32(n + 1))
    }

    /// Whether no fence holds the fix.
    @inlinable public var isEmpty: Bool { rawValue == 0 }

    /// The fence, when the list holds exactly one and it is coded in the handle.
    @inlinable var single: Int? {
        rawValue != 0 && rawValue & Self.internedBit == 0 ? Int(rawValue) - 1 : nil
    }

    /// The table's list number, for a list of two or more.
    @inlinable var interned: Int? {
        rawValue & Self.internedBit != 0 ? Int(rawValue & ~Self.internedBit) : nil
    }
}
