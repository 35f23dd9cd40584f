import CJSONSkim

/// The kinds of JSON value, as far as the record checks need to tell them apart.
enum JSONValueKind: UInt8 {
    case absent, string, number, object, array, trueLiteral, falseLiteral, null
}

/// Where the last occurrence of one top-level field's value lies in the line (duplicate keys:
/// the last one wins, as in orjson and Python dicts).
struct ValueSlot {
    var kind: JSONValueKind = .absent
    /// Strings: the first byte after the opening quote. Numbers: the first character.
    var start = 0
    /// Strings: the closing quote. Numbers: one past the last character.
    var end = 0
    /// Strings: the text holds a backslash escape. Numbers: integer syntax (no fraction, no exponent).
    var flag = false
}

/// The top-level fields the record checks read; every other key is only validated and skipped.
///
/// One slot per ``JSONLineScanner/Field``, by its raw value, and one more that the values of
/// other keys are written to and never read: the scans store every value by index, without a
/// branch on the key (a `switch` of stores was about 38 instructions a line of the benchmark
/// stream, callgrind).
struct RecordSlots {
    /// A homogeneous tuple, laid out as a C array.
    private var storage = (ValueSlot(), ValueSlot(), ValueSlot(), ValueSlot(),
                           ValueSlot(), ValueSlot(), ValueSlot(), ValueSlot())
    /// The index of the slot that values of other keys go to.
    static let otherKey = 7

    /// Slot `index` (a ``JSONLineScanner/Field``'s raw value, or ``otherKey``). The index is
    /// masked to the eight slots, so that no index reaches past them.
    @inline(__always)
    subscript(index index: Int) -> ValueSlot {
        get {
            assert(index >= 0 && index <= Self.otherKey)
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: (index & 7) &* MemoryLayout<ValueSlot>.stride, as: ValueSlot.self) }
        }
        set {
            assert(index >= 0 && index <= Self.otherKey)
            withUnsafeMutableBytes(of: &storage) {
                $0.storeBytes(of: newValue, toByteOffset: (index & 7) &* MemoryLayout<ValueSlot>.stride, as: ValueSlot.self)
            }
        }
    }

    var type: ValueSlot { self[index: JSONLineScanner.Field.type.rawValue] }
    var sessionID: ValueSlot { self[index: JSONLineScanner.Field.sessionID.rawValue] }
    var timestamp: ValueSlot { self[index: JSONLineScanner.Field.timestamp.rawValue] }
    var consent: ValueSlot { self[index: JSONLineScanner.Field.consent.rawValue] }
    var latitude: ValueSlot { self[index: JSONLineScanner.Field.latitude.rawValue] }
    var longitude: ValueSlot { self[index: JSONLineScanner.Field.longitude.rawValue] }
    var accuracy: ValueSlot { self[index: JSONLineScanner.Field.accuracy.rawValue] }
}

/// One pass over a line that validates it as a single JSON document exactly as orjson 3.8.3
/// (yyjson inside) accepts or refuses it, and notes where the record's own fields are.
///
/// The grammar is strict RFC 8259: white space is space, tab, LF and CR only; no comments,
/// trailing commas, NaN/Infinity, BOM, leading zeros or `+`; control characters below 0x20 are
/// refused in strings; escapes are the eight short ones and `\uXXXX`, where a high surrogate
/// must be followed at once by an escaped low one and a lone low surrogate is refused. Beyond
/// the grammar, a number whose value rounds to infinity as a double is refused anywhere in the
/// document (yyjson's "number is infinity when parsed as double"). Nesting depth is unbounded
/// (iterative, no recursion). String contents are checked to be strict UTF-8 on the way, so a
/// line the scanner accepts is valid UTF-8 throughout.
///
/// Bytes past the end read as NUL, which no grammar rule accepts, so the end needs no separate
/// test on most paths.
struct JSONLineScanner {
    let p: UnsafePointer<UInt8>
    let n: Int

    enum Result {
        /// A valid document whose top-level value is an object.
        case object(RecordSlots, closingBrace: Int)
        /// A valid document that is not an object.
        case notAnObject
        /// Not one valid JSON document (the caller then tells invalid UTF-8 from invalid JSON).
        case invalid
    }

