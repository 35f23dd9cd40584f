#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CJSONSkim

/// A JSON value of a fence file, as ``FenceJSON/parse(_:)`` reads it (RFC 8259, strictly).
///
/// A fence file is mostly positions, so two shapes of array are kept flat rather than as arrays
/// of values: an array of numbers only (a position) as one `[Double]`, and a non-empty array of
/// arrays of exactly two numbers each (a ring of `[longitude, latitude]` positions) as one
/// `[Double]` of the pairs in a row. The second is one allocation a ring instead of one a
/// position: with it (and the check's messages made only when needed) loading 100,000 fences
/// took 1.65 s of CPU instead of 2.2, the saving mostly in malloc and free. Integers keep their
/// exact value when they fit an `Int64` (an id may be one).
enum FenceJSONValue {
    /// An object's member. (A struct, not a `(key:value:)` tuple: an array of tuples looked up
    /// the tuple's metadata in the runtime each time one was made, 5 % of loading 100,000
    /// fences with the strings' validation below, perf.)
    struct Member {
        let key: String
        let value: FenceJSONValue
    }

    case object([Member])
    case array([FenceJSONValue])
    case numbers([Double])
    /// `[[a, b], [c, d], …]`, one or more pairs, as `[a, b, c, d, …]`.
    case pairs([Double])
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

    /// The elements of an array (a number array's as numbers, a ring of pairs' as its positions;
    /// an empty array reads as an empty array of numbers), or `nil` for any other value.
    var elements: [FenceJSONValue]? {
        switch self {
        case .array(let a): a
        case .numbers(let n): n.map { .number($0, integer: nil) }
        case .pairs(let p): stride(from: 0, to: p.count, by: 2).map { .numbers([p[$0], p[$0 + 1]]) }
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
            try parse(buffer, range: 0..<buffer.count, depth: 0)
        }
    }

