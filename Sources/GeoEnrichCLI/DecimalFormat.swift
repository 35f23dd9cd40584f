/// Formats degrees for the H3 inspection commands: the shortest decimal that reads back as
/// the same double (so output compares bit for bit with H3), written positionally (no
/// exponent) and padded to at least `minimumFractionDigits` decimals.
enum DecimalFormat {
    static func degrees(_ x: Double, minimumFractionDigits: Int = 9) -> String {
        var s = x.description
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            s = positional(mantissa: String(s[..<e]), exponent: Int(s[s.index(after: e)...]) ?? 0)
        }
        let fraction: Int
        if let dot = s.firstIndex(of: ".") {
            fraction = s.distance(from: dot, to: s.endIndex) - 1
        } else {
            s += "."
            fraction = 0
        }
        if fraction < minimumFractionDigits { s += String(repeating: "0", count: minimumFractionDigits - fraction) }
        return s
    }

    /// `1.25e-7` → `0.000000125`; `1.5e20` → `150000000000000000000`.
    private static func positional(mantissa: String, exponent: Int) -> String {
        var m = Substring(mantissa)
        var sign = ""
        if m.hasPrefix("-") {
            sign = "-"
            m = m.dropFirst()
        }
        let parts = m.split(separator: ".", omittingEmptySubsequences: false)
        let intPart = String(parts[0])
        let fracPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = intPart + fracPart
        var point = intPart.count + exponent  // position of the decimal point in `digits`
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        let i = digits.index(digits.startIndex, offsetBy: point)
        var frac = String(digits[i...])
        while frac.hasSuffix("0") { frac.removeLast() }
        return sign + String(digits[..<i]) + (frac.isEmpty ? "" : "." + frac)
    }
}
