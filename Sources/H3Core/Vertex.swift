/// A valid H3 vertex index: a corner shared by (usually) three cells, named once.
///
/// The index is its owner's cell index with mode 4 and, in the 3 reserved bits, the vertex
/// number on the owner (0...5, 0...4 for a pentagon). Of the cells that share the corner, the
/// one with the lowest index owns it, so each corner has exactly one vertex index. Every
/// initialiser that takes a raw value validates it once, with the rules of H3's `isValidVertex`.
///
/// See the table in ``H3Cell`` for the H3 C names of the operations.
public struct Vertex: RawRepresentable, Hashable, Comparable, Sendable {
    /// The 64-bit H3 index.
    public let rawValue: UInt64

    /// - Returns: `nil` when `rawValue` is not a valid vertex index.
    /// - Complexity: O(resolution): the canonical owner is recomputed.
    @inlinable
    public init?(rawValue: UInt64) {
        guard Vertex.brokenRule(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// - Throws: ``H3Error/invalidVertex(_:_:)`` with the rule `index` breaks.
    /// - Complexity: O(resolution): the canonical owner is recomputed.
    @inlinable
    public init(validating index: UInt64) throws(H3Error) {
        if let rule = Vertex.brokenRule(index) { throw .invalidVertex(index, rule) }
        rawValue = index
    }

    @usableFromInline
    init(unchecked index: UInt64) { rawValue = index }

    @inlinable
    public static func < (a: Vertex, b: Vertex) -> Bool { a.rawValue < b.rawValue }

    /// The rules a vertex index must keep, in the order they are checked.
    public enum Rule: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// The 4 mode bits must be 4.
        case mode
        /// With mode 1 and the reserved bits cleared, the index must be a valid cell (the owner).
        case ownerCell
        /// The vertex number (the 3 reserved bits) must be 0...5, or 0...4 on a pentagon.
        case vertexNumber
        /// The owner must be the lowest-numbered of the cells that share the corner, and the
        /// number the corner's on that cell.
        case notCanonical

        /// What the rule asks of a vertex index, as the end of a sentence (for error messages).
        public var description: String {
            switch self {
            case .mode: return "its mode bits are not 4 (vertex)"
            case .ownerCell: return "its owner is not a valid cell"
            case .vertexNumber: return "its vertex number is past the owner's last vertex (5, or 4 on a pentagon)"
            case .notCanonical: return "it is not the canonical name of the corner (another cell owns it)"
            }
        }
    }

    /// The first rule of H3's `isValidVertex` that `h` breaks, or `nil` when it is valid.
    @usableFromInline
    static func brokenRule(_ h: UInt64) -> Rule? {
        guard H3IndexBits.mode(h) == H3IndexBits.vertexMode else { return .mode }
        let owner = H3IndexBits.cellPart(h)
        guard H3Cell.isValid(owner) else { return .ownerCell }
        let number = H3IndexBits.reservedBits(h)
        guard number < (GridTraversal.isPentagon(owner) ? 5 : 6) else { return .vertexNumber }
        // the simplest full check is H3's: build the canonical index and compare
        guard VertexGeometry.vertex(of: owner, number: number) == h else { return .notCanonical }
        return nil
    }

    /// Whether a 64-bit value is a valid vertex index (H3's `isValidVertex`), with H3's verdict
    /// on every value.
    ///
    /// - Complexity: O(resolution).
    public static func isValid(_ h: UInt64) -> Bool { brokenRule(h) == nil }

    /// The cell that owns the vertex: the lowest-numbered cell at the corner.
    public var owner: H3Cell { H3Cell(unchecked: H3IndexBits.cellPart(rawValue)) }

    /// The vertex's number on its ``owner`` (0...5, 0...4 on a pentagon), counter-clockwise.
    public var number: Int { H3IndexBits.reservedBits(rawValue) }

    /// The corner's point in degrees (H3's `vertexToLatLng`).
    ///
    /// Exactness: equal to H3 4.5.0's to the last bit (the vertex walk of ``H3Cell/boundary``
    /// on the owner; tested against h3-py on glibc).
    ///
    /// - Complexity: O(resolution).
    public var latLng: LatLng {
        var out = LatLng(latitude: .nan, longitude: .nan)
        CellBoundary.walk(owner, start: number, length: 1) { out = LatLng(vec3: $0) }
        return out
    }
}

extension Vertex: CustomStringConvertible, LosslessStringConvertible {
    /// The index in lower-case hexadecimal without a prefix, as H3's `h3ToString`.
    public var description: String { String(rawValue, radix: 16) }

    /// Parses a hexadecimal index (an optional `0x` prefix, either case) and validates it.
    ///
    /// - Throws: ``H3Error/invalidString`` when the text is not hexadecimal,
    ///   ``H3Error/invalidVertex(_:_:)`` when the number is not a valid vertex.
    public init(string: some StringProtocol) throws(H3Error) {
        try self.init(validating: H3IndexText.parse(string))
    }

    /// Parses a hexadecimal index; `nil` when it is not a valid vertex.
    public init?(_ description: String) {
        guard let v = try? Vertex(string: description) else { return nil }
        self = v
    }
}
