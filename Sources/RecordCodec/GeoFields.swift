/// The values of one `geo` object (contract rule 5), in the peer's terms, for ``Splice``.
public struct GeoFields: Sendable, Equatable {
    /// The fix's latitude as it was read (an integer stays an integer).
    public var latitude: JSONNumber
    /// The fix's longitude as it was read.
    public var longitude: JSONNumber
    /// The fix's accuracy in metres as it was read; `nil` writes no `accuracy` key.
    public var accuracy: JSONNumber?
    /// The fix's timestamp, milliseconds since the epoch (written as ISO 8601 UTC).
    public var fixTimestamp: Int64
    /// Milliseconds from the fix to the record (0 on the fix itself).
    public var ageMilliseconds: Int64
    /// The H3 index of the fix (written as lower-case hex, as h3-py's strings).
    public var h3: UInt64
    /// ISO 3166-1 alpha-2 country code; `nil` writes no `country` key.
    public var country: String?
    /// The nearest postal code; `nil` writes none of `postalcode`, `fsa`, `postal_distance_m`.
    public var postal: PostalFields?

    /// Collects the values of one `geo` object; each parameter is the property of the same name.
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?, fixTimestamp: Int64,
                ageMilliseconds: Int64, h3: UInt64, country: String?, postal: PostalFields?) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.fixTimestamp = fixTimestamp
        self.ageMilliseconds = ageMilliseconds
        self.h3 = h3
        self.country = country
        self.postal = postal
    }
}

/// The postal part of a `geo` object: code, FSA and distance, present together.
public struct PostalFields: Sendable, Equatable {
    /// Canada Post form `A1A 1A1`.
    public var code: String
    /// The forward sortation area, the code's first three characters.
    public var fsa: String
    /// Geodesic distance to the code's centroid in metres, already rounded as the peer rounds
    /// it (`round(d, 1)`); written as a float.
    public var distanceMetres: Double

    /// Collects a postal match; each parameter is the property of the same name.
    public init(code: String, fsa: String, distanceMetres: Double) {
        self.code = code
        self.fsa = fsa
        self.distanceMetres = distanceMetres
    }
}
