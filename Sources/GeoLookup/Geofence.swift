import GeoBridge

/// One geofence of a ``GeofenceSet`` (contract rule 11): an id and a shape.
public struct Geofence: Sendable, Hashable {
    /// The fence's id: its GeoJSON `id` (a string, or an integer in decimal) or `properties.id`.
    public let id: String
    /// Where the fence is.
    public let shape: Shape

    public enum Shape: Sendable, Hashable {
        /// A polygon or multipolygon, in degrees: each polygon's rings, the exterior first, then
        /// its holes; every ring closed. A point is inside when the shape *covers* it (its
        /// boundary counts), in the plane of longitude and latitude, as GEOS decides.
        case polygons([[[GeoPoint]]])
        /// A circle: a point is inside when its WGS84 geodesic distance to `center` is at most
        /// `radiusMetres`.
        case circle(center: GeoPoint, radiusMetres: Double)
    }

    public init(id: String, shape: Shape) {
        self.id = id
        self.shape = shape
    }
}

/// Why a fence file was refused: which feature, and what is wrong with it. The whole file is
/// refused; no fence of it is used.
public struct GeofenceFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file, as given.
    public let path: String
    /// The feature: `feature "id"`, or `feature 3` (from 0, in file order) when it has no usable
    /// id, or nil for the file as a whole.
    public let feature: String?
    /// What is wrong.
    public let reason: String

    public init(path: String, feature: String?, reason: String) {
        self.path = path
        self.feature = feature
        self.reason = reason
    }

    public var description: String {
        "geofence file \(path): " + (feature.map { "\($0): " } ?? "") + reason
    }
}

extension String {
    /// Whether `self` sorts before `other` in UTF-8 byte order (rule 11's order of ids; Swift's
    /// own `<` compares canonically equivalent strings as equal, which byte order does not).
    @inline(__always)
    func utf8Precedes(_ other: String) -> Bool {
        self.utf8.lexicographicallyPrecedes(other.utf8)
    }
}
