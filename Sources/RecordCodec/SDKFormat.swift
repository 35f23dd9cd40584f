import GeoModel

/// The seed SDKs' payload formats, read besides the contract's canonical records (README,
/// "Formats"). Each says where a record's session, time, consent and fix are, and where its
/// enrichment goes in the line; everything else of the line is kept byte for byte.
public enum SDKFormat: String, Sendable, CaseIterable {
    /// EQWorks iOS SDK: `logUser` / `logEvent` payloads and the elements of a `batch`'s
    /// `batch_info`. Session `userId`, time `timestamp`, fix `location.{latitude,longitude}`
    /// (each record with a location is a fix that describes itself). Enrichment: `h3Index` and,
    /// in Canada, `postalcode: {postalcode, fsa}` (code without its space), and with time zones
    /// `timezone` (the IANA name), and with fences `geofences` (rule 11's array), replacing the
    /// payload's own top-level values or added before the record's `}` (the SDK's
    /// `context.timezone`, the device's setting, is left alone).
    case eqworks
    /// MobileTracker API: track payloads `{brand_id, session_id, event_name, data}` (events) and
    /// location updates (the `PUT …/location` body `{latitude, longitude, accuracy}` with
    /// `session_id`). Both carry the contract's `timestamp`. Enrichment: the contract's `geo`
    /// object, inside an event's `data` object (so the track body keeps its schema), top-level
    /// on a location update and on an event without a `data` object.
    case mobiletracker
    /// Salesforce Data Cloud SDK: events (`event_name`, flat attributes) and location updates
    /// (`latitude`, `longitude`, `accuracy`, `expiresIn`, no `event_name`), with `session_id`
    /// and `timestamp`. Enrichment: an event gets top-level `latitude` / `longitude` of the live
    /// location (replacing any the SDK put there) and `geo` with the rest; a location update gets
    /// `geo`.
    case datacloud
}

/// Where one piece of a record's enrichment goes in its line.
public struct SDKPlacement: Sendable, Equatable {
    /// What is written.
    public enum Content: Sendable, Equatable {
        /// EQWorks `"h3Index":"8f…"`.
        case h3Index
        /// EQWorks `"postalcode":{"postalcode":"R3C4L9","fsa":"R3C"}` (only in Canada).
        case postalcode
        /// EQWorks `"timezone":"America/Winnipeg"` (only with time zones).
        case timezone
        /// EQWorks `"geofences":["a","b"]` (only with fences, contract rule 11).
        case geofences
        /// The contract's `geo` object.
        case geo
        /// The contract's `geo` object without `latitude` and `longitude` (Data Cloud events).
        case geoWithoutPosition
        /// Data Cloud `latitude` / `longitude` of the live location.
        case latitude, longitude
    }

    public var content: Content
    /// The bytes replaced: an existing member's value, or an empty range where a new member is
    /// inserted (just before an object's `}`).
    public var range: Range<Int>
    /// For an insertion, whether a `,` goes before the new member (not in an empty object).
    public var needsComma: Bool

    /// Whether the placement adds a member rather than replacing a value.
    public var isInsertion: Bool { range.isEmpty }
}

/// One record of an SDK payload line: what the engine needs, and where its enrichment goes.
public struct SDKRecord: Sendable {
    /// Session, time, consent and fix (`closingBraceOffset` is the record object's `}`).
    public var record: ParsedRecord
    /// Where the enrichment goes, in the line's byte order.
    public var placements: [SDKPlacement]
}

/// What ``SDKRecordParser`` decides about a line.
public enum SDKParseOutcome: Sendable {
    /// The line's records, in order (an EQWorks batch may hold none).
    case records([SDKRecord])
    /// A bad line, with its reason.
    case bad(BadLineReason)
}
