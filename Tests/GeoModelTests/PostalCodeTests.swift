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
