import GeoModel

/// Writes values byte for byte as orjson 3.8.3's `dumps` writes the corresponding Python values.
enum OrjsonText {
    // MARK: Numbers

    /// A JSON number as the Python value orjson reads it as: an `int` as an integer, a `float` as
    /// ``writeFloat(_:to:)`` writes it.
    static func writeNumber(_ number: JSONNumber, to out: inout ByteWriter) {
        switch number {
        case .integer(let v): writeInteger(v, to: &out)
        case .unsignedInteger(let v): writeUnsigned(v, negative: false, to: &out)
        case .double(let v): writeFloat(v, to: &out)
        }
    }

    static func writeInteger(_ value: Int64, to out: inout ByteWriter) {
        writeUnsigned(value.magnitude, negative: value < 0, to: &out)
    }

    /// The decimal digits of 0 to 99, two by two: `writeUnsigned` writes two digits a step (a
    /// division by 100 where it divided by 10 per digit: the ages and timestamps of the
    /// rendered tails, 20 instructions a line of the benchmark stream fewer, callgrind).
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    static func writeUnsigned(_ magnitude: UInt64, negative: Bool, to out: inout ByteWriter) {
        if negative { out.write(UInt8(ascii: "-")) }
        let count = decimalDigitCount(magnitude)
        fillDigits(magnitude, count: count, at: out.advance(by: count))
    }

