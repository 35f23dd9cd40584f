import GeoLookup
import H3Core

/// The location context of an accepted fix: what the contract's `geo` object carries.
///
/// The session table keeps one per live session, so the stored properties are declared in the
/// order that packs them tightest (Swift lays them out as declared): the 8-byte fields first,
/// then the optionals and the caller's tag, 66 bytes in all (72 with padding) where the
/// contract's order takes 80.
public struct Enrichment: Hashable, Sendable {
    /// The fix's position in degrees, as received.
    public var latitude: Double
    public var longitude: Double
    /// When the fix was taken.
    public var fixTimestamp: Timestamp
    /// The H3 cell of the fix at the configured resolution.
    public var h3: H3Cell
    /// The fix's accuracy radius in metres, when it had one.
    public var accuracy: Double?
    /// ISO 3166-1 alpha-2 of the Natural Earth polygon holding the fix.
    public var country: CountryCode?
    /// The nearest postal code, for fixes in Canada within the maximum distance.
    public var postal: PostalMatch?
    /// The fix's ``Fix/tag``, as the caller gave it.
    public var tag: UInt8

    /// The memberwise initialiser, in the contract's order; usable from the session table's
    /// inlinable code.
    @usableFromInline
    init(latitude: Double, longitude: Double, accuracy: Double?, fixTimestamp: Timestamp, h3: H3Cell,
         country: CountryCode?, postal: PostalMatch?, tag: UInt8 = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.fixTimestamp = fixTimestamp
        self.h3 = h3
        self.accuracy = accuracy
        self.country = country
        self.postal = postal
        self.tag = tag
    }
}

/// The location given to an event: the enrichment of the session's live fix and its age.
public struct Attachment: Hashable, Sendable {
    public var enrichment: Enrichment
    /// Event time minus fix time, in milliseconds (0 on the fix itself).
    public var ageMilliseconds: Int64
}

/// Why a fix was not accepted (the contract's reasons).
public enum RejectReason: String, Sendable, CaseIterable {
    /// Nearer than the distance filter to the session's live fix.
    case distance
    /// Older than the session's last accepted fix.
    case stale
    /// Less accurate than the configured ceiling.
    case accuracy
    /// The session opted out.
    case consent
}

/// What the engine decided about a fix.
public enum FixDecision: Hashable, Sendable {
    case accepted(Enrichment)
    case rejected(RejectReason)
}
