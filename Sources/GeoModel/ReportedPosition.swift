/// A fix's position as the record wrote it: latitude, longitude and accuracy, each a
/// ``JSONNumber`` (a JSON integer comes back as an integer, an integer accuracy beyond 2^53 m
/// exactly), with the latitude and longitude as doubles for arithmetic.
///
/// 25 bytes, where three `JSONNumber`s take 48: each number is kept as its 64 bits and its kind
/// in two bits of one byte. A latitude or longitude in range is exact as a double whether JSON
/// wrote it as an integer or not; an accuracy's 64 bits are an `Int64`, a `UInt64` or a double's
/// bit pattern, as its kind says. The engine keeps one in every live session's state and every
/// older fix (``Enrichment``), and passes one in every ``Fix``: as three `JSONNumber`s a
/// session's state took 128 bytes instead of 112 (16 MB more a million sessions), and the
/// engine's decision 11 ns more a fix (43.6 against 32.2 ns, `make bench`).
public struct ReportedPosition: Hashable, Sendable {
    /// The latitude in degrees, for arithmetic.
    public let latitudeDegrees: Double
    /// The longitude in degrees, for arithmetic.
    public let longitudeDegrees: Double
    /// The accuracy's 64 bits, read as ``kinds`` says.
    @usableFromInline let accuracyBits: UInt64
    /// Bit 0: the latitude was a JSON integer; bit 1: the longitude was; bits 2–3: the
    /// accuracy's kind (0 none, 1 integer, 2 unsigned integer, 3 float).
    @usableFromInline let kinds: UInt8

    /// - Parameters:
    ///   - latitude: degrees, as written.
    ///   - longitude: degrees, as written.
    ///   - accuracy: metres, as written, or `nil`.
    @inlinable
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?) {
        latitudeDegrees = latitude.doubleValue
        longitudeDegrees = longitude.doubleValue
        var kinds: UInt8 = 0
        if case .integer = latitude { kinds |= 1 }
        if case .integer = longitude { kinds |= 2 }
        switch accuracy {
        case nil: accuracyBits = 0
        case .integer(let v)?: accuracyBits = UInt64(bitPattern: v); kinds |= 1 << 2
        case .unsignedInteger(let v)?: accuracyBits = v; kinds |= 2 << 2
        case .double(let v)?: accuracyBits = v.bitPattern; kinds |= 3 << 2
        }
        self.kinds = kinds
    }

    /// The latitude in degrees, as written.
    @inlinable
    public var latitude: JSONNumber {
        kinds & 1 != 0 ? .integer(Int64(latitudeDegrees)) : .double(latitudeDegrees)
    }

    /// The longitude in degrees, as written.
    @inlinable
    public var longitude: JSONNumber {
        kinds & 2 != 0 ? .integer(Int64(longitudeDegrees)) : .double(longitudeDegrees)
    }

    /// The accuracy radius in metres, as written, when there was one.
    @inlinable
    public var accuracy: JSONNumber? {
        switch kinds >> 2 {
        case 1: .integer(Int64(bitPattern: accuracyBits))
        case 2: .unsignedInteger(accuracyBits)
        case 3: .double(Double(bitPattern: accuracyBits))
        default: nil
        }
    }

    /// The accuracy in metres as a double, when there was one.
    @inlinable
    public var accuracyMetres: Double? { accuracy?.doubleValue }

    /// Whether two positions are written alike: the degrees compared by their bits, as the
    /// accuracy is. A latitude of `-0.0` and one of `0.0` are the same number to `Double`'s
    /// `==`, but not the same text: compared that way, the stream's cache of rendered `geo`
    /// objects gave one session's `-0.0` the `0.0` of another session sharing its slot
    /// (877 lines of 20,000 in a stream of sessions at both zeros; the peer writes each as read).
    @inlinable
    public static func == (a: ReportedPosition, b: ReportedPosition) -> Bool {
        a.latitudeDegrees.bitPattern == b.latitudeDegrees.bitPattern
            && a.longitudeDegrees.bitPattern == b.longitudeDegrees.bitPattern
            && a.accuracyBits == b.accuracyBits && a.kinds == b.kinds
    }

    /// Hashes what ``==(_:_:)`` compares.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitudeDegrees.bitPattern)
        hasher.combine(longitudeDegrees.bitPattern)
        hasher.combine(accuracyBits)
        hasher.combine(kinds)
    }
}
