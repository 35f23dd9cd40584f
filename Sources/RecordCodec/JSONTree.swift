/// A JSON value of a line the scanner has already accepted, with the byte ranges of its parts:
/// what the SDK formats need to find nested fields (`location.latitude`, `batch_info[i]`) and to
/// splice text into the right object without re-encoding anything.
indirect enum JSONTree {
    /// `open` is the `{`, `close` the `}`; members in order (a repeated key: the last wins).
    case object(open: Int, close: Int, members: [Member])
    /// `open` is the `[`, `close` the `]`.
    case array(open: Int, close: Int, elements: [JSONTree])
    /// `start..<end` is the text between the quotes; `escaped` when it holds a backslash.
    case string(start: Int, end: Int, escaped: Bool)
    /// `start..<end` is the number's text.
    case number(start: Int, end: Int, integerSyntax: Bool)
    case trueLiteral(start: Int)
    case falseLiteral(start: Int)
    case null(start: Int)

    struct Member {
        /// The key, decoded.
        let key: [UInt8]
        let value: JSONTree
    }

    /// The value's first byte.
    var start: Int {
        switch self {
        case .object(let open, _, _), .array(let open, _, _): open
        case .string(let start, _, _): start - 1
        case .number(let start, _, _): start
        case .trueLiteral(let s), .falseLiteral(let s), .null(let s): s
        }
    }

    /// One past the value's last byte.
    var end: Int {
        switch self {
        case .object(_, let close, _), .array(_, let close, _): close + 1
        case .string(_, let end, _): end + 1
        case .number(_, let end, _): end
        case .trueLiteral(let s): s + 4
        case .falseLiteral(let s): s + 5
        case .null(let s): s + 4
        }
    }

    /// An object's member value for `key` (the last one, as orjson keeps), or `nil`.
    func member(_ key: StaticString) -> JSONTree? {
        guard case .object(_, _, let members) = self else { return nil }
        let k = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        for m in members.reversed() where m.key.elementsEqual(k) { return m.value }
        return nil
    }

    /// The deepest nesting the tree is built for; deeper values are refused by the caller
    /// (orjson itself accepts any depth, but no SDK payload nests this deep).
    static let depthLimit = 512

    /// Builds the tree of the value at `i` (after white space) of an accepted line.
    /// - Returns: the tree and the index after it, or `nil` past ``depthLimit``.
    static func build(_ s: JSONLineScanner, at i: Int, depth: Int = 0) -> (JSONTree, Int)? {
        guard depth < depthLimit else { return nil }
        var i = s.skipWhitespace(i)
        switch s.at(i) {
        case UInt8(ascii: "{"):
            let open = i
            var members: [Member] = []
            i = s.skipWhitespace(i + 1)
            if s.at(i) == UInt8(ascii: "}") { return (.object(open: open, close: i, members: []), i + 1) }
            while true {
                var escaped = false
                let keyEnd = s.scanString(i, escaped: &escaped)
                let key = escaped ? s.decodeString(start: i + 1, end: keyEnd)
                    : Array(UnsafeBufferPointer(start: s.p + i + 1, count: keyEnd - i - 1))
                i = s.skipWhitespace(keyEnd + 1) + 1  // past ':'
                guard let (value, next) = build(s, at: i, depth: depth + 1) else { return nil }
                members.append(Member(key: key, value: value))
                i = s.skipWhitespace(next)
                if s.at(i) == UInt8(ascii: ",") { i = s.skipWhitespace(i + 1); continue }
                return (.object(open: open, close: i, members: members), i + 1)
            }
        case UInt8(ascii: "["):
            let open = i
            var elements: [JSONTree] = []
            i = s.skipWhitespace(i + 1)
            if s.at(i) == UInt8(ascii: "]") { return (.array(open: open, close: i, elements: []), i + 1) }
            while true {
                guard let (value, next) = build(s, at: i, depth: depth + 1) else { return nil }
                elements.append(value)
                i = s.skipWhitespace(next)
                if s.at(i) == UInt8(ascii: ",") { i = s.skipWhitespace(i + 1); continue }
                return (.array(open: open, close: i, elements: elements), i + 1)
            }
        case UInt8(ascii: "\""):
            var escaped = false
            let close = s.scanString(i, escaped: &escaped)
            return (.string(start: i + 1, end: close, escaped: escaped), close + 1)
        case UInt8(ascii: "t"): return (.trueLiteral(start: i), i + 4)
        case UInt8(ascii: "f"): return (.falseLiteral(start: i), i + 5)
        case UInt8(ascii: "n"): return (.null(start: i), i + 4)
        default:
            var integerSyntax = false
            let end = s.scanNumber(i, integerSyntax: &integerSyntax)
            return (.number(start: i, end: end, integerSyntax: integerSyntax), end)
        }
    }
}
