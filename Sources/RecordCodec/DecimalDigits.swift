import GeoModel

/// The parts of a JSON number's text that decide its size: integer digits, fraction digits and
/// exponent, as byte ranges of the line (already checked against the grammar).
struct DecimalDigits {
    let p: UnsafePointer<UInt8>
    let integerStart: Int
    let integerEnd: Int
    let fractionStart: Int
    let fractionEnd: Int
    let exponentNegative: Bool
    let exponentStart: Int
    let exponentEnd: Int

    /// The smallest decimal that rounds to infinity as a double: 2^1024 - 2^970, the midpoint
    /// between the largest double and 2^1024 (a tie rounds to even, which is 2^1024). 309 digits.
    static let overflowThreshold: StaticString =
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

    /// Whether the value rounds to ±infinity as a double, which yyjson (and so orjson) refuses.
    ///
    /// The value lies in [10^(e-1), 10^e) for the decimal exponent `e` of its first significant
    /// digit; below e = 309 it is finite, above it infinite, and at 309 its digits decide
    /// against ``overflowThreshold``.
    var overflowsDouble: Bool {
        // The first significant digit, and e for it.
        var first: Int
        var e: Int
        if p[integerStart] != UInt8(ascii: "0") {
            first = integerStart
            e = integerEnd - integerStart
        } else {
            first = fractionStart
            while first < fractionEnd && p[first] == UInt8(ascii: "0") { first += 1 }
            if first == fractionEnd { return false }  // zero, whatever the exponent
            e = -(first - fractionStart)
        }
        // The exponent, saturated far beyond any double's range.
        var exponent = 0
        for k in exponentStart..<exponentEnd {
            exponent = min(exponent * 10 + Int(p[k] &- 48), 1_000_000_000)
        }
        e += exponentNegative ? -exponent : exponent
        if e < 309 { return false }
        if e > 309 { return true }
        // Compare the significant digits with the threshold's, padding with zeros.
        let threshold = Self.overflowThreshold.utf8Start
        var inInteger = first < integerEnd
        var i = first
        for k in 0..<309 {
            var digit = UInt8(ascii: "0")
            if inInteger {
                digit = p[i]
                i += 1
                if i == integerEnd {
                    inInteger = false
                    i = fractionStart
                }
            } else if i < fractionEnd {
                digit = p[i]
                i += 1
            }
            if digit != threshold[k] { return digit > threshold[k] }
        }
        return true  // equal to the threshold in all its digits, or above it
    }
}

extension JSONNumber {
    /// Reads a number that ``JSONLineScanner`` has checked, as orjson reads it: integer syntax
    /// within 64 bits is an integer, anything else a correctly rounded double. `limit` is how
    /// many bytes from `p` may be read (the line's length): the usual numbers are read a word at
    /// a time (``checkedDecimal(_:from:to:)``, ``plainInteger(_:from:to:readableTo:)``).
    static func read(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, integerSyntax: Bool,
                     readableTo limit: Int) -> JSONNumber {
        if integerSyntax {
            if let integer = plainInteger(p, from: start, to: end, readableTo: limit) { return integer }
            if let integer = exactInteger(p, from: start, to: end) { return integer }
        } else if let value = checkedDecimal(p, from: start, to: end) {
            return .double(value)
        }
        return .double(readDouble(p, from: start, to: end))
    }

