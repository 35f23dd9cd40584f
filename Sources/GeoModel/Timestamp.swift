/// An instant as milliseconds since the Unix epoch (UTC).
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instants a record's timestamp may name, in epoch milliseconds: from
    /// 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, the years that `fix_timestamp`'s
    /// four-digit ISO 8601 form can write (and Python's `datetime` can hold). A fix outside is
    /// `bad_timestamp`; an event outside finds no fix (none is taken there).
    ///
    /// Why a range: inside it, the difference of any two timestamps (at most 3.2 × 10¹⁴ ms) plus
    /// any window the engine adds (an expiry or eviction delay, bounded by the options at
    /// 10¹⁵ ms) stays far inside `Int64`, so no arithmetic on times can overflow. Before the
    /// range, one record at -9223372036854775807 ms made the next fix's age overflow and trap.
    public static let representable: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }
}
