/// An ISO 3166-1 alpha-2 country code, two upper-case ASCII letters (`CA`, `US`, `EH`).
///
/// Natural Earth's `ISO_A2_EH` field gives the code of each admin-0 polygon; a polygon without
/// one (`-99`) has no `CountryCode`.
public struct CountryCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The two letters as bytes, the first in the high byte: orders like the text.
    public let packed: UInt16

    /// Parses two upper-case ASCII letters; `nil` for anything else (`"ca"`, `"-99"`, `"CAN"`).
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 2 else { return nil }
        self.init(first: bytes[0], second: bytes[1])
    }

    /// The code of two ASCII bytes as stored in a data file, if both are letters A…Z.
    package init?(first: UInt8, second: UInt8) {
        let letters = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard letters.contains(first), letters.contains(second) else { return nil }
        packed = UInt16(first) << 8 | UInt16(second)
    }

    /// The code as text, e.g. `CA`.
    public var description: String {
        // two bytes: a small string, made without a heap allocation
        String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = UInt8(truncatingIfNeeded: packed >> 8)
            buffer[1] = UInt8(truncatingIfNeeded: packed)
            return 2
        }
    }

    public static func < (lhs: CountryCode, rhs: CountryCode) -> Bool { lhs.packed < rhs.packed }
}
