/// A JSON number as orjson 3.8.3 hands it to Python, so that it can be written back the same way.
///
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
    public var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsignedInteger(let v): return Double(v)
        case .double(let v): return v
        }
    }
}
