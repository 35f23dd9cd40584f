/// A number as a record's JSON wrote it, so that it is written back the same way: a fix's
/// `"latitude":49` comes back in `geo` as `49`, not `49.0`, on every line the fix enriches.
///
/// The kinds are orjson 3.8.3's, as it hands a number to Python:
/// orjson gives a Python `int` for integer syntax within 64 bits (-2^63 ... 2^64-1) and a `float`
/// otherwise (fraction, exponent, or an integer too large); `orjson.dumps` prints an `int` as an
/// integer and a `float` in its shortest round-trip form. Keeping the kind keeps `12` from
/// coming back as `12.0`.
public enum JSONNumber: Sendable, Hashable {
    /// An integer in `Int64` range (`-0` is the integer 0).
    case integer(Int64)
    /// An integer above `Int64.max` and at most `UInt64.max`.
    case unsignedInteger(UInt64)
    /// A float: finite (orjson refuses numbers that overflow a double).
    case double(Double)

    /// The number as a double (integers rounded to nearest, as Python's `float()` does).
    @inlinable
    public var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsignedInteger(let v): return Double(v)
        case .double(let v): return v
        }
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// An integer, as JSON's integer syntax gives it.
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// A float, as JSON's fraction or exponent syntax gives it.
    public init(floatLiteral value: Double) { self = .double(value) }
}