    /// The number of decimal digits of `value` (1 for 0): the bit length times log10(2),
    /// `1233 / 4096`, is the count or one less, which one comparison with a power of ten tells.
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        let bits = 64 &- (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) >> 12  // floor(log10(2^bits)), 0...19
        return value < JSONNumber.smallPowerOfTen(guess) ? max(guess, 1) : guess &+ 1
    }

    /// Writes `value`'s last `count` decimal digits at `p`, zero-padded on the left, two at a
    /// step from the last: in place, where a temporary buffer and its copy (a `memcpy` call)
    /// cost about 40 instructions a number (callgrind).
    @inline(__always)
    static func fillDigits(_ value: UInt64, count: Int, at p: UnsafeMutablePointer<UInt8>) {
        var i = count
        var rest = value
        let pairs = digitPairs.utf8Start
        while i >= 2 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            i &-= 2
            p[i] = pairs[pair]
            p[i &+ 1] = pairs[pair &+ 1]
        }
        if i == 1 { p[0] = UInt8(truncatingIfNeeded: 48 &+ rest % 10) }
    }

    /// A Python float as orjson writes it: Ryu's shortest round-trip digits, laid out by the
    /// `ryu` crate's `format64`, which is not Python's `repr`. With k the decimal exponent of
    /// the value (in [10^(k-1), 10^k)):
    /// - an integer with k <= 16 keeps `.0`: `100.0`, `1000000000000000.0` (k = 16);
    /// - other values with -5 < k <= 16 are positional: `0.00001` (repr: `1e-05`), `19.7`;
    /// - everything else is scientific with a bare exponent: `1e16` (repr `1e+16`), `1.5e-7`,
    ///   `5e-324`;
    /// - zero is `0.0` or `-0.0`.
    ///
    /// The digits come from Swift's `description`, which is also shortest-then-closest (the
    /// differential corpus holds thousands of values formatted by orjson to keep that honest).
    /// - Precondition: `value` is finite (orjson refuses to read anything else).
    static func writeFloat(_ value: Double, to out: inout ByteWriter) {
        if value == 0 {
            out.write(value.sign == .minus ? "-0.0" : "0.0")
            return
        }
        if writeShortDecimal(value, to: &out) { return }
        writeFloatViaDescription(value, to: &out)
    }

    /// ``writeFloat(_:to:)`` for any finite non-zero value, from Swift's `description`.
    static func writeFloatViaDescription(_ value: Double, to out: inout ByteWriter) {
        var description = value.description
        description.withUTF8 { text in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
                // Swift writes `-ddd.ddd`, `d.ddde±XX` or `de-XX`. Collect the significant
                // digits (value = 0.DIGITS × 10^point).
                let digits = buffer.baseAddress!
                var count = 0
                var mantissaDigits = 0
                var leadingZeros = 0
                var point = -1
                var i = text[0] == UInt8(ascii: "-") ? 1 : 0
                while i < text.count, text[i] != UInt8(ascii: "e") {
                    let c = text[i]
                    i += 1
                    if c == UInt8(ascii: ".") {
                        point = mantissaDigits
                    } else if count == 0 && c == UInt8(ascii: "0") {
                        mantissaDigits += 1
                        leadingZeros += 1
                    } else {
                        mantissaDigits += 1
                        digits[count] = c
                        count += 1
                    }
                }
                if point < 0 { point = mantissaDigits }
                while count > 1 && digits[count - 1] == UInt8(ascii: "0") { count -= 1 }
                var exponent = 0
                if i < text.count {  // at 'e'
                    i += 1
                    var negative = false
                    if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                        negative = text[i] == UInt8(ascii: "-")
                        i += 1
                    }
                    while i < text.count {
                        exponent = exponent * 10 + Int(text[i] - 48)
                        i += 1
                    }
                    if negative { exponent = -exponent }
                }
                let k = point - leadingZeros + exponent
                layOut(negative: value < 0, digits: digits, count: count, k: k, to: &out)
            }
        }
    }

    /// The common case without `description`: a value in [1e-4, 1e15) that some decimal of at
    /// most 15 significant digits, m / 10^k, reads back as. The first k that works gives the
    /// shortest such decimal, and it is the only one of its length (15-digit decimals lie
    /// further apart than a double's spacing), so it is the shortest round-trip digits the
    /// general path would find. `Double(m) / 10^k` is correctly rounded (m < 2^53, 10^k exact),
    /// so the equality is the round-trip test itself. Returns `false` to leave the value to the
    /// general path.
    ///
    /// One candidate comes first: the value's fifteen significant digits, `m` / 10^s with s
    /// from its binary exponent. When it reads back it is a decimal of at most 15 digits that
    /// does, so the same as the search's once its trailing zeros go (``writePositional``
    /// drops them). The search, one step a digit (seven for a six-decimal coordinate), is left
    /// for the values it misses: about 80 instructions fewer a float (callgrind).
    @inline(__always)
    private static func writeShortDecimal(_ value: Double, to out: inout ByteWriter) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 1e-4, magnitude < 1e15 else { return false }
        // log10(2) as 1233 / 4096: K, the digits before the point, is estimate + 1 or + 2
        let binaryExponent = Int(magnitude.bitPattern >> 52) &- 1023
        let estimate = (binaryExponent &* 1233) >> 12
        var s = 14 &- estimate  // 15 - (estimate + 1): 0...19
        if magnitude * JSONNumber.exactPowerOfTen(s) >= 1e15 { s &-= 1 }
        if let m = mantissa(magnitude, readingBackAt: s) {
            writePositional(negative: value < 0, m, fractionDigits: s, to: &out)
            return true
        }
        var k = 0
        while k <= 19 {
            if magnitude * JSONNumber.exactPowerOfTen(k) >= 1e15 { return false }
            if let m = mantissa(magnitude, readingBackAt: k) {
                writePositional(negative: value < 0, m, fractionDigits: k, to: &out)
                return true
            }
            k += 1
        }
        return false
    }

    /// The integer m nearest `magnitude` × 10^`k` when m / 10^`k` reads back as `magnitude`,
    /// else nil: ``writeShortDecimal(_:to:)``'s test of one decimal, for `magnitude` × 10^`k`
    /// below 10^15. `Double(m) / 10^k` is correctly rounded (m < 2^53, 10^k exact), so the
    /// equality is the round-trip test itself.
    @inline(__always)
    private static func mantissa(_ magnitude: Double, readingBackAt k: Int) -> UInt64? {
        let power = JSONNumber.exactPowerOfTen(k)
        let scaled = magnitude * power
        // `scaled.rounded()` (half away from zero) without libm's `round`, a call each step:
        // below 2^53 the fraction `scaled - truncated` is exact
        let truncated = Int64(scaled)
        let m = Double(scaled - Double(truncated) >= 0.5 ? truncated + 1 : truncated)
        return m / power == magnitude ? UInt64(m) : nil
    }

    /// ±`m` / 10^`k` (m >= 1, m <= 10^15, k <= 19, the value in [1e-4, 1e15)) in ``layOut(negative:digits:count:k:to:)``'s
    /// positional layouts, which are the only ones of that range: the whole part's digits, a
    /// point, and the fraction's `k` digits (zero-padded on the left) without trailing zeros, or
    /// `.0` for an integer. Two digits a step, in place: made one at a time, reversed and laid
    /// out a byte at a time, the float writer with its layout took 65.2 M instructions over the
    /// benchmark stream's first 200,000 lines, now 41.9 M (callgrind).
    @inline(__always)
    private static func writePositional(negative: Bool, _ m: UInt64, fractionDigits k: Int, to out: inout ByteWriter) {
        if negative { out.write(UInt8(ascii: "-")) }
        let scale = JSONNumber.smallPowerOfTen(k)
        writeUnsigned(m / scale, negative: false, to: &out)
        var fraction = m % scale
        guard fraction != 0 else {
            out.write(".0")
            return
        }
        var digits = k
        while fraction % 10_000 == 0 {
            fraction /= 10_000
            digits &-= 4
        }
        while fraction % 10 == 0 {
            fraction /= 10
            digits &-= 1
        }
        out.write(UInt8(ascii: "."))
        fillDigits(fraction, count: digits, at: out.advance(by: digits))
    }

    /// `format64`'s four layouts for the digits `d1…dn` of a value in [10^(k-1), 10^k).
    private static func layOut(negative: Bool, digits: UnsafeMutablePointer<UInt8>, count n: Int, k: Int,
                               to out: inout ByteWriter) {
        func put(_ c: UInt8) { out.write(c) }
        if negative { put(UInt8(ascii: "-")) }
        let exponent = k - n  // of the last digit
        if exponent >= 0 && k <= 16 {
            for d in 0..<n { put(digits[d]) }
            for _ in 0..<exponent { put(UInt8(ascii: "0")) }
            put(UInt8(ascii: "."))
            put(UInt8(ascii: "0"))
        } else if k > 0 && k <= 16 {
            for d in 0..<k { put(digits[d]) }
            put(UInt8(ascii: "."))
            for d in k..<n { put(digits[d]) }
        } else if k > -5 && k <= 0 {
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "."))
            for _ in 0 ..< -k { put(UInt8(ascii: "0")) }
            for d in 0..<n { put(digits[d]) }
        } else {
            put(digits[0])
            if n > 1 {
                put(UInt8(ascii: "."))
                for d in 1..<n { put(digits[d]) }
            }
            put(UInt8(ascii: "e"))
            var e = k - 1
            if e < 0 {
                put(UInt8(ascii: "-"))
                e = -e
            }
            if e >= 100 { put(UInt8(48 + e / 100)) }
            if e >= 10 { put(UInt8(48 + e / 10 % 10)) }
            put(UInt8(48 + e % 10))
        }
    }

    // MARK: Strings

    /// A Python `str` as orjson writes it: `"` and `\` escaped, control characters as `\b \t
    /// \n \f \r` or `\u00xx` (lower-case hex), everything else (DEL, non-ASCII) as is.
    static func writeString(_ string: String, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        for c in string.utf8 {
            switch c {
            case UInt8(ascii: "\""): out.write("\\\"")
            case UInt8(ascii: "\\"): out.write("\\\\")
            case 0x08: out.write("\\b")
            case 0x09: out.write("\\t")
            case 0x0A: out.write("\\n")
            case 0x0C: out.write("\\f")
            case 0x0D: out.write("\\r")
            case ..<0x20:
                out.write("\\u00")
                out.write(hexDigit(c >> 4))
                out.write(hexDigit(c & 0xF))
            default: out.write(c)
            }
        }
        out.write(UInt8(ascii: "\""))
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 48 + nibble : 87 + nibble
    }

    /// An H3 index as h3-py's string: lower-case hex without leading zeros, in quotes.
    ///
    /// All sixteen digits are made at once, eight to a word (``hexDigits(_:)``), and the last
    /// `digits` of them written: a digit a step, shifted out and written alone, was about 330
    /// instructions a cell, now about 100 (callgrind).
    static func writeHexString(_ value: UInt64, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        // the most significant digit first: each half's digits in memory order
        var text = (hexDigits(UInt32(truncatingIfNeeded: value >> 32)), hexDigits(UInt32(truncatingIfNeeded: value)))
        withUnsafeBytes(of: &text) { all in
            out.write(UnsafeBufferPointer(rebasing: all.bindMemory(to: UInt8.self)[(16 - digits)...]))
        }
        out.write(UInt8(ascii: "\""))
    }

    /// The eight lower-case hex digits of `value` as ASCII, the most significant in the lowest
    /// byte (memory order): the nibbles spread one to a byte, most significant last, then
    /// byte-swapped; `'0'` added to each, and 39 more to those above 9 (`'a'` is `'0'` + 49).
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // each byte above 9 gets its 0x10 bit set by adding 6
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return (x &+ 0x3030_3030_3030_3030 &+ letters &* 39).byteSwapped
    }

    // MARK: Timestamps

    /// A `fix_timestamp` in quotes, as Python writes it: `datetime.fromtimestamp(ms / 1000,
    /// tz=utc)` formatted `%Y-%m-%dT%H:%M:%S.` plus `ms % 1000` in three digits and `Z`.
    ///
    /// glibc's `%Y` does not pad, so years before 1000 print short (`999-01-01T…`); the seconds
    /// are `floor(ms / 1000)` (the float division errs by far less than a millisecond in
    /// Python's range). Outside years 1...9999 Python raises; here the proleptic calendar simply
    /// continues (`10000-01-01T…`, `0-12-31T…`, `-1-…`).
    static func writeISOTimestamp(milliseconds ms: Int64, to out: inout ByteWriter) {
        let (seconds, millisecond) = CivilCalendar.floorDivide(ms, 1000)
        let (days, secondOfDay) = CivilCalendar.floorDivide(seconds, 86_400)
        let date = CivilCalendar.date(days: days)
        if date.year >= 1000 && date.year <= 9999 {
            writeFourDigitYearTimestamp(date, secondOfDay: secondOfDay, millisecond: millisecond, to: &out)
            return
        }
        writeTimestamp(date, secondOfDay: secondOfDay, millisecond: millisecond, to: &out)
    }

    /// ``writeISOTimestamp(milliseconds:to:)`` of a year of four digits (every fix's: 1000 to
    /// 9999), its 26 bytes made in three words and two bytes: byte by byte, with a call a byte,
    /// the timestamp was about 300 instructions (callgrind, the accepted fixes' renderings). The
    /// same bytes as ``writeTimestamp(_:secondOfDay:millisecond:to:)``'s (`SpliceTests`).
    @inline(__always)
    static func writeFourDigitYearTimestamp(_ date: (year: Int64, month: Int64, day: Int64), secondOfDay: Int64,
                                            millisecond: Int64, to out: inout ByteWriter) {
        /// The two ASCII digits of 0...99, the tens in the low byte.
        @inline(__always) func two(_ v: Int64) -> UInt64 {
            0x3030 | UInt64(truncatingIfNeeded: v / 10) | UInt64(truncatingIfNeeded: v % 10) << 8
        }
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        let minutes = two(minute)
        // "YYYY-MM  -DDTHH:M  M:SS.mmm  Z"
        let first = 0x22 | two(date.year / 100) << 8 | two(date.year % 100) << 24 | 0x2D << 40 | two(date.month) << 48
        let second8 = 0x2D | two(date.day) << 8 | 0x54 << 24 | two(hour) << 32 | 0x3A << 48 | (minutes & 0xFF) << 56
        let third = minutes >> 8 | 0x3A << 8 | two(second) << 16 | 0x2E << 32
            | UInt64(truncatingIfNeeded: 48 + millisecond / 100) << 40 | two(millisecond % 100) << 48
        let p = UnsafeMutableRawPointer(out.advance(by: 26))
        p.storeBytes(of: first.littleEndian, as: UInt64.self)
        p.storeBytes(of: second8.littleEndian, toByteOffset: 8, as: UInt64.self)
        p.storeBytes(of: third.littleEndian, toByteOffset: 16, as: UInt64.self)
        p.storeBytes(of: UInt16(0x225A).littleEndian, toByteOffset: 24, as: UInt16.self)  // Z"
    }

    /// ``writeISOTimestamp(milliseconds:to:)`` byte by byte, for any year (glibc's unpadded
    /// years, a minus sign before them).
    static func writeTimestamp(_ date: (year: Int64, month: Int64, day: Int64), secondOfDay: Int64,
                               millisecond: Int64, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        writeInteger(date.year, to: &out)
        out.write(UInt8(ascii: "-"))
        writeTwoDigits(date.month, to: &out)
        out.write(UInt8(ascii: "-"))
        writeTwoDigits(date.day, to: &out)
        out.write(UInt8(ascii: "T"))
        writeTwoDigits(secondOfDay / 3600, to: &out)
        out.write(UInt8(ascii: ":"))
        writeTwoDigits(secondOfDay / 60 % 60, to: &out)
        out.write(UInt8(ascii: ":"))
        writeTwoDigits(secondOfDay % 60, to: &out)
        out.write(UInt8(ascii: "."))
        out.write(UInt8(48 + millisecond / 100))
        writeTwoDigits(millisecond % 100, to: &out)
        out.write("Z\"")
    }

    @inline(__always) static func writeTwoDigits(_ value: Int64, to out: inout ByteWriter) {
        out.write(UInt8(48 + value / 10))
        out.write(UInt8(48 + value % 10))
    }
}
