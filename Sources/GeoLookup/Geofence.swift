#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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

extension Geofence {
    /// The places of `fences` in ascending order of id (rule 11's order: UTF-8 bytes; Swift's
    /// own `<` compares canonically equivalent strings as equal, which byte order does not),
    /// fences of equal ids in the order they have in `fences`.
    ///
    /// Each id's first 16 bytes are compared as two big-endian words, the rest byte by byte
    /// only when those are equal; sorting the fences themselves with `utf8Precedes` compared
    /// through the generic `lexicographicallyPrecedes` and copied each fence's strings and
    /// arrays as it moved: 8 % of loading 100,000 fences, on the one thread (perf).
    static func idOrder(_ fences: [Geofence]) -> [Int] {
        precondition(fences.count <= Int(UInt32.max), "a fence's place is kept in 32 bits")
        struct Key { var high: UInt64; var low: UInt64; var place: UInt32 }
        var keys = fences.enumerated().map { place, fence in
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { out in
                var k = 0
                for b in fence.id.utf8.prefix(16) { out[k ^ 7] = b; k += 1 }  // big-endian words
            }
            return Key(high: words.0, low: words.1, place: UInt32(place))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            let ida = fences[Int(a.place)].id, idb = fences[Int(b.place)].id
            if ida.utf8.count > 16 || idb.utf8.count > 16 {
                let order = compareBytes(ida, idb)
                if order != 0 { return order < 0 }
            } else if ida.utf8.count != idb.utf8.count {
                return ida.utf8.count < idb.utf8.count  // equal words: one is the other and zeros
            }
            return a.place < b.place
        }
        return keys.map { Int($0.place) }
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b` in UTF-8 byte order.
    static func compareBytes(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let common = Swift.min(a.count, b.count)
                if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
                    let order = memcmp(pa, pb, common)
                    if order != 0 { return Int(order) }
                }
                return a.count - b.count
            }
        }
    }
}