    /// What ``scanLine(into:)`` found.
    enum Shape {
        /// A valid document whose top-level value is an object, its fields in the slots.
        case object(closingBrace: Int)
        /// A valid document that is not an object.
        case notAnObject
        /// Not one valid JSON document.
        case invalid
    }

    @inline(__always) func at(_ i: Int) -> UInt8 { i < n ? p[i] : 0 }

    @inline(__always) func skipWhitespace(_ start: Int) -> Int {
        var i = start
        while i < n {
            let c = p[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
            i += 1
        }
        return i
    }

    // MARK: The line

    /// Scans the line; see ``scanLine(into:)``.
    func scanLine() -> Result {
        var slots = RecordSlots()
        switch scanLine(into: &slots) {
        case .object(let closingBrace): return .object(slots, closingBrace: closingBrace)
        case .notAnObject: return .notAnObject
        case .invalid: return .invalid
        }
    }

    /// Scans the line, noting the record's fields in `slots` (which must come empty, as
    /// `RecordSlots()`). The parser's slots are filled in place: returned in a ``Result``, they
    /// were 224 bytes copied twice on the way to the checks (`memcpy`, about 90 instructions a
    /// line of the benchmark stream, callgrind).
    func scanLine(into slots: inout RecordSlots) -> Shape {
        var i = skipWhitespace(0)
        guard at(i) == UInt8(ascii: "{") else {
            let end = at(i) == UInt8(ascii: "[") ? skipNested(i) : scanScalar(i)
            guard end >= 0, skipWhitespace(end) == n else { return .invalid }
            return .notAnObject
        }
        let closingBrace: Int
        i = skipWhitespace(i + 1)
        if at(i) == UInt8(ascii: "}") {
            closingBrace = i
        } else {
            while true {
                guard at(i) == UInt8(ascii: "\"") else { return .invalid }
                var keyEscaped = false
                let keyEnd = scanString(i, escaped: &keyEscaped)
                guard keyEnd >= 0 else { return .invalid }
                let field = identifyKey(start: i + 1, end: keyEnd, escaped: keyEscaped)
                i = skipWhitespace(keyEnd + 1)
                guard at(i) == UInt8(ascii: ":") else { return .invalid }
                i = skipWhitespace(i + 1)

                var slot = ValueSlot()
                switch at(i) {
                case UInt8(ascii: "\""):
                    var escaped = false
                    let close = scanString(i, escaped: &escaped)
                    guard close >= 0 else { return .invalid }
                    slot = ValueSlot(kind: .string, start: i + 1, end: close, flag: escaped)
                    i = close + 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    slot.kind = at(i) == UInt8(ascii: "{") ? .object : .array
                    i = skipNested(i)
                case UInt8(ascii: "t"):
                    slot.kind = .trueLiteral
                    i = scanLiteral(i, "true")
                case UInt8(ascii: "f"):
                    slot.kind = .falseLiteral
                    i = scanLiteral(i, "false")
                case UInt8(ascii: "n"):
                    slot.kind = .null
                    i = scanLiteral(i, "null")
                default:
                    var integerSyntax = false
                    let end = scanNumber(i, integerSyntax: &integerSyntax)
                    slot = ValueSlot(kind: .number, start: i, end: end, flag: integerSyntax)
                    i = end
                }
                guard i >= 0 else { return .invalid }
                slots[index: field?.rawValue ?? RecordSlots.otherKey] = slot
                i = skipWhitespace(i)
                if at(i) == UInt8(ascii: ",") {
                    i = skipWhitespace(i + 1)
                    continue
                }
                guard at(i) == UInt8(ascii: "}") else { return .invalid }
                closingBrace = i
                break
            }
        }
        guard skipWhitespace(closingBrace + 1) == n else { return .invalid }
        return .object(closingBrace: closingBrace)
    }

    // MARK: Keys

    /// The record's fields, by their slot in ``RecordSlots``.
    enum Field: Int { case type, sessionID, timestamp, consent, latitude, longitude, accuracy }

    /// Which of the record's fields a key names (after decoding its escapes), if any.
    @inline(__always)
    func identifyKey(start: Int, end: Int, escaped: Bool) -> Field? {
        if escaped { return identifyEscapedKey(start: start, end: end) }
        return Self.field(named: UnsafeBufferPointer(start: p + start, count: end - start))
    }

    /// ``identifyKey(start:end:escaped:)`` of a key with escapes, out of the line's path.
    @inline(never)
    func identifyEscapedKey(start: Int, end: Int) -> Field? {
        let decoded = decodeString(start: start, end: end)
        return decoded.withUnsafeBufferPointer { Self.field(named: $0) }
    }

    /// Which of the record's fields a key's bytes (escapes decoded) name, if any.
    ///
    /// Compared a word at a time: the key's first and last 4 or 8 bytes (overlapping when it is
    /// shorter than two words) against the names' bytes, read as little-endian integers
    /// (``KeyWords``). Byte by byte, this was 17 instructions a key, 220 a line.
    @inline(__always)
    static func field(named key: UnsafeBufferPointer<UInt8>) -> Field? {
        guard let base = key.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        @inline(__always) func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
        @inline(__always) func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
        switch key.count {
        case 4:
            return u32(0) == KeyWords.type ? .type : nil
        case 7:
            return u32(0) == KeyWords.consentHead && u32(3) == KeyWords.consentTail ? .consent : nil
        case 8:
            let w = u64(0)
            return w == KeyWords.latitude ? .latitude : w == KeyWords.accuracy ? .accuracy : nil
        case 9:
            let head = u64(0), tail = u64(1)
            if head == KeyWords.timestampHead && tail == KeyWords.timestampTail { return .timestamp }
            return head == KeyWords.longitudeHead && tail == KeyWords.longitudeTail ? .longitude : nil
        case 10:
            return u64(0) == KeyWords.sessionIDHead && u64(2) == KeyWords.sessionIDTail ? .sessionID : nil
        default:
            return nil
        }
    }

    /// The record's key names as the little-endian words ``field(named:)`` compares: `Head` the
    /// first 4 or 8 bytes, `Tail` the last ones. Written out, not computed from the strings, so
    /// that they are constants in the comparison; `JSONLineScannerTests` checks that each name is
    /// recognised and that no key one byte from it is.
    enum KeyWords {
        static let type: UInt32 = 0x6570_7974                      // "type"
        static let consentHead: UInt32 = 0x736E_6F63               // "cons"
        static let consentTail: UInt32 = 0x746E_6573               // "sent"
        static let latitude: UInt64 = 0x6564_7574_6974_616C        // "latitude"
        static let accuracy: UInt64 = 0x7963_6172_7563_6361        // "accuracy"
        static let timestampHead: UInt64 = 0x6D61_7473_656D_6974   // "timestam"
        static let timestampTail: UInt64 = 0x706D_6174_7365_6D69   // "imestamp"
        static let longitudeHead: UInt64 = 0x6475_7469_676E_6F6C   // "longitud"
        static let longitudeTail: UInt64 = 0x6564_7574_6967_6E6F   // "ongitude"
        static let sessionIDHead: UInt64 = 0x5F6E_6F69_7373_6573   // "session_"
        static let sessionIDTail: UInt64 = 0x6469_5F6E_6F69_7373   // "ssion_id"
    }

    /// Byte equality of `bytes` and an ASCII literal.
    ///
    /// A literal of 4 to 8 bytes (every one the checks compare: `location`, `optIn`, `batch`, …)
    /// is compared as two overlapping 4-byte words, the literal's folded to constants once
    /// inlined; byte by byte, in a call of its own, the `"type"` check was about 55
    /// instructions a line of the benchmark stream (callgrind).
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard bytes.count == n else { return false }
        let q = literal.utf8Start
        if n >= 4 && n <= 8, let b = bytes.baseAddress {
            @inline(__always) func u32(_ p: UnsafePointer<UInt8>, _ o: Int) -> UInt32 {
                UnsafeRawPointer(p + o).loadUnaligned(as: UInt32.self)
            }
            return u32(b, 0) == u32(q, 0) && u32(b, n - 4) == u32(q, n - 4)
        }
        for k in 0..<n where bytes[k] != q[k] { return false }
        return true
    }

