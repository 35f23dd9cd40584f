import GeoModel
import RecordCodec

/// The common form of a coordinate line, read in place: two plain decimals (`-?digits[.digits]`)
/// among spaces, tabs and commas, as the line tools split their fields.
///
/// Anything else (signs, exponents, `inf`, one field or three) is left to the tools' general
/// path, which reads it with `Double(_:)`; both give the correctly rounded double, so a line
/// reads the same either way.
enum CoordinateText {
    /// The two numbers of a line, or `nil` when it is not in the common form.
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func pair(_ line: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
        guard let base = line.baseAddress else { return nil }
        var i = 0
        guard let first = number(base, line.count, &i), let second = number(base, line.count, &i) else { return nil }
        skipSeparators(base, line.count, &i)
        return i == line.count ? (first, second) : nil
    }

    @inline(__always) private static func isSeparator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: ",")
    }

    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c &- 48 < 10 }

    @inline(__always) private static func skipSeparators(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) {
        while i < n, isSeparator(p[i]) { i += 1 }
    }

    /// The next field as a plain decimal, or `nil` when it is missing or has another form.
    @inline(__always) private static func number(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> Double? {
        skipSeparators(p, n, &i)
        let start = i
        if i < n, p[i] == UInt8(ascii: "-") { i += 1 }
        let digits = i
        while i < n, isDigit(p[i]) { i += 1 }
        guard i > digits else { return nil }
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            let fraction = i
            while i < n, isDigit(p[i]) { i += 1 }
            guard i > fraction else { return nil }
        }
        guard i == n || isSeparator(p[i]) else { return nil }
        // a plain decimal is JSON number syntax but for leading zeros, which the reader skips
        return JSONNumber.readDouble(p, from: start, to: i)
    }
}

extension CoordinateText {
    /// A field of the general path as a number: a decimal with an optional sign, fraction and
    /// exponent (`+49.5`, `4.95e1`, `.5`), read with `Double(_:)`; `nil` for anything else.
    ///
    /// Why not `Double(_:)` alone: it reads the field with `strtod`, which also takes hexadecimal
    /// (`0x10` was 16°), `inf`, `nan`, and stops at a NUL byte (`-79.4\0` was -79.4).
    static func decimal(_ field: Substring) -> Double? {
        var digits = 0, i = field.utf8.startIndex
        let bytes = field.utf8
        func skipDigits() {
            while i < bytes.endIndex, bytes[i] &- UInt8(ascii: "0") < 10 { digits += 1; i = bytes.index(after: i) }
        }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i = bytes.index(after: i) }
        skipDigits()
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ".") { i = bytes.index(after: i); skipDigits() }
        guard digits > 0 else { return nil }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i = bytes.index(after: i) }
            digits = 0
            skipDigits()
            guard digits > 0 else { return nil }
        }
        guard i == bytes.endIndex else { return nil }
        return Double(field)
    }
}
