import Testing
@testable import LocationPush

/// The push URL and key are checked before any line is read: a bad one is a usage error that
/// says what is wrong, and never repeats a secret.
@Suite struct PushEndpointTests {
    static let key = APIKey("k")!

    @Test(arguments: ["http://127.0.0.1:8080", "https://api.example.com/", "https://api.example.com/base/v",
                      "http://[::1]:9000", "HTTP://Host-1.example:1", "https://h:65535"])
    func goodBaseURLs(url: String) throws {
        let endpoint = try PushEndpoint(baseURL: url, apiKey: Self.key)
        #expect(!endpoint.baseURL.hasSuffix("/"))
        #expect(endpoint.url(session: "s").hasSuffix("/v2/tracking-session/s/location"))
    }

    @Test(arguments: [
        ("ftp://x", "scheme"), ("http://", "no host"), ("http:///v2", "no host"), ("http://h:99999", "port"),
        ("http://h:0", "port"), ("http://h:", "port"), ("http://h:8a", "port"), ("http://h?x=1", "query"),
        ("http://h/v#frag", "fragment"), ("http://[::1", "closing"), ("http://h h", "host"),
    ])
    func badBaseURLsSayWhy(url: String, why: String) {
        #expect {
            try PushEndpoint(baseURL: url, apiKey: Self.key)
        } throws: { error in
            "\(error)".contains(why) && "\(error)".contains(url)
        }
    }

    @Test func credentialsInTheURLAreRefusedWithoutRepeatingThem() {
        #expect {
            try PushEndpoint(baseURL: "https://user:s3cret-pw@api.example.com", apiKey: Self.key)
        } throws: { error in
            "\(error)".contains("credentials") && !"\(error)".contains("s3cret-pw")
        }
    }

    @Test func dotSegmentIdsAreEncoded() throws {
        let endpoint = try PushEndpoint(baseURL: "http://h", apiKey: Self.key)
        #expect(endpoint.url(session: ".") == "http://h/v2/tracking-session/%2E/location")
        #expect(endpoint.url(session: "..") == "http://h/v2/tracking-session/%2E%2E/location")
        // dots inside an id are not a segment of their own
        #expect(endpoint.url(session: "a.b") == "http://h/v2/tracking-session/a.b/location")
        #expect(endpoint.url(session: "...") == "http://h/v2/tracking-session/.../location")
    }

    @Test func aKeyAHeaderCannotCarryIsRefusedWithoutRepeatingIt() {
        #expect(APIKey.problem("") != nil && APIKey("  \n") == nil)
        for bad in ["abc-secret\ndef", "abc-secret\rdef", "abc-secret\u{0}def", "abc-secret\u{7F}"] {
            let problem = APIKey.problem(bad)
            #expect(problem?.contains("control character") == true)
            #expect(problem?.contains("abc-secret") == false)
            #expect(APIKey(bad) == nil)
        }
        // white space and line ends around the key are the file's, not the key's
        #expect(APIKey(" key-1\n")?.value == "key-1")
    }
}
