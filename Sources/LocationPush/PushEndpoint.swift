/// Where and how the updates go: the MobileTracker seed's "Update Session Location",
/// `PUT {base}/v2/tracking-session/{sessionId}/location` with `Content-Type: application/json`
/// and `X-API-Key`.
public struct PushEndpoint: Sendable {
    /// The API's base URL (`http://` or `https://`), without a trailing slash.
    public let baseURL: String
    /// The API key; never printed (see ``APIKey``).
    public let apiKey: APIKey

    /// - Throws: ``PushError/invalidURL(_:)`` unless `baseURL` is an http or https URL.
    public init(baseURL: String, apiKey: APIKey) throws(PushError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let lower = base.lowercased()
        guard (lower.hasPrefix("http://") || lower.hasPrefix("https://")),
              base.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else {
            throw .invalidURL(baseURL)
        }
        self.baseURL = base
        self.apiKey = apiKey
    }

    /// The URL of `session`'s location, the id percent-encoded (all but RFC 3986's unreserved
    /// characters, byte by byte of its UTF-8).
    public func url(session: String) -> String {
        baseURL + "/v2/tracking-session/" + Self.percentEncoded(session) + "/location"
    }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 0xF)]))
            }
        }
        return out
    }
}

/// An API key: a secret its description never shows, so that it cannot end up in a log line,
/// an error message or the statistics by accident.
public struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key itself, for the request header only.
    public let value: String

    /// - Returns: `nil` for an empty key (after trimming white space and line ends).
    public init?(_ value: String) {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    public var description: String { "<redacted API key>" }
    public var debugDescription: String { description }
}

/// Why the push cannot be set up.
public enum PushError: Error, CustomStringConvertible, Sendable {
    case invalidURL(String)

    public var description: String {
        switch self {
        case .invalidURL(let u): "the push URL must be an http:// or https:// URL with a host, not \(u)"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)].properties.isWhitespace { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }
}