    /// The one JSON value in `range` of `bytes` (white space around it allowed), read as if it
    /// were `depth` levels deep in a document; a failure says where it is in the whole of `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int) throws(Failure) -> FenceJSONValue {
        guard let base = bytes.baseAddress, range.upperBound <= bytes.count else {
            throw Failure(message: range.isEmpty ? "the file is empty" : "a range past the end of the file")
        }
        var reader = Reader(bytes: base, count: range.upperBound)
        reader.i = range.lowerBound
        reader.depth = depth
        return try reader.document()
    }

    /// The feature in `range` of `bytes` (`depth` levels deep, as ``parse(_:range:depth:)``
    /// reads it), read straight into what the check takes, with no value tree: what
    /// ``GeofenceFile/RawFeature/init(_:)`` makes of ``parse(_:range:depth:)``'s value, for the
    /// features of the usual shape. `nil` for any other, valid or not, which the caller then
    /// reads as a tree: a member name with an escape or a byte past ASCII, a `"type"` or
    /// `"coordinates"` of the geometry repeated or its coordinates before its type, rings that
    /// are not `[longitude, latitude]` pairs (an altitude, an empty ring), a geometry other than
    /// a Polygon, MultiPolygon or Point, or anything that is not JSON.
    ///
    /// Building the tree and taking it apart was about a fifth of loading 20,000 fences
    /// (callgrind: an array of members for each object, a `String` for each name, the tree's
    /// release), for the few fields the check reads.
    static func feature(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int) -> GeofenceFile.RawFeature? {
        guard let base = bytes.baseAddress, range.upperBound <= bytes.count else { return nil }
        var reader = Reader(bytes: base, count: range.upperBound)
        reader.i = range.lowerBound
        reader.depth = depth
        reader.skipSpace()
        guard let feature = try? reader.feature() else { return nil }
        reader.skipSpace()
        return reader.i == reader.count ? feature : nil
    }

    /// Where the parts of a FeatureCollection are in a document's bytes, found without reading
    /// them, so that its features can be read apart (on several threads, see
    /// ``GeofenceFile``): the value of its `"type"`, each element of its `"features"` array, and
    /// the value of every other top-level member.
    struct CollectionLayout {
        var type: Range<Int>
        var features: [Range<Int>]
        var others: [Range<Int>]
    }

    /// The layout of a document that is a top-level object with one `"type"` and one
    /// `"features"` array (member names of plain ASCII, without escapes); `nil` for anything else. It is found
    /// by matching brackets outside strings, which is right for valid JSON; a range it gets
    /// wrong in invalid JSON holds invalid JSON, which reading the range refuses.
    static func collectionLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> CollectionLayout? {
        var skim = Skimmer(bytes: bytes)
        var type: Range<Int>?, elements: [Range<Int>]?, others: [Range<Int>] = []
        skim.space()
        guard skim.take(UInt8(ascii: "{")) else { return nil }
        repeat {
            skim.space()
            guard skim.at(UInt8(ascii: "\"")) else { return nil }
            let keyStart = skim.i + 1
            guard skim.string() else { return nil }
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<(skim.i - 1)])
            // a name the reader would refuse (a control byte, UTF-8 to validate) or decode (an
            // escape) is left to the reader: only plain ASCII names are compared here
            guard key.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\\") }) else { return nil }
            skim.space()
            guard skim.take(UInt8(ascii: ":")) else { return nil }
            skim.space()
            if key.elementsEqual("features".utf8) {
                // its elements, found as the array is passed (one pass over the file)
                guard elements == nil, skim.take(UInt8(ascii: "[")) else { return nil }
                var found: [Range<Int>] = []
                skim.space()
                if !skim.take(UInt8(ascii: "]")) {
                    repeat {
                        skim.space()
                        guard let element = skim.value() else { return nil }
                        found.append(element)
                        skim.space()
                    } while skim.take(UInt8(ascii: ","))
                    guard skim.take(UInt8(ascii: "]")) else { return nil }
                }
                elements = found
            } else {
                guard let value = skim.value() else { return nil }
                if Reader.named(key, "type") {
                    guard type == nil else { return nil }
                    type = value
                } else {
                    others.append(value)
                }
            }
            skim.space()
        } while skim.take(UInt8(ascii: ","))
        guard skim.take(UInt8(ascii: "}")) else { return nil }
        skim.space()
        guard skim.i == bytes.count, let type, let elements else { return nil }
        return CollectionLayout(type: type, features: elements, others: others)
    }

    /// Steps over JSON values by their brackets and strings, checking nothing else.
    private struct Skimmer {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func space() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0A, 0x0D: i += 1
                default: return
                }
            }
        }

        func at(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

        mutating func take(_ b: UInt8) -> Bool {
            guard at(b) else { return false }
            i += 1
            return true
        }

        /// Past a string, from its opening quote; false when the bytes end first.
        mutating func string() -> Bool {
            i += 1
            while i < bytes.count {
                let b = bytes[i]
                i += b == UInt8(ascii: "\\") ? 2 : 1
                if b == UInt8(ascii: "\"") { return true }
            }
            return false
        }

        /// Past one value; its range, or `nil` when the bytes end first.
        mutating func value() -> Range<Int>? {
            let start = i
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard string() else { return nil }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // most bytes are digits: passed sixteen at a time (CJSONSkim). One table load a
                // byte took 0.16 s of 100,000 fences' 46 MB, 12 % of their loading on one thread
                // (perf); testing each byte for the five that matter took longer.
                let past = geo_json_nested_end(bytes.baseAddress!, i, bytes.count)
                guard past >= 0 else { return nil }
                i = past
                return start..<i
            default:  // a number or a literal: up to the next delimiter
                scan: while i < bytes.count {
                    switch bytes[i] {
                    case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): break scan
                    default: i += 1
                    }
                }
            }
            return i > start ? start..<i : nil
        }
    }

    private struct Reader {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var i = 0
        var depth = 0

        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
        }

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
            var members: [FenceJSONValue.Member] = []
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
                members.append(FenceJSONValue.Member(key: key, value: try value()))
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
            let open = i
            if depth < Self.maxDepth, let pairs = pairs() { return .pairs(pairs) }  // its arrays are a level deeper
            i = open
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

        /// The numbers of an array of one or more `[number, number]` arrays, read from its `[`
        /// to past its `]`; `nil` at the first thing that is not that shape (then the caller
        /// reads the array again, as a tree, and any error is found there).
        mutating func pairs() -> [Double]? {
            i += 1
            var out: [Double] = []
            out.reserveCapacity(64)  // a ring of up to 32 positions without growing (it grew 5 times)
            while true {
                skipSpace()
                guard i < count, bytes[i] == UInt8(ascii: "[") else { return nil }
                i += 1
                skipSpace()
                guard i < count, isNumberStart(bytes[i]), let x = try? number().value else { return nil }
                skipSpace()
                guard i < count, bytes[i] == UInt8(ascii: ",") else { return nil }
                i += 1
                skipSpace()
                guard i < count, isNumberStart(bytes[i]), let y = try? number().value else { return nil }
                skipSpace()
                guard i < count, bytes[i] == UInt8(ascii: "]") else { return nil }
                i += 1
                out.append(x)
                out.append(y)
                skipSpace()
                guard i < count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return out }
                return nil
            }
        }

        /// Thrown by ``feature()`` for a feature it leaves to the tree.
        struct Unusual: Error {}

        /// A member's name of plain ASCII (no escape), `i` past its closing quote and the
        /// colon after it, at the value.
        mutating func name() throws(Unusual) -> UnsafeBufferPointer<UInt8> {
            guard i < count && bytes[i] == UInt8(ascii: "\"") else { throw Unusual() }
            let start = i + 1
            var k = start
            while k < count && bytes[k] != UInt8(ascii: "\"") {
                guard bytes[k] >= 0x20 && bytes[k] < 0x80 && bytes[k] != UInt8(ascii: "\\") else { throw Unusual() }
                k += 1
            }
            guard k < count else { throw Unusual() }
            i = k + 1
            skipSpace()
            guard i < count && bytes[i] == UInt8(ascii: ":") else { throw Unusual() }
            i += 1
            skipSpace()
            return UnsafeBufferPointer(start: bytes + start, count: k - start)
        }

        /// Whether a member's name is `literal` (ASCII). `elementsEqual` over a `String`'s UTF-8
        /// view went through its generic iterator: 200 instructions a name (callgrind).
        @inline(__always)
        static func named(_ key: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
            key.count == literal.utf8CodeUnitCount && memcmp(key.baseAddress!, literal.utf8Start, key.count) == 0
        }

        /// After a member's value: true at a `,` (and past it), false at the `}` (and past it).
        mutating func another() throws(Unusual) -> Bool {
            skipSpace()
            guard i < count else { throw Unusual() }
            if bytes[i] == UInt8(ascii: ",") { i += 1; skipSpace(); return true }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return false }
            throw Unusual()
        }

        /// Any value, checked and read as a tree (the small ones: ids, properties, others).
        mutating func anyValue() throws(Unusual) -> FenceJSONValue {
            do { return try value() } catch { throw Unusual() }
        }

        /// See ``FenceJSON/feature(_:range:depth:)``. A member repeated counts as its last, as
        /// in the tree (``FenceJSONValue/subscript(_:)``).
        mutating func feature() throws(Unusual) -> GeofenceFile.RawFeature {
            var raw = GeofenceFile.RawFeature()
            guard i < count && bytes[i] == UInt8(ascii: "{") else { throw Unusual() }
            do { try enter() } catch { throw Unusual() }
            defer { depth -= 1 }
            i += 1
            skipSpace()
            if i < count && bytes[i] == UInt8(ascii: "}") { i += 1; return raw }
            repeat {
                let key = try name()
                if Self.named(key, "type") {
                    raw.type = try typeName()
                } else if Self.named(key, "id") {
                    raw.id = GeofenceFile.RawFeature.identifier(try anyValue())
                } else if Self.named(key, "properties") {
                    try properties(into: &raw)
                } else if Self.named(key, "geometry") {
                    try geometry(into: &raw)
                } else {
                    _ = try anyValue()
                }
            } while try another()
            return raw
        }

        /// A `"type"` value: one of the names the reader looks for, as that name (without making
        /// a string of the bytes and checking them as UTF-8: 300 instructions, twice a feature),
        /// or any other value's string, `nil` for a value that is not a string.
        mutating func typeName() throws(Unusual) -> String? {
            if i < count && bytes[i] == UInt8(ascii: "\"") {
                func quoted(_ name: StaticString) -> Bool {
                    let n = name.utf8CodeUnitCount
                    return i + n + 1 < count && bytes[i + n + 1] == UInt8(ascii: "\"") && memcmp(bytes + i + 1, name.utf8Start, n) == 0
                }
                let known: String? = quoted("Feature") ? "Feature" : quoted("Polygon") ? "Polygon"
                    : quoted("Point") ? "Point" : quoted("MultiPolygon") ? "MultiPolygon" : nil
                if let known {
                    i += known.utf8.count + 2
                    return known
                }
            }
            return try anyValue().string
        }

        /// A feature's `"properties"` value into `raw` (its id and radius), replacing an earlier
        /// one's, as ``GeofenceFile/RawFeature/readProperties(_:)`` takes them from the tree:
        /// read as a tree, the object and its member names were made and freed, 800
        /// instructions a circle.
        mutating func properties(into raw: inout GeofenceFile.RawFeature) throws(Unusual) {
            raw.propertiesID = .missing
            raw.radius = nil
            raw.radiusPresent = false
            guard i < count && bytes[i] == UInt8(ascii: "{") else {
                _ = try anyValue()  // not an object: neither
                return
            }
            do { try enter() } catch { throw Unusual() }
            defer { depth -= 1 }
            i += 1
            skipSpace()
            if i < count && bytes[i] == UInt8(ascii: "}") { i += 1; return }
            repeat {
                let key = try name()
                if Self.named(key, "id") {
                    raw.propertiesID = GeofenceFile.RawFeature.identifier(try anyValue())
                } else if Self.named(key, "radius_m") {
                    // the last one counts, null as none
                    let r = try anyValue()
                    raw.radiusPresent = !r.isNull
                    raw.radius = if case .number(let v, _) = r { v } else { nil }
                } else {
                    _ = try anyValue()
                }
            } while try another()
        }

        /// A feature's `"geometry"` value into `raw`, replacing an earlier one's.
        mutating func geometry(into raw: inout GeofenceFile.RawFeature) throws(Unusual) {
            raw.geometryPresent = false
            raw.geometryType = nil
            raw.polygons = nil
            raw.point = nil
            guard i < count && bytes[i] == UInt8(ascii: "{") else {
                _ = try anyValue()  // not an object: no geometry
                return
            }
            do { try enter() } catch { throw Unusual() }
            defer { depth -= 1 }
            raw.geometryPresent = true
            i += 1
            skipSpace()
            if i < count && bytes[i] == UInt8(ascii: "}") { i += 1; return }
            var typed = false, placed = false
            repeat {
                let key = try name()
                if Self.named(key, "type") {
                    guard !typed else { throw Unusual() }
                    typed = true
                    raw.geometryType = try typeName()
                } else if Self.named(key, "coordinates") {
                    guard typed, !placed else { throw Unusual() }
                    placed = true
                    switch raw.geometryType {
                    case "Polygon": raw.polygons = [try rings()]
                    case "MultiPolygon":
                        var polygons: [[GeofenceFile.RawRing]] = []
                        try elements { (reader: inout Reader) throws(Unusual) in polygons.append(try reader.rings()) }
                        raw.polygons = polygons
                    case "Point": raw.point = try position()
                    default: throw Unusual()
                    }
                } else {
                    _ = try anyValue()
                }
            } while try another()
        }

        /// Calls `body` at each element of a non-empty array, `i` at its `[`; leaves `i` past the `]`.
        mutating func elements(_ body: (inout Reader) throws(Unusual) -> Void) throws(Unusual) {
            guard i < count && bytes[i] == UInt8(ascii: "[") else { throw Unusual() }
            do { try enter() } catch { throw Unusual() }
            defer { depth -= 1 }
            i += 1
            repeat {
                skipSpace()
                try body(&self)
                skipSpace()
                guard i < count else { throw Unusual() }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return }
                guard bytes[i] == UInt8(ascii: ",") else { throw Unusual() }
                i += 1
            } while true
        }

        /// A polygon's rings, each a non-empty array of `[longitude, latitude]` pairs.
        mutating func rings() throws(Unusual) -> [GeofenceFile.RawRing] {
            var out: [GeofenceFile.RawRing] = []
            try elements { (reader: inout Reader) throws(Unusual) in
                do { try reader.enter() } catch { throw Unusual() }
                defer { reader.depth -= 1 }
                // pairs() reads positions a level deeper than its array, as array() would
                guard reader.depth < Self.maxDepth, reader.i < reader.count, reader.bytes[reader.i] == UInt8(ascii: "["),
                      let pairs = reader.pairs() else { throw Unusual() }
                out.append(GeofenceFile.RawRing(pairs: pairs, count: pairs.count / 2))
            }
            return out
        }

        /// A Point's `[longitude, latitude]`.
        mutating func position() throws(Unusual) -> [Double] {
            var numbers: [Double] = []
            numbers.reserveCapacity(2)
            try elements { (reader: inout Reader) throws(Unusual) in
                guard reader.i < reader.count, reader.isNumberStart(reader.bytes[reader.i]),
                      let v = try? reader.number().value, numbers.count < 2 else { throw Unusual() }
                numbers.append(v)
            }
            guard numbers.count == 2 else { throw Unusual() }
            return numbers
        }

        @inline(__always) func isNumberStart(_ b: UInt8) -> Bool { b == UInt8(ascii: "-") || isDigit(b) }

        /// A number by JSON's grammar; its double (correctly rounded), and its value as an
        /// integer when it is written as one and fits.
        ///
        /// The usual coordinate is ``decimal()``'s, a word at a time. Any other number's
        /// significant digits are gathered here as it is checked, and one exact conversion makes
        /// the double (``GeoModel/JSONNumber``'s, shared with the record codec); checking first
        /// and reading the digits again took about 600 instructions for a coordinate of 17
        /// digits, 16 % of loading 20,000 fences (callgrind). glibc's strtod took 0.23 s of
        /// loading 100,000.
        mutating func number() throws(Failure) -> (value: Double, integer: Int64?) {
            if let value = decimal() { return (value, nil) }
            let start = i
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits") }
            // the significant digits (from the first that is not 0) while there are at most 19
            var mantissa: UInt64 = 0, significant = 0, exponent = 0
            @inline(__always) func gather(_ b: UInt8) {
                if mantissa != 0 || b != UInt8(ascii: "0") {
                    significant &+= 1
                    if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(b &- 48) }
                }
            }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if i < count && isDigit(bytes[i]) { throw fail("a number may not have a leading zero") }
            } else {
                while i < count && isDigit(bytes[i]) { gather(bytes[i]); i += 1 }
            }
            var isInteger = true
            var hasExponent = false
            if i < count && bytes[i] == UInt8(ascii: ".") {
                isInteger = false
                i += 1
                guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits after its '.'") }
                while i < count && isDigit(bytes[i]) {
                    gather(bytes[i])
                    if significant <= 19 { exponent &-= 1 }
                    i += 1
                }
            }
            if i < count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                isInteger = false
                hasExponent = true
                i += 1
                if i < count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard i < count, isDigit(bytes[i]) else { throw fail("a number needs digits in its exponent") }
                while i < count && isDigit(bytes[i]) { i += 1 }
            }
            var integer: Int64? = nil
            if isInteger && i - start <= 20 {  // 19 digits and a sign at most; overflow is checked
                var v: Int64 = 0
                var k = start
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
            // an exponent, or more than 19 significant digits: the general reader
            let value: Double
            if !hasExponent && significant <= 19,
               let v = JSONNumber.double(mantissa: mantissa, timesTenToThe: exponent, negative: negative) {
                value = v
            } else {
                value = JSONNumber.readDouble(bytes, from: start, to: i)
            }
            guard value.isFinite else { throw fail("a number too large for a double") }
            return (value, integer)
        }

        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        /// The usual coordinate, `-ddd.ddddddddddddddd`, a word at a time
        /// (``GeoModel/JSONNumber/plainDecimal(_:at:count:)``, shared with the record codec),
        /// where ``number()``'s digit-by-digit checks cost about 280 instructions a number of
        /// 16-17 digits (callgrind, 20,000 fences). Nil, having read nothing, for any other
        /// number (``number()`` reads it, and refuses what is wrong).
        @inline(__always)
        private mutating func decimal() -> Double? {
            guard let (value, end) = JSONNumber.plainDecimal(bytes, at: i, count: count) else { return nil }
            i = end
            return value
        }

        mutating func string() throws(Failure) -> String {
            i += 1
            let start = i
            // the common case: no escape, so the bytes are the string (checked as UTF-8, unless
            // they are ASCII: the generic validation was most of a short key's cost)
            var ascii = true
            while i < count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(start: bytes + start, count: i - start)
                    i += 1
                    if ascii { return String(decoding: text, as: UTF8.self) }
                    guard let s = String(validating: text, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { throw fail("a control character in a string") }
                ascii = ascii && b < 0x80
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
