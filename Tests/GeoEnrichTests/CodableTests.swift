import Foundation
import GeoEnrich
import Testing

/// The model's values encoded as a service would send them: the strings and numbers the records
/// and the `geo` object write, decoded back to equal values, and bad ones refused.
@Suite struct CodableTests {
    struct Sample: Codable, Equatable {
        var session: SessionID
        var at: Timestamp
        var cell: H3Cell
        var country: CountryCode
        var postal: PostalCode
        var consent: Consent
    }

    @Test func valuesEncodeAsTheRecordsWriteThem() throws {
        let sample = Sample(session: SessionID("s-42"), at: Timestamp(milliseconds: 1_764_237_600_000),
                            cell: try H3Cell(string: "8f271c973aa4594"), country: CountryCode("CA")!,
                            postal: PostalCode("R3C 4L9")!, consent: .optOut)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(sample), as: UTF8.self)
        #expect(json == #"{"at":1764237600000,"cell":"8f271c973aa4594","consent":"optOut","country":"CA","postal":"R3C 4L9","session":"s-42"}"#)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(json.utf8)) == sample)
    }

    @Test(arguments: [#""cell":"8f271c973aa459g""#, #""cell":"0""#, #""session":"""#, #""country":"C""#,
                      #""postal":"123 456""#, #""consent":"maybe""#])
    func badValuesAreRefused(member: String) {
        var fields = [#""session":"s""#, #""at":0"#, #""cell":"8f271c973aa4594""#, #""country":"CA""#,
                      #""postal":"R3C 4L9""#, #""consent":"optIn""#]
        let key = member.split(separator: ":")[0]
        fields = fields.map { $0.hasPrefix(key) ? member : $0 }
        let json = "{" + fields.joined(separator: ",") + "}"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sample.self, from: Data(json.utf8)) }
    }

    @Test func timestampsConvertToAndFromDate() throws {
        for ms: Int64 in [0, 1_764_237_600_123, -1, -62_135_596_800_000, 253_402_300_799_999, -14_182_939_877] {
            let t = Timestamp(milliseconds: ms)
            #expect(Timestamp(t.date) == t, "\(ms)")
        }
        let seed = UInt64.random(in: 0...UInt64.max)
        print("CodableTests.timestampsConvertToAndFromDate seed \(seed)")
        var rng = Xorshift(seed: seed)
        for _ in 0..<100_000 {
            let span = UInt64(Timestamp.representable.upperBound - Timestamp.representable.lowerBound)
            let t = Timestamp(milliseconds: Timestamp.representable.lowerBound + Int64(rng.next() % span))
            #expect(Timestamp(t.date) == t, "\(t.milliseconds), seed \(seed)")
        }
        #expect(Timestamp(Date(timeIntervalSince1970: 1.0004)) == Timestamp(milliseconds: 1_000))
        #expect(Timestamp(Date(timeIntervalSince1970: 1.0006)) == Timestamp(milliseconds: 1_001))
        #expect(Timestamp(Date.distantFuture) != nil)  // year 4001
        #expect(Timestamp(Date(timeIntervalSince1970: 1e15)) == nil)
    }
}

/// xorshift64*: a seeded generator, so that a failure can be run again.
struct Xorshift {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
