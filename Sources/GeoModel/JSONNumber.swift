/// A number as a record's JSON wrote it, so that it is written back the same way: a fix's
/// `"latitude":49` comes back in `geo` as `49`, not `49.0`, on every line the fix enriches.
///
/// The kinds are orjson 3.8.3's, as it hands a number to Python:
/// orjson gives a Python `int` for integer syntax within 64 bits (-2^63 ... 2^64-1) and a `float`
/// otherwise (fraction, exponent, or an integer too large); `orjson.dumps` prints an `int` as an
/// integer and a `float` in its shortest round-trip form. Keeping the kind keeps `12` from
/// coming back as `12.0`.
public enum JSONNumber: Sendable, Hashable {
    /// An integer in `Int64` range (`-0` is the integer 0).
    case integer(Int64)
    /// An integer above `Int64.max` and at most `UInt64.max`.
    case unsignedInteger(UInt64)
    /// A float: finite (orjson refuses numbers that overflow a double).
    case double(Double)

    /// The number as a double (integers rounded to nearest, as Python's `float()` does).
    @inlinable
    public var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsignedInteger(let v): return Double(v)
        case .double(let v): return v
        }
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// An integer, as JSON's integer syntax gives it.
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// A float, as JSON's fraction or exponent syntax gives it.
    public init(floatLiteral value: Double) { self = .double(value) }
}