    // MARK: Values

    /// Skips a scalar (string, number, literal) at `i`; returns the index after it or -1.
    func scanScalar(_ i: Int) -> Int {
        switch at(i) {
        case UInt8(ascii: "\""):
            var escaped = false
            let close = scanString(i, escaped: &escaped)
            return close < 0 ? -1 : close + 1
        case UInt8(ascii: "t"): return scanLiteral(i, "true")
        case UInt8(ascii: "f"): return scanLiteral(i, "false")
        case UInt8(ascii: "n"): return scanLiteral(i, "null")
        default:
            var integerSyntax = false
            return scanNumber(i, integerSyntax: &integerSyntax)
        }
    }

    @inline(__always)
    func scanLiteral(_ i: Int, _ literal: StaticString) -> Int {
        let count = literal.utf8CodeUnitCount
        guard i + count <= n else { return -1 }
        let q = literal.utf8Start
        for k in 1..<count where p[i + k] != q[k] { return -1 }
        return i + count
    }

    /// Skips the object or array opening at `start`, however deep, without recursion.
    /// Returns the index after its closing bracket, or -1.
    func skipNested(_ start: Int) -> Int {
        if p[start] == UInt8(ascii: "{"), let end = skipFlatObject(start) { return end }
        return skipNestedInGeneral(start)
    }

