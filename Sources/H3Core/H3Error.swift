/// Why an H3 operation could not give an answer.
public enum H3Error: Error, Equatable, Sendable {
    /// A latitude or longitude is NaN or infinite.
    case latLngDomain
    /// A resolution is outside 0...15.
    case resolutionDomain
    /// A 64-bit value is not a valid H3 cell index.
    case invalidCell
    /// A parent was asked at a finer resolution than the cell's, or a child at a coarser one.
    case resolutionMismatch
    /// A string is not a hexadecimal H3 index.
    case invalidString
    /// A grid distance `k` is negative or too large to enumerate.
    case kDomain
}

extension H3Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .latLngDomain: return "latitude and longitude must be finite numbers"
        case .resolutionDomain: return "resolution must be an integer from 0 to 15"
        case .invalidCell: return "not a valid H3 cell index"
        case .resolutionMismatch: return "resolution is on the wrong side of the cell's resolution"
        case .invalidString: return "not a hexadecimal H3 index"
        case .kDomain: return "k must be a non-negative integer no larger than 1000"
        }
    }
}
