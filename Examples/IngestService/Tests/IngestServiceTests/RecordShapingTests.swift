import Foundation
import Testing
@testable import IngestServiceCore

/// The scan of a body's top-level members finds what a JSON parser finds, on bodies whose
/// strings hold braces, quotes and escapes, and whose values nest.
@Suite struct RecordShapingTests {
    @Test(arguments: [
        #"{"latitude":43.6,"longitude":-79.3}"#,
        #" { "a" : "}{\"]" , "b":[1,{"c":"\\"}],"timestamp":"2025-11-27T10:00:00Z" , "d":{"e":[[]]},"f":null } "#,
        #"{}"#,
        #"{"session_id":"s\"1","x":true,"y":-1.5e3}"#,
    ])
    func membersAreTheParsersKeys(body: String) throws {
        let bytes = Array(body.utf8)
        let scanned = try #require(RecordShaping.members(bytes))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(Set(scanned.keys) == Set(parsed.keys))
        for (name, value) in scanned {
            // each value's bytes are a JSON value of their own, equal to the parser's
            let alone = try JSONSerialization.jsonObject(with: Data(value), options: [.fragmentsAllowed])
            #expect("\(alone)" == "\(parsed[name]!)", "\(name)")
        }
    }

    @Test(arguments: [#"[1,2]"#, #"{"a":1"#, #"{"a" 1}"#, #"{"a":"unterminated}"#, #"not json"#, ""])
    func notAnObjectIsNil(body: String) {
        #expect(RecordShaping.members(Array(body.utf8)) == nil)
    }

    @Test func membersAreAddedBeforeTheFinalBrace() {
        let shaped = RecordShaping.shape(Array(#"{"latitude":1,"longitude":2}  "#.utf8), session: "a\"b",
                                         receivedAt: 1_764_237_600_000, requireLocation: true)
        guard case .line(let line) = shaped else { Issue.record("refused: \(shaped)"); return }
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"latitude":1,"longitude":2,"session_id":"a\"b","timestamp":1764237600000}  "#)
    }
}
