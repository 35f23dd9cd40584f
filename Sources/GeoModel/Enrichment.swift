import H3Core

/// The location context of an accepted fix: the values of the `geo` object that enriches the
/// fix's own record and the events that get it as their session's live location.
///
/// The one type for it: the engine keeps one per live session and per older fix, the codec
/// writes it into each line (`RecordCodec`'s `Splice`), the push sends its position.
///
/// The position is given back as the record wrote it (``latitude``, ``longitude`` and
/// ``accuracy`` are ``JSONNumber``s: a JSON integer comes back as an integer, an integer
/// accuracy beyond 2^53 m exactly), and ``latitudeDegrees`` and ``longitudeDegrees`` are the
/// doubles the engine measures with.
///
/// Memory: 66 bytes (72 with padding), what the session table's memory target was measured
/// with. Stored as three `JSONNumber`s the position took 48 bytes and the value 81 (a session's
/// state 128 bytes instead of 112, 16 MB more a million sessions), so each number is kept as its
/// 64 bits and its kind in two bits of one byte: a latitude or longitude in range is exact as
/// a double whether JSON wrote it as an integer or not, and an accuracy's 64 bits are an
/// `Int64`, a `UInt64` or a double's bit pattern, as its kind says.
public struct Enrichment: Hashable, Sendable {
    /// The fix's latitude in degrees, for arithmetic.
    public let latitudeDegrees: Double
    /// The fix's longitude in degrees, for arithmetic.
    public let longitudeDegrees: Double
    /// When the fix was taken.
    public var fixTimestamp: Timestamp
    /// The H3 cell of the fix at the configured resolution.
    public var h3: H3Cell
    /// The accuracy's 64 bits, read as ``kinds`` says.
    @usableFromInline let accuracyBits: UInt64
    /// ISO 3166-1 alpha-2 of the Natural Earth polygon holding the fix.
    public var country: CountryCode?
    /// The nearest postal code, for fixes in Canada within the maximum distance.
    public var postal: PostalMatch?
    /// Bit 0: the latitude was a JSON integer; bit 1: the longitude was; bits 2–3: the
    /// accuracy's kind (0 none, 1 integer, 2 unsigned integer, 3 float).
    @usableFromInline let kinds: UInt8

    /// Collects the values of one `geo` object, in the contract's order; each parameter is the
    /// property of the same name.
    @inlinable
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?, fixTimestamp: Timestamp,
                h3: H3Cell, country: CountryCode?, postal: PostalMatch?) {
        latitudeDegrees = latitude.doubleValue
        longitudeDegrees = longitude.doubleValue
        self.fixTimestamp = fixTimestamp
        self.h3 = h3
        self.country = country
        self.postal = postal
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

    /// The fix's latitude in degrees, as the record wrote it.
    @inlinable
    public var latitude: JSONNumber {
        kinds & 1 != 0 ? .integer(Int64(latitudeDegrees)) : .double(latitudeDegrees)
    }

    /// The fix's longitude in degrees, as the record wrote it.
    @inlinable
    public var longitude: JSONNumber {
        kinds & 2 != 0 ? .integer(Int64(longitudeDegrees)) : .double(longitudeDegrees)
    }

    /// The fix's accuracy radius in metres as the record wrote it, when it had one.
    @inlinable
    public var accuracy: JSONNumber? {
        switch kinds >> 2 {
        case 1: .integer(Int64(bitPattern: accuracyBits))
        case 2: .unsignedInteger(accuracyBits)
        case 3: .double(Double(bitPattern: accuracyBits))
        default: nil
        }
    }
}