    /// ``skipNested(_:)`` of an object whose values are all scalars (an event's `data` in the
    /// benchmark stream), member after member without the general walk's states and stack:
    /// the index after its closing brace; `nil` for anything else (a nested container, or a
    /// grammar error), which the general walk then decides. It applies the same checks, so
    /// where it answers, the general walk answers the same. (The general walk was about 400
    /// instructions an event's `data`, callgrind.)
    @inline(__always)
    func skipFlatObject(_ start: Int) -> Int? {
        var i = skipWhitespace(start + 1)
        if at(i) == UInt8(ascii: "}") { return i + 1 }
        while true {
            guard at(i) == UInt8(ascii: "\"") else { return nil }
            var escaped = false
            let close = scanString(i, escaped: &escaped)
            guard close >= 0 else { return nil }
            i = skipWhitespace(close + 1)
            guard at(i) == UInt8(ascii: ":") else { return nil }
            i = skipWhitespace(i + 1)
            let c = at(i)
            guard c != UInt8(ascii: "{") && c != UInt8(ascii: "[") else { return nil }
            i = scanScalar(i)
            guard i >= 0 else { return nil }
            i = skipWhitespace(i)
            if at(i) == UInt8(ascii: ",") {
                i = skipWhitespace(i + 1)
                continue
            }
            guard at(i) == UInt8(ascii: "}") else { return nil }
            return i + 1
        }
    }

