import GeoModel

/// Where and how the updates go: the MobileTracker seed's "Update Session Location",
/// `PUT {base}/v2/tracking-session/{sessionId}/location` with `Content-Type: application/json`
/// and `X-API-Key`.
public struct PushEndpoint: Sendable {
    /// The API's base URL (`http://` or `https://`), without a trailing slash.
    public let baseURL: String
    /// The API key; never printed (see ``APIKey``).
    public let apiKey: APIKey

    /// - Throws: ``PushError/invalidURL(_:reason:)`` unless `baseURL` is an `http://` or
    ///   `https://` URL with a host, an optional port from 1 to 65535 and an optional path, and
    ///   nothing else: a query or fragment would misroute every update (the session's path is
    ///   appended to the base), and credentials in it would be a secret in an argument.
    public init(baseURL: String, apiKey: APIKey) throws(PushError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        if let reason = Self.problem(base) {
            // credentials are a secret: the URL is not repeated then
            throw .invalidURL(reason == Self.credentials ? nil : baseURL, reason: reason)
        }
        self.baseURL = base
        self.apiKey = apiKey
    }

    private static let credentials = "it carries credentials (user:password@); the key goes in $GEO_ENRICH_API_KEY or --api-key-file"

    /// What is wrong with `base` (without its trailing slashes) as the API's base URL, or `nil`.
    static func problem(_ base: String) -> String? {
        let lower = base.lowercased()
        // `http://` itself, its slashes trimmed
        if lower == "http:" || lower == "https:" { return "it has no host" }
        let scheme = lower.hasPrefix("http://") ? "http://" : lower.hasPrefix("https://") ? "https://" : nil
        guard let scheme else { return "the scheme must be http:// or https://" }
        let rest = base.dropFirst(scheme.count)
        if rest.contains("?") { return "it has a query (?…), which the session's path would be appended to" }
        if rest.contains("#") { return "it has a fragment (#…), which the session's path would be appended to" }
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") { return credentials }
        var host = Substring(authority)
        var port: Substring?
        if host.hasPrefix("[") {
            // an IPv6 literal, [::1] or [::1]:8080
            guard let close = host.firstIndex(of: "]") else { return "its IPv6 host has no closing ]" }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "the host [\(host[..<close].dropFirst())] is followed by \(after)" }
                port = after.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return "its IPv6 host is not an address"
            }
        } else {
            if let colon = host.firstIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            guard !host.isEmpty else { return "it has no host" }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
                return "its host may hold only letters, digits, - and ."
            }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let n = Int(port), (1...65535).contains(n) else {
                return "its port must be a number from 1 to 65535, not \(port.isEmpty ? "empty" : String(port))"
            }
        }
        return nil
    }

    /// The URL of `session`'s location, the id percent-encoded (all but RFC 3986's unreserved
    /// characters, byte by byte of its UTF-8; and the ids `.` and `..`, which a URL's path would
    /// read as "this" and "the parent" segment, as `%2E` and `%2E%2E`).
    public func url(session: SessionID) -> String {
        baseURL + "/v2/tracking-session/" + Self.percentEncoded(session.rawValue) + "/location"
    }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        let dotSegment = text == "." || text == ".."
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: ".") where !dotSegment,
                 UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
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

    /// - Returns: `nil` for a key ``problem(_:)`` refuses.
    public init?(_ value: String) {
        guard Self.problem(value) == nil else { return nil }
        self.value = value.trimmingWhitespace()
    }

    /// What makes `value` unusable as a key, or `nil`: empty once white space and line ends
    /// around it are trimmed, or holding a character an HTTP header cannot carry (a line end or
    /// another control character inside it: sent, the request would fail and the key could end
    /// up in a message). The answer never contains the key.
    public static func problem(_ value: String) -> String? {
        let trimmed = value.trimmingWhitespace()
        if trimmed.isEmpty { return "it is empty" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
            return "it holds a line end or another control character, which a request header cannot carry"
        }
        return nil
    }

    public var description: String { "<redacted API key>" }
    public var debugDescription: String { description }
}

/// Why the push cannot be set up.
public enum PushError: Error, CustomStringConvertible, Sendable {
    /// The base URL, unless it carries credentials, and what is wrong with it.
    case invalidURL(String?, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let u?, let reason): "the push URL \(u) cannot be used: \(reason)"
        case .invalidURL(nil, let reason): "the push URL cannot be used: \(reason)"
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
