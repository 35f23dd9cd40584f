// How a service encodes the model's values (JSON, or any Codable format): each as the string or
// number the records and the `geo` object write, not as its packed storage.

extension Timestamp: Codable {
    /// Decodes epoch milliseconds, a JSON integer.
    public init(from decoder: any Decoder) throws {
        self.init(milliseconds: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Encodes epoch milliseconds, a JSON integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}

extension CountryCode: Codable {
    /// Decodes an ISO 3166-1 alpha-2 code (`"CA"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = CountryCode(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a two-letter country code: \(text.prefix(40))")
        }
        self = code
    }

    /// Encodes the code as written in `geo.country`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension PostalCode: Codable {
    /// Decodes a Canadian postal code, spaced or not (`"R3C 4L9"`, `"R3C4L9"`), or a ZIP code (`"02134"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = PostalCode(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a Canadian postal code or a US ZIP code: \(text.prefix(40))")
        }
        self = code
    }

    /// Encodes the post's form, as `geo.postalcode` writes it (`"R3C 4L9"`, `"02134"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(formatted)
    }
}
