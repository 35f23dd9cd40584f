/// A time zone of the IANA tz database, as the time-zone lookup (`TimeZoneIndex` of GeoLookup,
/// `data/timezones.bin`) answers it: the zone's number in the compiled table ``names``.
///
/// Two bytes and no reference: a value of it copies as an integer does, so a per-session
/// record that carries one stays trivially copyable. Its ``name`` comes from the table compiled
/// into this module (`TimeZoneNames.swift`, written by `scripts/data/build_timezone_data.py`
/// from the same data as the file); a data file whose zone names differ from the table is
/// refused when it is opened, so an id from the file always names the zone the file meant.
public struct TimeZoneID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The zone's index in ``names`` (the zone id of timezonefinder's `timezone_names.txt`).
    public let rawValue: UInt16

    /// - Returns: `nil` when `rawValue` is not below ``count``.
    @inlinable
    public init?(rawValue: UInt16) {
        guard Int(rawValue) < TimeZoneID.names.count else { return nil }
        self.rawValue = rawValue
    }

    /// An id the caller has checked against ``count`` (the lookup, whose file is validated).
    @inlinable
    package init(unchecked rawValue: UInt16) { self.rawValue = rawValue }

    /// The zone of an IANA name as the table spells it (`America/Toronto`); `nil` when the table
    /// has no such zone (links such as `US/Eastern` are not in it).
    ///
    /// - Complexity: O(n) in the number of zones (444): for tests and tools.
    public init?(name: some StringProtocol) {
        let wanted = Array(name.utf8)
        for (i, candidate) in TimeZoneID.names.enumerated() {
            let equal = candidate.withUTF8Buffer { $0.elementsEqual(wanted) }
            if equal {
                rawValue = UInt16(i)
                return
            }
        }
        return nil
    }

    /// How many zones the table has.
    @inlinable public static var count: Int { names.count }

    /// The IANA name, e.g. `America/Toronto`, as a static string (no allocation).
    @inlinable public var staticName: StaticString { TimeZoneID.names[Int(rawValue)] }

    /// The IANA name, e.g. `America/Toronto`.
    public var name: String { staticName.description }

    public var description: String { name }

    @inlinable
    public static func < (a: TimeZoneID, b: TimeZoneID) -> Bool { a.rawValue < b.rawValue }
}
