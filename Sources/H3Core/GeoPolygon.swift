/// A polygon as H3's region functions read and write it (H3's `GeoPolygon`): an outer loop
/// and any holes, each a ring of points in degrees.
///
/// Rings are *open*: the last vertex is not a repeat of the first (H3's `GeoLoop`). The
/// initialiser drops one closing vertex equal to the first, as h3-py's `LatLngPoly` does, so a
/// GeoJSON ring (which is closed) can be passed as it is. Edges are straight lines in latitude
/// and longitude ("Cartesian", H3's word), not great-circle arcs; a ring whose consecutive
/// vertices are more than 180° of longitude apart crosses the antimeridian.
public struct GeoPolygon: Hashable, Sendable {
    /// The outer ring, open, in degrees.
    public var outer: [LatLng]
    /// The holes, each an open ring in degrees.
    public var holes: [[LatLng]]

    /// - Parameters:
    ///   - outer: the outer ring in degrees; a closing vertex equal to the first is dropped.
    ///   - holes: the holes, likewise.
    public init(outer: [LatLng], holes: [[LatLng]] = []) {
        self.outer = Self.opened(outer)
        self.holes = holes.map(Self.opened)
    }

    /// `ring` without a last vertex that repeats the first.
    static func opened(_ ring: [LatLng]) -> [LatLng] {
        guard ring.count > 1, ring.first == ring.last else { return ring }
        return Array(ring.dropLast())
    }
}

/// How `polygonToCells` decides whether a cell on a polygon's edge belongs to it
/// (H3's `ContainmentMode`, the flags of `polygonToCellsExperimental`).
public enum ContainmentMode: UInt32, CaseIterable, Sendable {
    /// The cell's centre is inside the polygon (H3's default, `CONTAINMENT_CENTER`).
    case center = 0
    /// The whole cell is inside the polygon (`CONTAINMENT_FULL`).
    case full = 1
    /// Some of the cell is inside the polygon (`CONTAINMENT_OVERLAPPING`).
    case overlapping = 2
    /// Some of the cell's bounding box is inside the polygon (`CONTAINMENT_OVERLAPPING_BBOX`).
    case overlappingBoundingBox = 3
}
