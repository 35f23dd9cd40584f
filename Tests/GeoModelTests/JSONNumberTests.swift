import Testing

@testable import GeoModel

/// `JSONNumber.readDouble`: every path (Clinger's, the exact integer path for 17-19 digits,
/// the standard library's parser) gives the correctly rounded double, checked against
/// `Double(String)` (the C library's `strtod`, correctly rounded, an implementation of its own).
@Suite struct JSONNumberTests {
    private func read(_ text: String) -> Double {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { JSONNumber.readDouble($0.baseAddress!, from: 0, to: text.utf8.count) }
    }

    private func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = read(text), theirs = Double(text)!
        #expect(ours.bitPattern == theirs.bitPattern, "\(text): \(ours) against \(theirs)", sourceLocation: sourceLocation)
    }

    @Test func randomNumbersOfUpToNineteenDigits() {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("JSONNumberTests seed \(seed)")
        var state = seed
        func next() -> UInt64 {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for _ in 0..<400_000 {
            let digits = 1 + Int(next() % 19)
            var text = ""
            // JSON's grammar: no leading zero before other digits
            text.append(Character(String(digits == 1 ? next() % 10 : 1 + next() % 9)))
            for _ in 1..<digits { text.append(Character(String(next() % 10))) }
            // a decimal point somewhere, or an exponent, or both
            let form = next() % 3
            let exponent = Int(next() % 61) - 30
            if form == 0, digits > 1 {
                let point = 1 + Int(next() % UInt64(digits - 1))
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            } else if form == 1 {
                text += "e\(exponent)"
            } else {
                text.insert(".", at: text.index(after: text.startIndex))
                text += "E\(exponent >= 0 ? "+" : "")\(exponent)"
            }
            if next() & 1 == 1 { text = "-" + text }
            expectSame(text)
        }
    }

    @Test func coordinatesAsReprWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let value = Double.random(in: -180...180, using: &generator)
            expectSame("\(value)")  // the shortest round-trip text: 15-17 digits
            expectSame(String(value.nextUp))
        }
    }

    /// Halfway between two doubles: ties go to the even one.
    @Test func tiesAndTheirNeighbours() {
        // 2^53 + 1 is halfway between 2^53 and 2^53 + 2; above 2^54 the spacing is 4, and so on
        for power in 53...63 {
            let base = UInt64(1) << power
            let spacing = UInt64(1) << (power - 52)
            for k in UInt64(0)..<6 {
                let halfway = base + k * spacing + spacing / 2
                for v in [halfway - 1, halfway, halfway + 1] {
                    expectSame("\(v)")
                    expectSame("\(v).0")  // the same, as a mantissa ten times larger, over 10
                    expectSame("\(v)0e-1")
                }
            }
        }
        for text in ["9007199254740993", "9007199254740993e0", "90071992547409930e-1",
                     "900719925474099300E-2", "18014398509481986", "18014398509481990",
                     "9999999999999999999", "1e-27", "9999999999999999999e-27", "9999999999999999999e27",
                     "1234567890123456789e-27", "0.000000000000000000000000001", "-0.0", "0e5",
                     // (2^53 + 3) · 2^13 exactly: a tie through the 128-bit product, and its neighbours
                     "7378697629483823104e1", "7378697629483823103e1", "7378697629483823105e1",
                     // a hair either side of a tie: the remainder (sticky bit) decides
                     "9007199254740993.001", "9007199254740992.999", "9007199254740993.0000001"] {
            expectSame(text)
        }
    }
}
