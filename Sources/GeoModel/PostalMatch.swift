/// The postal code nearest a point, and how far its centroid is.
public struct PostalMatch: Hashable, Sendable {
    /// The nearest postal code (the smallest, where several share a centroid).
    public let code: PostalCode
    /// WGS84 geodesic distance to the code's centroid in metres, rounded to 0.1 m as Python's
    /// `round(d, 1)` (the contract's `postal_distance_m`).
    public let distanceMetres: Double

    /// - Parameters:
    ///   - code: the nearest postal code.
    ///   - distanceMetres: the distance to its centroid, already rounded to 0.1 m.
    public init(code: PostalCode, distanceMetres: Double) {
        self.code = code
        self.distanceMetres = distanceMetres
    }

    /// The forward sortation area, the code's first three characters, in Canada; `nil` for a
    /// ZIP code.
    public var fsa: String? { code.fsa }
}
