#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value of a fence file, as ``FenceJSON/parse(_:)`` reads it (RFC 8259, strictly).
///
/// An array of numbers only, which is what a GeoJSON position is, is kept as one `[Double]`
/// rather than an array of values: a fence file is mostly positions, and this is one allocation
/// a position instead of one a number. Integers keep their exact value when they fit an `Int64`
/// (an id may be one).
indirect enum FenceJSONValue {
    case object([(key: String, value: FenceJSONValue)])
    case array([FenceJSONValue])
    case numbers([Double])
    case string(String)
    case number(Double, integer: Int64?)
    case bool(Bool)
    case null

    /// The value of an object's member (the last one of that key, as a JSON object read into a
    /// dictionary keeps); `nil` for a missing member or a value that is not an object.
    subscript(key: String) -> FenceJSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var isNull: Bool { if case .null = self { true } else { false } }

    /// The elements of an array (a number array's as numbers; an empty array reads as an empty
    /// array of numbers), or `nil` for any other value.
    var elements: [FenceJSONValue]? {
        switch self {
        case .array(let a): a
        case .numbers(let n): n.map { .number($0, integer: nil) }
        default: nil
        }
    }
}

/// Reads a fence file's JSON: a hand-written recursive-descent reader in place of
/// `JSONDecoder`, which took 2.5 s of the 7 s that loading 100,000 fences took (`make bench`,
/// "geofence load 100k fences"): it built a full value tree of every number and went through
/// `Decodable`'s generic containers for each. Numbers are checked against JSON's grammar here
/// and converted by ``GeoModel/JSONNumber/readDouble(_:from:to:)`` (correctly rounded).
enum FenceJSON {
    struct Failure: Error {
        let message: String
    }

