/// A postal code: Canadian (`A1A 1A1`) or a US ZIP code (`02134`), stored packed in 32 bits.
///
/// A Canadian code is packed as `data/postal_ca.bin` packs it: letters A…Z as 0…25 and digits as
/// 0…9, mixed-radix `((((L1·10 + D1)·26 + L2)·10 + D2)·26 + L3)·10 + D3` (below 2²⁵). A ZIP code
/// is its number with the top bit set (`data/postal_us.bin` stores the number alone). Either way
/// the packed values order as the codes' texts do within one country.
public struct PostalCode: Hashable, Comparable, Sendable {
    /// The packed value; orders like the code's text (Canadian codes before ZIP codes).
    public let packed: UInt32

    /// The country whose postal system a code belongs to.
    public enum System: Sendable, Hashable {
        /// Canada Post's `A1A 1A1`, with a forward sortation area (its first three characters).
        case canada
        /// USPS ZIP codes, five digits.
        case unitedStates
    }

    /// The largest packed Canadian value (`Z9Z 9Z9`).
    package static let maxPacked: UInt32 = 26 * 10 * 26 * 10 * 26 * 10 - 1
    /// The bit that marks a ZIP code.
    package static let zipFlag: UInt32 = 1 << 31

    package init(packed: UInt32) { self.packed = packed }

    /// The ZIP code `number` (0…99,999; 2134 is `02134`); `nil` out of range.
    public init?(zip number: Int) {
        guard (0...99_999).contains(number) else { return nil }
        self.init(packed: Self.zipFlag | UInt32(number))
    }

    /// Parses `A1A 1A1` or `A1A1A1` (upper case), or five digits (a ZIP code); `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        if utf8.count == 5 {
            var number = 0
            for c in utf8 {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                number = number * 10 + Int(c - UInt8(ascii: "0"))
            }
            self.init(zip: number)
            return
        }
        let chars = utf8.filter { $0 != UInt8(ascii: " ") }
        guard chars.count == 6, utf8.count == 6 || utf8.count == 7 else { return nil }
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
        self.init(packed: v)
    }

    /// Whose code it is.
    @inline(__always)
    public var system: System { packed & Self.zipFlag == 0 ? .canada : .unitedStates }

    /// The first `count` characters (3 or 6) with a space after the third when `spaced` (a ZIP
    /// code: its five digits), at most 7 ASCII bytes, packed in a word with the first character
    /// in the low byte: the text without a `String`, for writers that copy bytes (the stream's
    /// splice writes a code in every enriched line's `geo`).
    package func textBytes(count: Int, spaced: Bool) -> (word: UInt64, count: Int) {
        precondition(count == 3 || count == 6, "a postal code's text is its first 3 or all 6 characters")
        if system == .unitedStates {
            var number = packed & ~Self.zipFlag
            var digits: UInt64 = 0
            for _ in 0..<5 {
                digits = digits << 8 | UInt64(UInt8(ascii: "0") + UInt8(number % 10))
                number /= 10
            }
            return (digits, 5)
        }
        // the mixed radix from the last character back: D3, L3, D2, L2, D1, L1 (constant divisors,
        // which the compiler turns into multiplications)
        var v = UInt64(packed)
        var characters: UInt64 = 0
        func next(_ radix: UInt64, _ zero: UInt8, at byte: UInt64) {
            characters |= (v % radix + UInt64(zero)) << (8 * byte)
            v /= radix
        }
        next(10, UInt8(ascii: "0"), at: 5)
        next(26, UInt8(ascii: "A"), at: 4)
        next(10, UInt8(ascii: "0"), at: 3)
        next(26, UInt8(ascii: "A"), at: 2)
        next(10, UInt8(ascii: "0"), at: 1)
        next(26, UInt8(ascii: "A"), at: 0)
        if count == 3 { return (characters & 0xFF_FFFF, 3) }
        guard spaced else { return (characters, 6) }
        return (characters & 0xFF_FFFF | UInt64(UInt8(ascii: " ")) << 24 | (characters >> 24) << 32, 7)
    }

    /// ``textBytes(count:spaced:)`` as a string: at most 7 bytes, a small string, made without
    /// a heap allocation.
    private func text(count: Int, spaced: Bool) -> String {
        let (word, n) = textBytes(count: count, spaced: spaced)
        return String(unsafeUninitializedCapacity: 7) { buffer in
            for i in 0..<n { buffer[i] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(i))) }
            return n
        }
    }

    /// The code as the post writes it: Canada Post's `R3C 4L9`, or a ZIP code's `02134`.
    public var formatted: String { text(count: 6, spaced: true) }

    /// Without a space, `R3C4L9` (the EQWorks payload form); a ZIP code as ``formatted``.
    public var compact: String { text(count: 6, spaced: false) }

    /// The forward sortation area of a Canadian code, its first three characters (`R3C`);
    /// `nil` for a ZIP code (the contract gives `fsa` only in Canada).
    public var fsa: String? { system == .canada ? text(count: 3, spaced: false) : nil }

    public static func < (a: PostalCode, b: PostalCode) -> Bool { a.packed < b.packed }
}

extension PostalCode: CustomStringConvertible {
    public var description: String { formatted }
}
