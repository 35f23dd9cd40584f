/// A valid H3 directed edge index: the edge from a cell to one of its neighbours.
///
/// The index is the origin cell's index with mode 2 and, in the 3 reserved bits, the direction
/// (1...6) of the neighbour. A hexagon has 6 directed edges and a pentagon 5 (none in
/// direction 1, its deleted k axis). Every initialiser that takes a raw value validates it
/// once, with the rules of H3's `isValidDirectedEdge`.
///
/// See the table in ``H3Cell`` for the H3 C names of the operations.
public struct DirectedEdge: RawRepresentable, Hashable, Comparable, Sendable {
    /// The 64-bit H3 index.
    public let rawValue: UInt64

    /// - Returns: `nil` when `rawValue` is not a valid directed edge index.
    @inlinable
    public init?(rawValue: UInt64) {
        guard DirectedEdge.brokenRule(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// - Throws: ``H3Error/invalidDirectedEdge(_:_:)`` with the rule `index` breaks.
    @inlinable
    public init(validating index: UInt64) throws(H3Error) {
        if let rule = DirectedEdge.brokenRule(index) { throw .invalidDirectedEdge(index, rule) }
        rawValue = index
    }

    @usableFromInline
    init(unchecked index: UInt64) { rawValue = index }

    @inlinable
    public static func < (a: DirectedEdge, b: DirectedEdge) -> Bool { a.rawValue < b.rawValue }

    /// The rules a directed edge index must keep, in the order they are checked.
    public enum Rule: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// The 4 mode bits must be 2.
        case mode
        /// The direction (the 3 reserved bits) must be 1...6.
        case direction
        /// With mode 1 and the reserved bits cleared, the index must be a valid cell (the origin).
        case originCell
        /// A pentagon has no edge in direction 1, its deleted k axis.
        case pentagonDeletedDirection

        /// What the rule asks of a directed edge index, as the end of a sentence (for error messages).
        public var description: String {
            switch self {
            case .mode: return "its mode bits are not 2 (directed edge)"
            case .direction: return "its direction bits are 0 or 7, not a neighbour's direction 1 to 6"
            case .originCell: return "its origin is not a valid cell"
            case .pentagonDeletedDirection: return "its origin is a pentagon, which has no edge in direction 1 (the deleted k axis)"
            }
        }
    }

    /// The first rule of H3's `isValidDirectedEdge` that `h` breaks, or `nil` when it is valid.
    ///
    /// (H3 checks the direction before the mode; the verdict is the same in either order.)
    @usableFromInline
    static func brokenRule(_ h: UInt64) -> Rule? {
        guard H3IndexBits.mode(h) == H3IndexBits.directedEdgeMode else { return .mode }
        let direction = H3IndexBits.reservedBits(h)
        guard direction > Int(Direction.center.rawValue), direction < Int(Direction.invalid.rawValue) else {
            return .direction
        }
        let origin = H3IndexBits.cellPart(h)
        guard H3Cell.isValid(origin) else { return .originCell }
        if GridTraversal.isPentagon(origin) && direction == Int(Direction.kAxes.rawValue) {
            return .pentagonDeletedDirection
        }
        return nil
    }

    /// Whether a 64-bit value is a valid directed edge index (H3's `isValidDirectedEdge`), with
    /// H3's verdict on every value.
    public static func isValid(_ h: UInt64) -> Bool { brokenRule(h) == nil }

    /// The edge from `origin` towards its neighbour in `direction`; the caller knows it is valid.
    init(origin: H3Cell, direction: Direction) {
        let h = H3IndexBits.setMode(origin.rawValue, H3IndexBits.directedEdgeMode)
        rawValue = H3IndexBits.setReservedBits(h, Int(direction.rawValue))
    }

    /// The direction from the origin to the destination (1...6).
    var direction: Direction { Direction(unchecked: UInt8(H3IndexBits.reservedBits(rawValue))) }
}

extension DirectedEdge: CustomStringConvertible, LosslessStringConvertible {
    /// The index in lower-case hexadecimal without a prefix, as H3's `h3ToString`.
    public var description: String { String(rawValue, radix: 16) }

    /// Parses a hexadecimal index (an optional `0x` prefix, either case) and validates it.
    ///
    /// - Throws: ``H3Error/invalidString`` when the text is not hexadecimal,
    ///   ``H3Error/invalidDirectedEdge(_:_:)`` when the number is not a valid directed edge.
    public init(string: some StringProtocol) throws(H3Error) {
        try self.init(validating: H3IndexText.parse(string))
    }

    /// Parses a hexadecimal index; `nil` when it is not a valid directed edge.
    public init?(_ description: String) {
        guard let e = try? DirectedEdge(string: description) else { return nil }
        self = e
    }
}

/// The cells at either end (H3's `directedEdge.c`).
extension DirectedEdge {
    /// The cell the edge starts at (H3's `getDirectedEdgeOrigin`). Exactness: H3's index.
    public var origin: H3Cell { H3Cell(unchecked: H3IndexBits.cellPart(rawValue)) }

    /// The cell the edge leads to (H3's `getDirectedEdgeDestination`): the origin's neighbour in
    /// the edge's direction. Exactness: H3's index.
    ///
    /// - Complexity: O(resolution).
    public var destination: H3Cell {
        var rotations = 0
        switch GridTraversal.neighbor(origin.rawValue, direction, rotations: &rotations) {
        case .success(let h): return H3Cell(unchecked: h)
        case .failure(let why):
            // a valid edge never steps into a pentagon's deleted direction nor off valid digits
            preconditionFailure("no destination for valid directed edge \(self): \(why)")
        }
    }

    /// The origin and the destination, in that order (H3's `directedEdgeToCells`). Exactness:
    /// H3's indexes.
    ///
    /// - Complexity: O(resolution).
    public var cells: (origin: H3Cell, destination: H3Cell) { (origin, destination) }

    /// The edge from the destination back to the origin (H3's `reverseDirectedEdge`).
    /// Exactness: H3's index.
    ///
    /// - Complexity: O(resolution), up to 7 neighbour steps.
    public var reversed: DirectedEdge {
        let (o, d) = cells
        guard let back = GridTraversal.direction(from: d.rawValue, to: o.rawValue) else {
            preconditionFailure("the destination of directed edge \(self) does not neighbour its origin")
        }
        return DirectedEdge(origin: d, direction: back)
    }
}