    /// ``skipNested(_:)`` for any container: a walk with an explicit stack.
    func skipNestedInGeneral(_ start: Int) -> Int {
        enum State { case open, member, afterValue }
        var stack = NestingStack()
        var state = State.open
        var i = start
        while true {
            switch state {
            case .open:
                let isObject = p[i] == UInt8(ascii: "{")
                stack.push(isObject: isObject)
                i = skipWhitespace(i + 1)
                if at(i) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    stack.pop()
                    state = .afterValue
                } else {
                    state = .member
                }
            case .member:
                if stack.topIsObject {
                    guard at(i) == UInt8(ascii: "\"") else { return -1 }
                    var escaped = false
                    let close = scanString(i, escaped: &escaped)
                    guard close >= 0 else { return -1 }
                    i = skipWhitespace(close + 1)
                    guard at(i) == UInt8(ascii: ":") else { return -1 }
                    i = skipWhitespace(i + 1)
                }
                let c = at(i)
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    state = .open
                } else {
                    i = scanScalar(i)
                    guard i >= 0 else { return -1 }
                    state = .afterValue
                }
            case .afterValue:
                if stack.isEmpty { return i }
                i = skipWhitespace(i)
                let c = at(i)
                if c == UInt8(ascii: ",") {
                    i = skipWhitespace(i + 1)
                    state = .member
                } else if c == (stack.topIsObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    stack.pop()
                } else {
                    return -1
                }
            }
        }
    }

    // MARK: Strings

    /// Checks the string whose opening quote is at `start`; returns the index of its closing
    /// quote, or -1. Sets `escaped` when the string holds a backslash escape.
    ///
    /// Inlined for the common string, plain ASCII up to its closing quote (every key and
    /// nearly every value of a record): found by the word test alone, without a call. The
    /// first other byte (an escape, a control or a non-ASCII byte) hands over to
    /// ``scanStringRest(_:escaped:)``. A call per string was 40 instructions of it, 860 a
    /// line of the benchmark stream (callgrind, `enrich` on 100,000 lines).
    ///
    /// - Complexity: O(length), eight plain bytes per step.
    @inline(__always)
    func scanString(_ start: Int, escaped: inout Bool) -> Int {
        let j = plainBytesEnd(from: start + 1)
        // every byte before j is plain, so a quote at j closes the string
        if j < n && p[j] == UInt8(ascii: "\"") { return j }
        return scanStringRest(j, escaped: &escaped)
    }

    /// The first index from `start` on whose byte is not plain (`"`, `\`, control or non-ASCII),
    /// or, when none is found sixteen (on x86-64) and eight bytes at a time, the first of the
    /// last seven or fewer bytes (not checked).
    @inline(__always)
    func plainBytesEnd(from start: Int) -> Int {
        var j = start
        #if arch(x86_64)
        // SSE2, which every x86-64 processor has, inlined from CJSONSkim's header
        while j &+ 16 <= n {
            let mask = geo_json_string_specials16(p + j)
            if mask != 0 { return j &+ mask.trailingZeroBitCount }
            j &+= 16
        }
        #endif
        while j &+ 8 <= n {
            let mask = Self.specialBytes(word(at: j))
            if mask != 0 { return j &+ mask.trailingZeroBitCount >> 3 }
            j &+= 8
        }
        return j
    }

    /// The eight bytes from `i` (`i + 8 <= n`) as a little-endian word.
    @inline(__always) func word(at i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte of `w` that is `"`, `\`, a control byte or non-ASCII, and
    /// possibly of plain bytes above the lowest such byte: the lowest flagged byte is exact
    /// (borrows only run upwards).
    @inline(__always) static func specialBytes(_ w: UInt64) -> UInt64 {
        let special = zeroBytes(w ^ 0x2222_2222_2222_2222)      // '"'
            | zeroBytes(w ^ 0x5C5C_5C5C_5C5C_5C5C)              // '\'
            | ((w &- 0x2020_2020_2020_2020) & ~w)               // < 0x20 (and, harmlessly, more)
            | w                                                 // >= 0x80
        return special & 0x8080_8080_8080_8080
    }

    /// ``scanString(_:escaped:)`` from `j`, a byte inside the string not yet checked.
    func scanStringRest(_ j: Int, escaped: inout Bool) -> Int {
        var j = j
        while true {
            j = plainBytesEnd(from: j)
            guard j < n else { return -1 }
            let c = p[j]
            if c == UInt8(ascii: "\"") { return j }
            if c == UInt8(ascii: "\\") {
                escaped = true
                switch at(j + 1) {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    j += 2
                case UInt8(ascii: "u"):
                    let unit = hex4(j + 2)
                    if unit < 0 { return -1 }
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        // A high surrogate needs an escaped low surrogate right after it.
                        guard at(j + 6) == UInt8(ascii: "\\"), at(j + 7) == UInt8(ascii: "u") else { return -1 }
                        let low = hex4(j + 8)
                        guard low >= 0xDC00 && low <= 0xDFFF else { return -1 }
                        j += 12
                    } else if unit >= 0xDC00 && unit <= 0xDFFF {
                        return -1
                    } else {
                        j += 6
                    }
                default:
                    return -1
                }
            } else if c < 0x20 {
                return -1
            } else if c >= 0x80 {
                let length = UTF8Validation.sequenceLength(p, at: j, end: n)
                if length == 0 { return -1 }
                j += length
            } else {
                j += 1  // a false positive of the word test (0x20...0x7F above a flagged byte)
            }
        }
    }

    /// Bytes of `x` that are zero get their high bit set (exact for the lowest one).
    @inline(__always) static func zeroBytes(_ x: UInt64) -> UInt64 {
        (x &- 0x0101_0101_0101_0101) & ~x
    }

    /// The value of four hex digits at `i`, or -1.
    @inline(__always) func hex4(_ i: Int) -> Int {
        var value = 0
        for k in 0..<4 {
            let c = at(i + k)
            let digit: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(c) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(c) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(c) - 55
            default: return -1
            }
            value = value << 4 | digit
        }
        return value
    }

    /// The UTF-8 bytes of a checked string's contents (`start..<end`, quotes excluded), escapes resolved.
    func decodeString(start: Int, end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var j = start
        while j < end {
            let c = p[j]
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                j += 1
                continue
            }
            let e = p[j + 1]
            j += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hex4(j))
                j += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = UInt32(hex4(j + 2))
                    j += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                Self.appendUTF8(scalar, to: &out)
            default: out.append(e)  // '"', '\', '/'
            }
        }
        return out
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers

    /// Checks the number at `start` (RFC 8259 grammar, and finite as a double); returns the
    /// index after it, or -1. Sets `integerSyntax` when it has neither fraction nor exponent.
    ///
    /// The usual number is ``scanWindowNumber(_:integerSyntax:)``'s; any other, a byte or a run
    /// of digits at a time (`shortcut: false` takes this way for every number, for the tests).
    @inline(__always)
    func scanNumber(_ start: Int, integerSyntax: inout Bool, shortcut: Bool = true) -> Int {
        if shortcut, let end = scanWindowNumber(start, integerSyntax: &integerSyntax) { return end }
        return scanAnyNumber(start, integerSyntax: &integerSyntax)
    }

    /// ``scanNumber(_:integerSyntax:)`` of a number that ends, with the byte after it, in the
    /// sixteen bytes from its first digit: `-?d+(.d+)?` without an exponent, its digits found
    /// in one vector compare (``CJSONSkim/geo_json_digits16``). Nil, for the general scan to
    /// decide, for anything else (a leading zero, a lone sign or point, an exponent, a longer
    /// number) and in a line under 16 bytes.
    ///
    /// Where it answers, the general path answers the same: the digits it counts are all there
    /// are (the byte after each run is in the window and not a digit), and fifteen digits or
    /// fewer in all cannot overflow. The word-at-a-time scan it replaced (eight bytes a word,
    /// the whole part's digits counted in one word or two, the fraction's in the next) was
    /// about 80 instructions a number with its call (callgrind, the benchmark stream's 3.5
    /// numbers a line, 285 instructions a line in all); this one, about 25, inlined where the
    /// layouts scan a line's values.
    @inline(__always)
    func scanWindowNumber(_ start: Int, integerSyntax: inout Bool) -> Int? {
        let i = at(start) == UInt8(ascii: "-") ? start &+ 1 : start
        let digits: UInt32
        if i &+ 16 <= n {
            digits = UInt32(geo_json_digits16(p + i))
        } else {
            // near the end, the line's last sixteen bytes, shifted down: the places past the
            // end come in as zeros, not digits, and their byte is `at`'s NUL, as the general
            // path reads it (the last number of a line, an accuracy or a price, ends there)
            guard n >= 16, i < n else { return nil }
            digits = UInt32(geo_json_digits16(p + (n &- 16))) >> UInt32(i &- (n &- 16))
        }
        // 1 to 15 digits, and the byte after them in the window (bit 16 up of ~digits is set)
        let whole = (~digits).trailingZeroBitCount
        guard whole >= 1, whole < 16, whole == 1 || p[i] != UInt8(ascii: "0") else { return nil }
        let next = at(i &+ whole)
        if next != UInt8(ascii: ".") {
            guard next | 0x20 != UInt8(ascii: "e") else { return nil }
            integerSyntax = true
            return i &+ whole
        }
        let f = whole &+ 1
        let fraction = (~(digits >> UInt32(f))).trailingZeroBitCount
        guard fraction >= 1, f &+ fraction < 16, at(i &+ f &+ fraction) | 0x20 != UInt8(ascii: "e") else { return nil }
        integerSyntax = false
        return i &+ f &+ fraction
    }

    /// ``scanNumber(_:integerSyntax:shortcut:)`` of any number, a byte or a run of digits at a
    /// time: out of line, so that the usual number's scan is inlined where values are scanned.
    @inline(never)
    func scanAnyNumber(_ start: Int, integerSyntax: inout Bool) -> Int {
        var i = start
        if at(i) == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        let first = at(i)
        if first == UInt8(ascii: "0") {
            i += 1
            if Self.isDigit(at(i)) { return -1 }  // leading zero
        } else if Self.isDigit(first) {
            i = digitsEnd(i + 1)
        } else {
            return -1
        }
        let integerEnd = i
        var fractionStart = i
        var fractionEnd = i
        if at(i) == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            guard Self.isDigit(at(i)) else { return -1 }
            i = digitsEnd(i + 1)
            fractionEnd = i
        }
        var exponentNegative = false
        var exponentStart = i
        var exponentEnd = i
        if at(i) | 0x20 == UInt8(ascii: "e") {
            i += 1
            let sign = at(i)
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                i += 1
            }
            exponentStart = i
            guard Self.isDigit(at(i)) else { return -1 }
            i = digitsEnd(i + 1)
            exponentEnd = i
        }
        integerSyntax = fractionEnd == integerEnd && exponentEnd == integerEnd
        // Below 10^308 nothing can overflow; only long integer parts or exponents need a look.
        if integerEnd - integerStart > 308 || exponentEnd > exponentStart {
            if overflowsDouble(integerStart: integerStart, integerEnd: integerEnd,
                               fractionStart: fractionStart, fractionEnd: fractionEnd,
                               exponentNegative: exponentNegative, exponentStart: exponentStart,
                               exponentEnd: exponentEnd) { return -1 }
        }
        return i
    }

    /// Whether a number with an exponent or a long integer part rounds to infinity: out of
    /// ``scanNumber(_:integerSyntax:)``'s inlined body (rare in records).
    @inline(never)
    func overflowsDouble(integerStart: Int, integerEnd: Int, fractionStart: Int, fractionEnd: Int,
                         exponentNegative: Bool, exponentStart: Int, exponentEnd: Int) -> Bool {
        DecimalDigits(p: p, integerStart: integerStart, integerEnd: integerEnd,
                      fractionStart: fractionStart, fractionEnd: fractionEnd,
                      exponentNegative: exponentNegative,
                      exponentStart: exponentStart, exponentEnd: exponentEnd).overflowsDouble
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- 48 < 10 }

    /// The index of the first byte from `start` on that is not an ASCII digit (or `n`).
    ///
    /// Eight bytes a step: a byte is a digit when its high nibble is 3 and its low nibble plus 6
    /// does not reach 16; neither test carries into the next byte, so the lowest flagged byte
    /// is the first non-digit. (The stream's numbers are short, 4.5 a line: this saved 2 % of
    /// the number scan's instructions there; long integers and 17-digit coordinates gain more.)
    @inline(__always) func digitsEnd(_ start: Int) -> Int {
        var i = start
        while i + 8 <= n {
            let w = word(at: i)
            let nonDigits = ((w & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
                | (((w & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0)
            if nonDigits != 0 { return i + nonDigits.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n && Self.isDigit(p[i]) { i += 1 }
        return i
    }
}

/// Which open containers are objects, innermost last; inline up to 64 levels.
struct NestingStack {
    private(set) var depth = 0
    private var inline: UInt64 = 0
    private var spilled: [UInt64] = []

    var isEmpty: Bool { depth == 0 }

    @inline(__always) mutating func push(isObject: Bool) {
        let level = depth
        depth += 1
        let bit = UInt64(1) << UInt64(level & 63)
        if level < 64 {
            inline = isObject ? inline | bit : inline & ~bit
            return
        }
        let word = level / 64 - 1
        if word == spilled.count { spilled.append(0) }
        spilled[word] = isObject ? spilled[word] | bit : spilled[word] & ~bit
    }

    @inline(__always) mutating func pop() { depth -= 1 }

    @inline(__always) var topIsObject: Bool {
        let level = depth - 1
        let word = level < 64 ? inline : spilled[level / 64 - 1]
        return word >> UInt64(level & 63) & 1 == 1
    }
}