// The decimal reader shared by the record codec's numbers and the fence files' positions
// (GeoLookup's FenceJSON): one exact conversion for both.
extension JSONNumber {
    /// 10^`k` for 0 <= k <= 22, the powers of ten a double holds exactly. A `switch` of
    /// constants, which the compiler makes a table in read-only data: a `static let` array was
    /// reached through its lazy initialiser's `swift_once` and a bounds check on every read.
    @inlinable @inline(__always)
    package static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: preconditionFailure("10^\(k) is not a double exactly")
        }
    }

    /// The correctly rounded double of a checked, finite number's text (JSON number syntax).
    ///
    /// Clinger's fast path covers the usual coordinates (a mantissa up to 2^53 and |exponent|
    /// <= 22: one exact operation); up to 19 significant digits and |exponent| <= 27,
    /// ``roundedExactly(_:timesTenToThe:)``; anything else goes to the standard library's
    /// parser. All three are correctly rounded.
    package static func readDouble(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double {
        var i = start
        let negative = p[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var fast = true
        while i < end, p[i] &- 48 < 10 {
            if mantissa != 0 || p[i] != UInt8(ascii: "0") {
                digits &+= 1
                if digits > 19 { fast = false; break }
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)  // at most 19 digits: no overflow
            }
            i &+= 1
        }
        if fast, i < end, p[i] == UInt8(ascii: ".") {
            i &+= 1
            while i < end, p[i] &- 48 < 10 {
                if mantissa != 0 || p[i] != UInt8(ascii: "0") {
                    digits &+= 1
                    if digits > 19 { fast = false; break }
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)  // at most 19 digits: no overflow
                }
                exponent &-= 1
                i &+= 1
            }
        }
        if fast, i < end {  // 'e' or 'E'
            i += 1
            var exponentNegative = false
            if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                exponentNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            var value = 0
            while i < end {
                value = min(value * 10 + Int(p[i] &- 48), 1_000_000)
                i += 1
            }
            exponent += exponentNegative ? -value : value
        }
        if fast, let v = double(mantissa: mantissa, timesTenToThe: exponent, negative: negative) { return v }
        return parsed(p, from: start, to: end)
    }

    /// The usual coordinate or measure, `-ddd.ddddddd` (1-7 digits before the point, none of
    /// them a leading zero, 1-15 after it, at most 19 in all, no exponent), read a word at a
    /// time: the integer's digits, the fraction's first eight and the rest each by one count of
    /// leading digits and one SWAR conversion (``leadingDigits(_:)``, ``firstDigits(_:count:)``).
    /// Returns the correctly rounded double and the index after the number; nil, having read
    /// nothing past `count`, for any other number, which the caller then reads digit by digit.
    ///
    /// `count` is how many bytes from `p` may be read: within 25 bytes of it, nil.
    ///
    /// The double is ``double(mantissa:timesTenToThe:negative:)``'s of the same mantissa and
    /// exponent as ``readDouble(_:from:to:)``'s, so the same. Digit by digit, a fence file's
    /// 16-17-digit coordinate cost about 280 instructions in `FenceJSON`'s own loop (callgrind,
    /// 20,000 fences).
    package static func plainDecimal(_ p: UnsafePointer<UInt8>, at start: Int, count: Int) -> (value: Double, end: Int)? {
        let k = p[start] == UInt8(ascii: "-") ? start &+ 1 : start
        guard k &+ 25 <= count, let (value, length) = plainDecimal(UnsafeRawPointer(p + start)) else { return nil }
        return (value, start &+ length)
    }

    /// ``plainDecimal(_:at:count:)`` of the number at `q`, 25 bytes of which from its first digit may be read;
    /// returns the value and the number's length.
    @inline(__always)
    static func plainDecimal(_ q: UnsafeRawPointer) -> (value: Double, length: Int)? {
        let negative = q.load(as: UInt8.self) == UInt8(ascii: "-")
        let k = negative ? 1 : 0
        let w0 = q.loadUnaligned(fromByteOffset: k, as: UInt64.self)
        let whole = leadingDigits(w0)
        // a leading zero is not JSON (but 0 alone is a number)
        guard whole > 0, whole < 8, whole == 1 || UInt8(truncatingIfNeeded: w0) != UInt8(ascii: "0"),
              q.load(fromByteOffset: k &+ whole, as: UInt8.self) == UInt8(ascii: ".") else { return nil }
        let f = k &+ whole &+ 1
        let w1 = q.loadUnaligned(fromByteOffset: f, as: UInt64.self)
        let first = leadingDigits(w1)
        guard first > 0 else { return nil }
        var fraction: UInt64, digits: Int
        if first < 8 {
            fraction = firstDigits(w1, count: first)
            digits = first
        } else {
            let w2 = q.loadUnaligned(fromByteOffset: f &+ 8, as: UInt64.self)
            let rest = leadingDigits(w2)
            guard rest < 8 else { return nil }
            fraction = digitsValue(w1)
            if rest > 0 { fraction = fraction &* smallPowerOfTen(rest) &+ firstDigits(w2, count: rest) }
            digits = 8 &+ rest
        }
        let end = f &+ digits
        let next = q.load(fromByteOffset: end, as: UInt8.self)
        guard whole &+ digits <= 19, next | 0x20 != UInt8(ascii: "e") else { return nil }
        // below 10^19: fits 64 bits
        let mantissa = firstDigits(w0, count: whole) &* smallPowerOfTen(digits) &+ fraction
        guard let value = double(mantissa: mantissa, timesTenToThe: -digits, negative: negative) else { return nil }
        return (value, end)
    }

    /// The standard library's reading of a checked number's text (the grammar is a subset of
    /// what `Double(_:)` reads; finite was checked): for what the exact paths do not take.
    package static func parsed(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
        return Double(text)!
    }

    /// ±`mantissa` × 10^`exponent`, correctly rounded, for a mantissa of at most 19 significant
    /// digits: Clinger's fast path, else ``roundedExactly(_:timesTenToThe:)``; nil when neither
    /// applies (|exponent| > 27 and more than Clinger's).
    @inline(__always)
    package static func double(mantissa: UInt64, timesTenToThe exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if mantissa <= UInt64(1) << 53 && exponent >= -22 && exponent <= 22 {
            let m = Double(mantissa)
            let v = exponent >= 0 ? m * exactPowerOfTen(exponent) : m / exactPowerOfTen(-exponent)
            return negative ? -v : v
        }
        if let v = roundedExactly(mantissa, timesTenToThe: exponent) {
            return negative ? -v : v
        }
        return nil
    }

    /// The value of eight ASCII digits read as a little-endian word (the first digit in its
    /// lowest byte), which the caller knows are digits (``leadingDigits(_:)`` counted them).
    /// Lemire's SWAR conversion (simdjson's `parse_eight_digits_unrolled`; D. Lemire, "Quickly
    /// parsing eight digits", 2022): three multiplications instead of eight steps of a loop.
    @inlinable @inline(__always)
    package static func digitsValue(_ w: UInt64) -> UInt64 {
        var v = w & 0x0F0F_0F0F_0F0F_0F0F
        v = (v &* 10) &+ (v >> 8)  // each even byte: ten times its digit plus the next
        let pairs: UInt64 = 0x0000_00FF_0000_00FF
        return ((v & pairs) &* (100 &+ (1_000_000 << 32)) &+ ((v >> 16) & pairs) &* (1 &+ (10_000 << 32))) >> 32
    }

    /// How many of a little-endian word's bytes, from its lowest, are ASCII digits (0...8).
    /// A digit is 0x30-0x39: its high nibble 3, and still 3 once 6 is added. A byte's sum can
    /// carry into the next byte only when the byte is not a digit, so the first non-digit is
    /// found right whatever follows it.
    @inlinable @inline(__always)
    package static func leadingDigits(_ w: UInt64) -> Int {
        let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        let misfits = ((w & highs) ^ threes) | (((w &+ 0x0606_0606_0606_0606) & highs) ^ threes)
        return misfits.trailingZeroBitCount / 8
    }

    /// The value of the first `n` (1...7) bytes of a little-endian word, ASCII digits (as
    /// ``leadingDigits(_:)`` found them), whatever the bytes after them: the digits shifted to
    /// the word's top and '0's put below them, read by ``digitsValue(_:)``.
    @inlinable @inline(__always)
    package static func firstDigits(_ w: UInt64, count n: Int) -> UInt64 {
        let shifted = (w &<< UInt64(8 &* (8 &- n))) | (0x3030_3030_3030_3030 &>> UInt64(8 &* n))
        return digitsValue(shifted)
    }

    /// 10^`n` for 0 <= n <= 19 (a `switch` of constants, made a table in read-only data, as
    /// ``exactPowerOfTen(_:)``: a loop of multiplications, its length the digits', cost a
    /// third of a fence file's number, mostly mispredicted branches, in `perf annotate`).
    @inlinable @inline(__always)
    package static func smallPowerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        case 19: 10_000_000_000_000_000_000
        default: preconditionFailure("10^\(n) does not fit 64 bits")
        }
    }

    /// 5^`k` for 0 <= k <= 27, the powers of five that fit 64 bits (a `switch` of constants, as
    /// ``exactPowerOfTen(_:)``).
    @inline(__always)
    static func powerOfFive(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 5
        case 2: 25
        case 3: 125
        case 4: 625
        case 5: 3_125
        case 6: 15_625
        case 7: 78_125
        case 8: 390_625
        case 9: 1_953_125
        case 10: 9_765_625
        case 11: 48_828_125
        case 12: 244_140_625
        case 13: 1_220_703_125
        case 14: 6_103_515_625
        case 15: 30_517_578_125
        case 16: 152_587_890_625
        case 17: 762_939_453_125
        case 18: 3_814_697_265_625
        case 19: 19_073_486_328_125
        case 20: 95_367_431_640_625
        case 21: 476_837_158_203_125
        case 22: 2_384_185_791_015_625
        case 23: 11_920_928_955_078_125
        case 24: 59_604_644_775_390_625
        case 25: 298_023_223_876_953_125
        case 26: 1_490_116_119_384_765_625
        case 27: 7_450_580_596_923_828_125
        default: preconditionFailure("5^\(k) does not fit 64 bits")
        }
    }

    /// `mantissa` × 10^`exponent`, correctly rounded (to nearest, ties to even), for the
    /// numbers Clinger's path leaves: a mantissa above 2^53 (16-19 significant digits, as a
    /// fence file's coordinates written by `repr` often have), or 22 < |exponent| <= 27. Nil
    /// for |exponent| > 27 (the standard library's parser takes those).
    ///
    /// Exact integer arithmetic, no table of approximations: 10^-k = 5^-k × 2^-k, so a
    /// negative exponent is one 128-by-64-bit division by 5^k (which fits 64 bits for k <= 27),
    /// with the mantissa shifted up first so that the quotient has 63 or 64 bits; a positive one is
    /// a 64-by-64-bit product with 5^k. Either way the result is an integer of up to 128 bits,
    /// known exactly or up to a non-zero remainder below its last bit (the sticky bit), times a
    /// power of two; rounding it to 53 bits is then exact. Measured on the benchmark's 100,000
    /// fences (`lookup --geofences`): strtod through `Double(String)` was about 10 % of the
    /// loading's samples.
    static func roundedExactly(_ mantissa: UInt64, timesTenToThe exponent: Int) -> Double? {
        guard mantissa != 0, exponent >= -27, exponent <= 27 else { return nil }
        if exponent >= 0 {
            let (high, low) = mantissa.multipliedFullWidth(by: powerOfFive(exponent))
            return rounded(high: high, low: low, sticky: false, timesTwoToThe: exponent)
        }
        let divisor = powerOfFive(-exponent)
        let mantissaBits = 64 - mantissa.leadingZeroBitCount
        let divisorBits = 64 - divisor.leadingZeroBitCount
        // mantissa × 2^shift < 2^(mantissaBits + shift) = 2^(63 + divisorBits) <= 2^64 × divisor,
        // so the quotient fits 64 bits; and it is at least 2^62.
        let shift = 63 + divisorBits - mantissaBits
        let high = shift >= 64 ? mantissa << (shift - 64) : (shift == 0 ? 0 : mantissa >> (64 - shift))
        let low = shift >= 64 ? 0 : mantissa << shift
        let (quotient, remainder) = divisor.dividingFullWidth((high: high, low: low))
        return rounded(high: 0, low: quotient, sticky: remainder != 0, timesTwoToThe: exponent - shift)
    }

    /// (high:low + a fraction, non-zero when `sticky`) × 2^`scale`, rounded to a double.
    @inline(__always)
    static func rounded(high: UInt64, low: UInt64, sticky: Bool, timesTwoToThe scale: Int) -> Double? {
        // The top 64 bits of the integer, and whether anything below them is non-zero.
        var top: UInt64
        var below: Bool
        var scale = scale
        if high != 0 {
            let z = high.leadingZeroBitCount
            top = z == 0 ? high : (high << z) | (low >> (64 - z))
            below = (low << z) != 0 || sticky
            scale += 64 - z
        } else {
            let z = low.leadingZeroBitCount
            top = low << z
            below = sticky
            scale -= z
        }
        // 53 bits kept, 11 dropped: round half to even, with `below` as the sticky bit.
        let dropped = top & 0x7FF
        var kept = top >> 11
        let half: UInt64 = 0x400
        if dropped > half || (dropped == half && (below || kept & 1 == 1)) { kept += 1 }
        scale += 11
        // `kept` is at most 2^53, exact as a double; scaling by a power of two is exact while
        // the result stays normal, which |exponent| <= 27 and a 64-bit mantissa keep it.
        guard scale >= -1000, scale <= 960 else { return nil }
        return Double(kept) * Double(sign: .plus, exponent: scale, significand: 1)
    }
}
