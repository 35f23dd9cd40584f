/// A session of a mobile SDK: the key of all per-session state. Non-empty.
///
/// The id's 64-bit hash is computed once, when the id is made at the boundary, so the engine's
/// table lookups and shard choice do not hash the string again.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The id as the SDK sent it.
    public let rawValue: String
    /// FNV-1a of the id's UTF-8 bytes, finished with MurmurHash3's 64-bit avalanche (`fmix64`):
    /// stable across processes (unlike `hashValue`), and every bit depends on every byte. FNV-1a
    /// alone barely moves its high bits between ids that differ in their last characters
    /// (`s-000001`, `s-000002`, …), which put every such session in one shard.
    public let stableHash: UInt64

    /// - Returns: `nil` for an empty id (the contract requires a non-empty string).
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        // over the string's contiguous UTF-8 when it has it (native strings do): no iterator
        let hashed = rawValue.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            var h = h
            for b in bytes {
                h ^= UInt64(b)
                h &*= 0x0000_0100_0000_01b3
            }
            return h
        }
        if let hashed {
            h = hashed
        } else {
            for b in rawValue.utf8 {
                h ^= UInt64(b)
                h &*= 0x0000_0100_0000_01b3
            }
        }
        // fmix64 (MurmurHash3, public domain): xor-shifts and multiplications by its constants
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        stableHash = h
    }

    // inlinable: the session table's probe and the renderer's cache compare and hash ids on every
    // record, in other modules than this one (EnrichEngine, EnrichStream)
    @inlinable
    public static func == (a: SessionID, b: SessionID) -> Bool {
        a.stableHash == b.stableHash && a.rawValue == b.rawValue
    }

    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(stableHash) }

    public var description: String { rawValue }
}

/// The consent states of the Data Cloud seed.
public enum Consent: String, Sendable, CaseIterable {
    /// The user agreed to location tracking.
    case optIn
    /// The user refused: the session's location state is dropped and nothing is enriched.
    case optOut
    /// No answer yet: the engine's configuration says whether such a session is tracked.
    case notSet
}

extension SessionID: Codable {
    /// Decodes a non-empty string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = SessionID(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a session id must not be empty")
        }
        self = id
    }

    /// Encodes the id as the SDK sent it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A literal id, for tests and fixed ids: `let id: SessionID = "s-42"`.
extension SessionID: ExpressibleByStringInterpolation {
    /// - Precondition: the literal is not empty.
    public init(stringLiteral value: String) {
        guard let id = SessionID(value) else { preconditionFailure("a session id must not be empty") }
        self = id
    }
}

/// `"optIn"`, `"optOut"`, `"notSet"`, as the records write it.
extension Consent: Codable {}
