/// A Canadian postal code (`A1A 1A1`), stored packed in 25 bits.
///
/// The packing is the one of `data/postal_ca.bin`: letters A…Z as 0…25 and digits as 0…9,
/// mixed-radix `((((L1·10 + D1)·26 + L2)·10 + D2)·26 + L3)·10 + D3`.
public struct PostalCode: Hashable, Comparable, Sendable {
    /// The packed value; orders like the code's text.
    public let packed: UInt32

    /// The largest packed value (`Z9Z 9Z9`).
    package static let maxPacked: UInt32 = 26 * 10 * 26 * 10 * 26 * 10 - 1

    package init(packed: UInt32) { self.packed = packed }

    /// Parses `A1A 1A1` or `A1A1A1` (upper case); `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        let chars = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
        guard chars.count == 6, text.utf8.count == 6 || text.utf8.count == 7 else { return nil }
        var v: UInt32 = 0
        for (i, c) in chars.enumerated() {
            if i % 2 == 0 {
                guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) else { return nil }
                v = v * 26 + UInt32(c - UInt8(ascii: "A"))
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                v = v * 10 + UInt32(c - UInt8(ascii: "0"))
            }
        }
        packed = v
    }

    /// Character `i` (0…5) of the code, letters and digits alternating.
    @inline(__always)
    private func character(_ i: Int) -> UInt8 {
        var v = packed
        var k = 5
        while k > i {
            v /= k % 2 == 0 ? 26 : 10
            k -= 1
        }
        return i % 2 == 0 ? UInt8(ascii: "A") + UInt8(v % 26) : UInt8(ascii: "0") + UInt8(v % 10)
    }

    /// The characters `0..<count` with a space after the third when `spaced`; at most 7 bytes, a
    /// small string, made without a heap allocation.
    private func text(count: Int, spaced: Bool) -> String {
        String(unsafeUninitializedCapacity: 7) { buffer in
            var n = 0
            for i in 0..<count {
                if spaced && i == 3 {
                    buffer[n] = UInt8(ascii: " ")
                    n += 1
                }
                buffer[n] = character(i)
                n += 1
            }
            return n
        }
    }

    /// Canada Post's form, `R3C 4L9`.
    public var formatted: String { text(count: 6, spaced: true) }

    /// Without the space, `R3C4L9` (the EQWorks payload form).
    public var compact: String { text(count: 6, spaced: false) }

    /// The forward sortation area: the first three characters, `R3C`.
    public var fsa: String { text(count: 3, spaced: false) }

    public static func < (a: PostalCode, b: PostalCode) -> Bool { a.packed < b.packed }
}

extension PostalCode: CustomStringConvertible {
    public var description: String { formatted }
}
