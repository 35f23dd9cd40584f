/// A session of a mobile SDK: the key of all per-session state. Non-empty.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The id as the SDK sent it.
    public let rawValue: String

    /// - Returns: `nil` for an empty id (the contract requires a non-empty string).
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// An instant as milliseconds since the Unix epoch (UTC).
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }
}

/// The consent states of the Data Cloud seed.
public enum Consent: String, Sendable, CaseIterable {
    /// The user agreed to location tracking.
    case optIn
    /// The user refused: the session's location state is dropped and nothing is enriched.
    case optOut
    /// No answer yet: handled by ``EngineConfiguration/consentNotSet``.
    case notSet
}
