/// A point in the 2D cartesian plane of an icosahedron face (unit: hex spacing at the
/// resolution in use).
struct Vec2: Equatable, Sendable {
    var x: Double
    var y: Double

    /// Euclidean length, `sqrt(x*x + y*y)` as H3 computes it.
    @inline(__always) var magnitude: Double { (x * x + y * y).squareRoot() }

    /// The intersection of the line through `p0`, `p1` with the line through `p2`, `p3`
    /// (the lines are assumed to intersect).
    static func intersection(_ p0: Vec2, _ p1: Vec2, _ p2: Vec2, _ p3: Vec2) -> Vec2 {
        let s1 = Vec2(x: p1.x - p0.x, y: p1.y - p0.y)
        let s2 = Vec2(x: p3.x - p2.x, y: p3.y - p2.y)
        let t = (s2.x * (p0.y - p2.y) - s2.y * (p0.x - p2.x)) / (-s2.x * s1.y + s1.x * s2.y)
        return Vec2(x: p0.x + (t * s1.x), y: p0.y + (t * s1.y))
    }

    /// Whether two points agree within single-precision epsilon in both coordinates.
    @inline(__always) func almostEquals(_ o: Vec2) -> Bool {
        let eps = Double(Float.ulpOfOne)
        return abs(x - o.x) < eps && abs(y - o.y) < eps
    }
}
