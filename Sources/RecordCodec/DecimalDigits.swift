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
    /// within 64 bits is an integer, anything else a correctly rounded double.
    static func read(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, integerSyntax: Bool) -> JSONNumber {
        if integerSyntax, let integer = exactInteger(p, from: start, to: end) { return integer }
        return .double(readDouble(p, from: start, to: end))
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
