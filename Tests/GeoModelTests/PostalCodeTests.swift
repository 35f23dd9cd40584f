import Foundation
import GeoModel
import Testing

/// Canadian postal codes and US ZIP codes in one packed type.
@Suite struct PostalCodeTests {
    @Test func aZipCodeKeepsItsLeadingZeros() throws {
        let code = try #require(PostalCode("00501"))
        #expect(code.formatted == "00501" && code.compact == "00501")
        #expect(code.system == .unitedStates && code.fsa == nil)
        #expect(PostalCode(zip: 501) == code)
        #expect(PostalCode(zip: 99_999)?.formatted == "99999")
        #expect(PostalCode(zip: 100_000) == nil && PostalCode(zip: -1) == nil)
    }

    @Test func aCanadianCodeIsUnchanged() throws {
        let code = try #require(PostalCode("R3C 4L9"))
        #expect(code.formatted == "R3C 4L9" && code.compact == "R3C4L9" && code.fsa == "R3C")
        #expect(code.system == .canada)
        #expect(PostalCode("R3C4L9") == code)
    }

    /// The text is computed from the packed value (``PostalCode/textBytes(count:spaced:)``, which
    /// the stream's splice writes from); checked against the text the code was parsed from, for
    /// every forward sortation area and every local delivery unit, and every ZIP code.
    @Test func everyCodeWritesTheTextItWasReadFrom() throws {
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { Character(Unicode.Scalar($0)) }
        let digits = (UInt8(ascii: "0")...UInt8(ascii: "9")).map { Character(Unicode.Scalar($0)) }
        var cases: [(fsa: String, ldu: String)] = []
        var i = 0
        for l1 in letters { for d1 in digits { for l2 in letters {
            cases.append(("\(l1)\(d1)\(l2)", "\(digits[i % 10])\(letters[(i / 10) % 26])\(digits[(i / 260) % 10])"))
            i += 1
        } } }
        for d2 in digits { for l3 in letters { for d3 in digits {
            cases.append(("A0A", "\(d2)\(l3)\(d3)"))
            cases.append(("Z9Z", "\(d2)\(l3)\(d3)"))
        } } }
        var wrong = 0
        for (fsa, ldu) in cases {
            let code = try #require(PostalCode("\(fsa) \(ldu)"))
            if code.formatted != "\(fsa) \(ldu)" || code.compact != fsa + ldu || code.fsa != fsa { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of \(cases.count) Canadian codes")
        var wrongZIPs = 0
        for number in 0...99_999 {
            let text = String(number)
            let padded = String(repeating: "0", count: 5 - text.count) + text
            let code = try #require(PostalCode(zip: number))
            if code.formatted != padded || code.compact != padded || PostalCode(padded) != code { wrongZIPs += 1 }
        }
        #expect(wrongZIPs == 0)
    }

    @Test(arguments: ["0213", "021345", "0213a", "A1A 1A", "a1a 1a1", "", "12 34"])
    func otherTextIsNoCode(text: String) {
        #expect(PostalCode(text) == nil)
    }

    @Test func zipCodesOrderAsTheirTextAndAfterCanadianCodes() throws {
        let texts = ["99999", "00501", "02134", "10118", "48243"]
        let codes = try texts.map { try #require(PostalCode($0)) }
        #expect(codes.sorted().map(\.formatted) == texts.sorted())
        #expect(try #require(PostalCode("Z9Z 9Z9")) < codes.min()!)
    }

    @Test func aZipCodeRoundTripsThroughJSON() throws {
        let code = try #require(PostalCode("02134"))
        let data = try JSONEncoder().encode([code])
        #expect(String(decoding: data, as: UTF8.self) == #"["02134"]"#)
        #expect(try JSONDecoder().decode([PostalCode].self, from: data) == [code])
    }
}
