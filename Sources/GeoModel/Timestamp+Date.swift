#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Timestamp {
    /// The instant of `date`, to the nearest millisecond; `nil` outside ``representable``.
    /// (Nearest, not down: a `Date` counts from 2001 in a `Double`, so the epoch milliseconds read
    /// back from a timestamp's own ``date`` can be a hair below the integer.)
    public init?(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, milliseconds >= Double(Self.representable.lowerBound),
              milliseconds <= Double(Self.representable.upperBound) else { return nil }
        self.init(milliseconds: Int64(milliseconds))
    }

    /// The instant as a `Date`; ``init(_:)`` gives back the same timestamp for every one in
    /// ``representable``.
    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