    /// The one JSON value of `bytes`; trailing white space is allowed, anything else after the
    /// value is an error.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> FenceJSONValue {
        try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> FenceJSONValue in
            guard let base = buffer.baseAddress else { throw Failure(message: "the file is empty") }
            var reader = Reader(bytes: base, count: buffer.count)
            return try reader.document()
        }
    }

    private struct Reader {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var i = 0
        var depth = 0

        static let maxDepth = 512

        mutating func document() throws(Failure) -> FenceJSONValue {
            skipSpace()
            let value = try value()
            skipSpace()
            guard i == count else { throw fail("unexpected \(describe(i)) after the JSON value") }
            return value
        }

        func fail(_ what: String) -> Failure {
            var line = 1, column = 1
            for k in 0..<min(i, count) {
                if bytes[k] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            }
            return Failure(message: "\(what) at line \(line), column \(column)")
        }

        func describe(_ at: Int) -> String {
            guard at < count else { return "end of file" }
            let b = bytes[at]
            return b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        }

        @inline(__always)
        mutating func skipSpace() {
            while i < count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0A, 0x0D: i += 1
                default: return
                }
            }
        }

        mutating func value() throws(Failure) -> FenceJSONValue {
            guard i < count else { throw fail("unexpected end of file") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (value, integer) = try number()
                return .number(value, integer: integer)
            default: throw fail("unexpected \(describe(i))")
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let n = word.utf8CodeUnitCount
            guard i + n <= count, memcmp(bytes + i, word.utf8Start, n) == 0 else { throw fail("unexpected \(describe(i))") }
            i += n
        }

        mutating func enter() throws(Failure) {
            depth += 1
            guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
        }

        mutating func object() throws(Failure) -> FenceJSONValue {
            try enter()
            defer { depth -= 1 }
            i += 1
            var members: [(key: String, value: FenceJSONValue)] = []
            skipSpace()
            if i < count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < count && bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name, found \(describe(i))") }
                let key = try string()
                skipSpace()
                guard i < count && bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':', found \(describe(i))") }
                i += 1
                skipSpace()
                members.append((key, try value()))
                skipSpace()
                guard i < count else { throw fail("unexpected end of file in an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}', found \(describe(i))")
            }
        }

        mutating func array() throws(Failure) -> FenceJSONValue {
            try enter()
            defer { depth -= 1 }
            i += 1
            skipSpace()
            if i < count && bytes[i] == UInt8(ascii: "]") { i += 1; return .numbers([]) }
            // numbers only (a position) until something else comes
            var numbers: [Double] = []
            var values: [FenceJSONValue]? = nil
            while true {
                skipSpace()
                guard i < count else { throw fail("unexpected end of file in an array") }
                let b = bytes[i]
                if values == nil && (b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))) {
                    numbers.append(try number().value)
                } else {
                    if values == nil { values = numbers.map { .number($0, integer: nil) } }
                    values!.append(try value())
                }
                skipSpace()
                guard i < count else { throw fail("unexpected end of file in an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    if let values { return .array(values) }
                    return .numbers(numbers)
                }
                throw fail("expected ',' or ']', found \(describe(i))")
            }
        }

        /// A number by JSON's grammar; its double (correctly rounded), and its value as an
        /// integer when it is written as one and fits.
        mutating func number() throws(Failure) -> (value: Double, integer: Int64?) {
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if i < count && isDigit(bytes[i]) { throw fail("a number may not have a leading zero") }
            } else {
                while i < count && isDigit(bytes[i]) { i += 1 }
            }
            var isInteger = true
            if i < count && bytes[i] == UInt8(ascii: ".") {
                isInteger = false
                i += 1
                guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits after its '.'") }
                while i < count && isDigit(bytes[i]) { i += 1 }
            }
            if i < count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                isInteger = false
                i += 1
                if i < count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits in its exponent") }
                while i < count && isDigit(bytes[i]) { i += 1 }
            }
            var integer: Int64? = nil
            if isInteger && i - start <= 20 {  // 19 digits and a sign at most; overflow is checked
                var v: Int64 = 0
                var k = start
                let negative = bytes[k] == UInt8(ascii: "-")
                if negative { k += 1 }
                var overflow = false
                while k < i {
                    let (m, o1) = v.multipliedReportingOverflow(by: 10)
                    let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(bytes[k] - 48))
                                           : m.addingReportingOverflow(Int64(bytes[k] - 48))
                    overflow = overflow || o1 || o2
                    v = s
                    k += 1
                }
                if !overflow { integer = v }
            }
            // the grammar is checked; the record codec's exact reader (Clinger's fast path for
            // the usual coordinates; glibc's strtod took 0.23 s of loading 100,000 fences)
            let value = JSONNumber.readDouble(bytes, from: start, to: i)
            guard value.isFinite else { throw fail("a number too large for a double") }
            return (value, integer)
        }

        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        mutating func string() throws(Failure) -> String {
            i += 1
            let start = i
            // the common case: no escape, so the bytes are the string (checked as UTF-8)
            while i < count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(start: bytes + start, count: i - start)
                    i += 1
                    guard let s = String(validating: text, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { throw fail("a control character in a string") }
                i += 1
            }
            var decoded = Array(UnsafeBufferPointer(start: bytes + start, count: i - start))
            while i < count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    guard let s = String(validating: decoded, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                    return s
                }
                if b < 0x20 { throw fail("a control character in a string") }
                if b != UInt8(ascii: "\\") {
                    decoded.append(b)
                    i += 1
                    continue
                }
                i += 1
                guard i < count else { break }
                switch bytes[i] {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // a high surrogate must be followed by an escaped low one
                        guard i + 2 < count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                            throw fail("a lone surrogate in a string")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail("a lone surrogate in a string")
                    }
                    decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw fail("an invalid escape in a string")
                }
                i += 1
            }
            throw fail("unexpected end of file in a string")
        }

        /// The four hex digits after `\u` (`i` at the `u`); leaves `i` at the last digit.
        mutating func hex4() throws(Failure) -> UInt32 {
            guard i + 4 < count else { throw fail("unexpected end of file in a \\u escape") }
            var v: UInt32 = 0
            for k in 1...4 {
                let b = bytes[i + k]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 55)
                default: throw fail("a \\u escape needs four hex digits")
                }
                v = v << 4 | d
            }
            i += 4
            return v
        }
    }
}
