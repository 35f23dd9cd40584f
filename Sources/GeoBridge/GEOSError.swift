/// A failure reported by GEOS, carrying GEOS's own message.
///
/// A struct over a private code rather than an enum, because the set of GEOS operations wrapped
/// here will grow. Compare errors by `kind`.
public struct GEOSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of operation failed.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case contextUnavailable, invalidWKT, invalidWKB, invalidGeometry, preparationFailed, predicateFailed
        }
        private let code: Code

        /// `GEOS_init_r` returned no context (out of memory).
        public static let contextUnavailable = Kind(code: .contextUnavailable)
        /// The WKT text could not be parsed.
        public static let invalidWKT = Kind(code: .invalidWKT)
        /// The WKB bytes could not be parsed (truncated, unknown type, inconsistent counts).
        public static let invalidWKB = Kind(code: .invalidWKB)
        /// The coordinates do not make the requested geometry (a ring of fewer than 3 vertices,
        /// say), found by GeoBridge or by GEOS.
        public static let invalidGeometry = Kind(code: .invalidGeometry)
        /// `GEOSPrepare_r` could not index the geometry.
        public static let preparationFailed = Kind(code: .preparationFailed)
        /// A spatial predicate raised an exception inside GEOS (often an invalid geometry).
        public static let predicateFailed = Kind(code: .predicateFailed)

        public var description: String {
            switch code {
            case .contextUnavailable:
                "GEOS could not create a context; the process is probably out of memory"
            case .invalidWKT:
                "GEOS could not parse the WKT; check the text against the OGC WKT grammar"
            case .invalidWKB:
                "GEOS could not parse the WKB; check that the bytes are complete OGC well-known binary"
            case .invalidGeometry:
                "GEOS could not build the geometry; a polygon's exterior ring needs at least 3 vertices"
            case .preparationFailed:
                "GEOS could not prepare the geometry; check that it is valid"
            case .predicateFailed:
                "a GEOS predicate failed; check that the geometry is valid (e.g. no self-intersections)"
            }
        }
    }

    /// What kind of operation failed.
    public let kind: Kind
    /// The GEOS C function that failed, e.g. `GEOSWKTReader_read_r`, or `nil` if GeoBridge
    /// rejected the input before calling GEOS. GEOS has no numeric error codes; the function
    /// and its message identify the failure.
    public let function: String?
    /// GEOS's message, e.g. `ParseException: Unknown type: 'POLYGN'`, GeoBridge's reason when
    /// `function` is `nil`, or a note that GEOS gave none.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What kind of operation failed.
    ///   - function: The GEOS C function that failed, or `nil` for a check made in Swift.
    ///   - message: GEOS's message, or `nil` if it reported none.
    init(_ kind: Kind, function: String?, message: String?) {
        self.kind = kind
        self.function = function
        self.message = message ?? "(GEOS reported no message)"
    }

    public var description: String {
        if let function {
            "\(kind) (\(function): \(message))"
        } else {
            "\(kind) (\(message))"
        }
    }
}
