/// An H3 resolution, 0 (coarsest, 122 cells) to 15 (finest, about 0.9 m² cells).
public struct H3Resolution: RawRepresentable, Hashable, Comparable, Sendable, CaseIterable {
    /// The resolution number, 0...15.
    public let rawValue: Int

    /// - Returns: `nil` when `rawValue` is outside 0...15.
    @inlinable
    public init?(rawValue: Int) {
        guard (0...15).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// - Throws: ``H3Error/resolutionDomain`` when `value` is outside 0...15.
    @inlinable
    public init(_ value: Int) throws(H3Error) {
        guard let r = H3Resolution(rawValue: value) else { throw .resolutionDomain }
        self = r
    }

    @inlinable
    init(unchecked value: Int) { rawValue = value }

    /// Resolution 0, the 122 base cells.
    public static let coarsest = H3Resolution(unchecked: 0)
    /// Resolution 15, the finest; geo-enrich's default for GPS fixes.
    public static let finest = H3Resolution(unchecked: 15)

    public static let allCases: [H3Resolution] = (0...15).map { H3Resolution(unchecked: $0) }

    /// Whether the grid at this resolution is Class III (odd resolutions, rotated ~19.1°).
    @inlinable
    public var isClassIII: Bool { rawValue & 1 == 1 }

    @inlinable
    public static func < (a: H3Resolution, b: H3Resolution) -> Bool { a.rawValue < b.rawValue }
}

extension H3Resolution: CustomStringConvertible {
    public var description: String { String(rawValue) }
}
