extension H3Cell: Codable {
    /// Decodes the lower-case hexadecimal string H3 writes (`"8f271c973aa4594"`), validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try H3Cell(string: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error): \(text.prefix(40))")
        }
    }

    /// Encodes the cell as `geo.h3` writes it: lower-case hexadecimal.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
