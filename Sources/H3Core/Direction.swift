/// An H3 digit: the direction of a child (or neighbour) relative to its parent's centre,
/// as a unit vector in ijk coordinates. 7 marks an unused or invalid digit.
struct Direction: Equatable, Hashable, Sendable {
    let rawValue: UInt8

    @inline(__always) init(unchecked raw: UInt8) { rawValue = raw }

    static let center = Direction(unchecked: 0)
    static let kAxes = Direction(unchecked: 1)
    static let jAxes = Direction(unchecked: 2)
    static let jkAxes = Direction(unchecked: 3)
    static let iAxes = Direction(unchecked: 4)
    static let ikAxes = Direction(unchecked: 5)
    static let ijAxes = Direction(unchecked: 6)
    static let invalid = Direction(unchecked: 7)

    /// The digit rotated 60° counter-clockwise (1→5→4→6→2→3→1; 0 and 7 stay).
    @inline(__always) var rotated60ccw: Direction {
        Direction(unchecked: Direction.ccw[Int(rawValue)])
    }

    /// The digit rotated 60° clockwise (1→3→2→6→4→5→1; 0 and 7 stay).
    @inline(__always) var rotated60cw: Direction {
        Direction(unchecked: Direction.cw[Int(rawValue)])
    }

    private static let ccw: [UInt8] = [0, 5, 3, 1, 6, 4, 2, 7]
    private static let cw: [UInt8] = [0, 3, 6, 2, 5, 1, 4, 7]

    /// Unit vectors of the digits 0...6 in ijk coordinates.
    static let unitVectors: [CoordIJK] = [
        CoordIJK(0, 0, 0), CoordIJK(0, 0, 1), CoordIJK(0, 1, 0), CoordIJK(0, 1, 1),
        CoordIJK(1, 0, 0), CoordIJK(1, 0, 1), CoordIJK(1, 1, 0),
    ]
}
