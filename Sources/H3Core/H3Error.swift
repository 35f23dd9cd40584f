/// Why an H3 operation could not give an answer.
public enum H3Error: Error, Equatable, Sendable {
    /// A latitude or longitude is NaN or infinite.
    case latLngDomain
    /// A resolution is outside 0...15.
    case resolutionDomain
    /// A 64-bit value is not a valid H3 cell index.
    case invalidCell
    /// A parent was asked at a finer resolution than the cell's, or a child at a coarser one, or
    /// cells that must share a resolution do not (`areNeighborCells`, `compactCells`,
    /// `cellsToMultiPolygon`: H3's `E_RES_MISMATCH`).
    case resolutionMismatch
    /// A string is not a hexadecimal H3 index.
    case invalidString
    /// A grid distance `k` is negative or too large to enumerate.
    case kDomain
    /// A number is outside the range the operation takes (a child position past the last
    /// child; H3's `E_DOMAIN`).
    case domain
    /// A base cell number is outside 0...121 (`E_BASE_CELL_DOMAIN`).
    case baseCellDomain
    /// An indexing digit is outside 0...6, or fewer or more digits than the resolution were
    /// given (`E_DIGIT_DOMAIN`).
    case digitDomain
    /// The digits name a pentagon's deleted k-axes sub-sequence (`E_DELETED_DIGIT`).
    case deletedDigit
    /// A set holds the same cell twice (`E_DUPLICATE_INPUT`; cells of different resolutions
    /// are ``resolutionMismatch``).
    case duplicateInput
    /// Two cells are not neighbours, so no directed edge joins them (H3's `E_NOT_NEIGHBORS`).
    case notNeighbors
    /// A 64-bit value is not a valid directed edge index: the value and the rule it breaks
    /// (H3's `E_DIR_EDGE_INVALID`).
    case invalidDirectedEdge(UInt64, DirectedEdge.Rule)
    /// A 64-bit value is not a valid vertex index: the value and the rule it breaks
    /// (H3's `E_VERTEX_INVALID`).
    case invalidVertex(UInt64, Vertex.Rule)
    /// A vertex number is outside 0...5, or 0...4 for a pentagon (H3's `E_DOMAIN` in `cellToVertex`).
    case vertexNumberDomain
    /// Pentagon distortion was encountered: the cells lie across a pentagon's deleted
    /// sub-sequence, or an algorithm that cannot pass a pentagon met one (`E_PENTAGON`).
    case pentagon
    /// H3 cannot answer, and has no more specific reason: the cells are too far apart for
    /// local IJ coordinates, or their unfolding around a pentagon is one H3 refuses (`E_FAILED`).
    case failed
}

extension H3Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .latLngDomain: return "latitude and longitude must be finite numbers"
        case .resolutionDomain: return "resolution must be an integer from 0 to 15"
        case .invalidCell: return "not a valid H3 cell index"
        case .resolutionMismatch: return "resolution is on the wrong side of the cell's resolution, or the cells' resolutions differ"
        case .invalidString: return "not a hexadecimal H3 index"
        case .kDomain: return "k must be a non-negative integer no larger than 1000"
        case .domain: return "argument is outside its acceptable range"
        case .baseCellDomain: return "base cell number must be an integer from 0 to 121"
        case .digitDomain: return "child digits must be one integer from 0 to 6 per resolution"
        case .deletedDigit: return "the digits name a pentagon's deleted sub-sequence"
        case .duplicateInput: return "the set holds a cell twice"
        case .notNeighbors: return "the cells are not neighbours: a directed edge joins two cells that share an edge"
        case .invalidDirectedEdge(let value, let rule):
            return "\(String(value, radix: 16)) is not a valid directed edge index: \(rule)"
        case .invalidVertex(let value, let rule):
            return "\(String(value, radix: 16)) is not a valid vertex index: \(rule)"
        case .vertexNumberDomain:
            return "vertex number must be an integer from 0 to 5 (0 to 4 for a pentagon)"
        case .pentagon: return "pentagon distortion was encountered; cells across a pentagon have no answer here"
        case .failed: return "H3 cannot answer: the cells are too far apart or across a pentagon (try cells nearer each other)"
        }
    }
}