    /// A checked number `-ddd.ddd` (at most 7 digits on either side of the point, no exponent),
    /// read a word at a time from its end backwards: the word that ends with its last digit
    /// holds the fraction, the word that ends before the point the whole part
    /// (``digitsValue(_:)``). Backwards, because the number's end is known and the bytes before
    /// it are the line's (its key, at least), while a record's last numbers lie within a few
    /// bytes of the line's end, past which nothing may be read; forwards, the accuracy and often
    /// the longitude could not be read so. Nil for other numbers, or fewer than 8 bytes before
    /// the point. The double is ``double(mantissa:timesTenToThe:negative:)``'s of the same
    /// mantissa and exponent as ``readDouble(_:from:to:)``'s, so the same; digit by digit,
    /// `readDouble` took about 160 instructions a coordinate (callgrind, `enrich`).
    @inline(__always)
    static func checkedDecimal(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        guard end &- start >= 3, end >= 8 else { return nil }
        let raw = UnsafeRawPointer(p)
        let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
        let fractionDigits = trailingDigits(tail)
        let point = end &- 1 &- fractionDigits
        // an exponent's digits, or 8 or more fraction digits, are not followed back to a point
        guard fractionDigits >= 1, fractionDigits <= 7, p[point] == UInt8(ascii: "."), point >= 8 else { return nil }
        let negative = p[start] == UInt8(ascii: "-")
        let wholeDigits = point &- (negative ? start &+ 1 : start)
        guard wholeDigits >= 1, wholeDigits <= 7 else { return nil }
        let head = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: point &- 8, as: UInt64.self))
        let mantissa = lastDigits(head, count: wholeDigits) &* smallPowerOfTen(fractionDigits)
            &+ lastDigits(tail, count: fractionDigits)
        return double(mantissa: mantissa, timesTenToThe: -fractionDigits, negative: negative)
    }

    /// How many of a little-endian word's bytes, from its highest down, are ASCII digits (0...8):
    /// a byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 16,
    /// tests that carry into no other byte (``leadingDigits(_:)``'s sum may carry upwards, so it
    /// counts from the lowest byte only).
    @inline(__always)
    static func trailingDigits(_ w: UInt64) -> Int {
        let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let misfits = ((w & highs) ^ 0x3030_3030_3030_3030) | (((w & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & highs)
        return misfits.leadingZeroBitCount >> 3
    }

    /// The value of the last `n` (1...7) bytes of a little-endian word, ASCII digits, whatever
    /// the bytes below them: those made '0', then read by ``digitsValue(_:)``.
    @inline(__always)
    static func lastDigits(_ w: UInt64, count n: Int) -> UInt64 {
        let below = (UInt64(1) &<< UInt64(8 &* (8 &- n))) &- 1
        return digitsValue((w & ~below) | (0x3030_3030_3030_3030 & below))
    }

    /// An integer-syntax number of 1-16 digits (a millisecond timestamp has 13), eight digits a
    /// word (``digitsValue(_:)``) where ``exactInteger(_:from:to:)`` takes a step and two
    /// overflow checks a digit (about 150 instructions a timestamp, callgrind); nil for longer
    /// numbers, or when fewer than 16 bytes from the digits may be read. Sixteen digits cannot
    /// overflow, so the result is `exactInteger`'s.
    @inline(__always)
    static func plainInteger(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, readableTo limit: Int) -> JSONNumber? {
        let negative = p[start] == UInt8(ascii: "-")
        let first = negative ? start &+ 1 : start
        let count = end &- first
        guard count >= 1, count <= 16, first &+ 16 <= limit else { return nil }
        let raw = UnsafeRawPointer(p + first)
        let w0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let magnitude: UInt64
        if count <= 8 {
            magnitude = count == 8 ? digitsValue(w0) : firstDigits(w0, count: count)
        } else {
            let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let rest = count &- 8
            magnitude = digitsValue(w0) &* smallPowerOfTen(rest) &+ (rest == 8 ? digitsValue(w1) : firstDigits(w1, count: rest))
        }
        return .integer(negative ? -Int64(magnitude) : Int64(magnitude))
    }

    /// The integer of an integer-syntax number when it fits orjson's range (-2^63 ... 2^64-1).
    static func exactInteger(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> JSONNumber? {
        var i = start
        let negative = p[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard end - i <= 20 else { return nil }
        var magnitude: UInt64 = 0
        while i < end {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(p[i] &- 48))
            if o1 || o2 { return nil }
            magnitude = sum
            i += 1
        }
        if negative {
            guard magnitude <= UInt64(1) << 63 else { return nil }
            return .integer(magnitude == UInt64(1) << 63 ? Int64.min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude)
    }
}
