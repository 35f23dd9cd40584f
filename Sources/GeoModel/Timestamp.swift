/// An instant as milliseconds since the Unix epoch (UTC).
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }
}
