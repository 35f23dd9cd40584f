import Testing

@testable import GeoModel

/// A fence id as a JSON string: the bytes of ``JSONString/quotedBytes(_:)`` (the fence list
/// table's names) are those of ``JSONString/quoted(_:)``, whether its fast copy or its escaping
/// makes them; Python's `json.dumps(…, ensure_ascii=False)` wrote the expected texts.
@Suite struct JSONStringTests {
    @Test(arguments: [
        ("", #""""#), ("p0", #""p0""#), ("é日本😀", "\"é日本😀\""), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#),
        ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#), ("\u{01}\u{1F}", #""\u0001\u001f""#), ("\u{7F}", "\"\u{7F}\""),
        ("store 12/7", #""store 12/7""#),
    ])
    func quotedBytesAreTheQuotedText(id: String, json: String) {
        #expect(JSONString.quoted(id) == json)
        #expect(JSONString.quotedBytes(id) == Array(json.utf8))
    }
}
