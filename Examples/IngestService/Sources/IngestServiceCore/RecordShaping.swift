/// Turns a request body into the record line that `geo-enrich enrich --format mobiletracker`
/// reads: the body's own bytes, with what the request says elsewhere added as members before
/// its final `}` (the session of a location update's path; the time of receipt when the body has
/// no `timestamp`). Everything else is kept byte for byte, as the engine keeps it.
enum RecordShaping {
    /// What a body became.
    enum Shaped {
        /// The line to enrich.
        case line([UInt8])
        /// The body is refused before the engine sees it, for `reason`.
        case refused(reason: String)
    }

    /// The top-level members of a JSON object body, each name with its value's bytes, or `nil`
    /// when the body is not an object (the record parser then says what is wrong with it, in its
    /// own words). A scan, not a parse: it skips values without reading them (the engine's
    /// parser reads them), so it costs a pass over the bytes; Foundation's JSONSerialization
    /// here took 7 % of the service's CPU under load. Names are compared as written (an escaped
    /// name is another name).
    static func members(_ body: [UInt8]) -> [String: ArraySlice<UInt8>]? {
        var i = 0
        func skipSpace() { while i < body.count && isSpace(body[i]) { i += 1 } }
        /// Moves past the string starting at `i` (its opening quote); false when it does not end.
        func skipString() -> Bool {
            i += 1
            while i < body.count {
                switch body[i] {
                case UInt8(ascii: "\\"): i += 2
                case UInt8(ascii: "\""): i += 1; return true
                default: i += 1
                }
            }
            return false
        }
        /// Moves past the value starting at `i`; false when it does not end.
        func skipValue() -> Bool {
            guard i < body.count else { return false }
            switch body[i] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < body.count {
                    switch body[i] {
                    case UInt8(ascii: "\""): if !skipString() { return false }; continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; return true }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                while i < body.count && !isSpace(body[i]) && body[i] != UInt8(ascii: ",") && body[i] != UInt8(ascii: "}") { i += 1 }
                return true
            }
        }
        skipSpace()
        guard i < body.count, body[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var found: [String: ArraySlice<UInt8>] = [:]
        skipSpace()
        if i < body.count && body[i] == UInt8(ascii: "}") { return found }
        while true {
            skipSpace()
            guard i < body.count, body[i] == UInt8(ascii: "\"") else { return nil }
            let nameStart = i + 1
            guard skipString() else { return nil }
            let name = String(decoding: body[nameStart..<(i - 1)], as: UTF8.self)
            skipSpace()
            guard i < body.count, body[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            let valueStart = i
            guard skipValue() else { return nil }
            found[name] = body[valueStart..<i]
            skipSpace()
            guard i < body.count else { return nil }
            if body[i] == UInt8(ascii: "}") { return found }
            guard body[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    /// The record line for `body`.
    ///
    /// - Parameters:
    ///   - body: the request body.
    ///   - session: the session the request's path names (a location update), if any.
    ///   - receivedAt: the time of receipt, in epoch milliseconds, used when the body has no
    ///     `timestamp`.
    ///   - requireLocation: refuse a body without `latitude` and `longitude` (a location update).
    static func shape(_ body: [UInt8], session: String?, receivedAt: Int64, requireLocation: Bool) -> Shaped {
        // line ends can only be white space between tokens in JSON (inside a string they are
        // escaped), so they become spaces: the record stays one NDJSON line
        var line = body.map { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0 }
        guard let members = members(body), let close = line.lastIndex(where: { !isSpace($0) }),
              line[close] == UInt8(ascii: "}") else {
            return .line(line)  // not an object: the parser's reason (invalid_json, not_an_object, …)
        }
        if requireLocation && members["latitude"] == nil && members["longitude"] == nil {
            return .refused(reason: "missing_location")
        }
        var added: [UInt8] = []
        if let session {
            if let own = members["session_id"] {
                var quoted: [UInt8] = []
                appendJSONString(session, to: &quoted)
                guard Array(own) == quoted else { return .refused(reason: "session_id_mismatch") }
            } else {
                added += #""session_id":"#.utf8
                appendJSONString(session, to: &added)
            }
        }
        if members["timestamp"] == nil {
            if !added.isEmpty { added.append(UInt8(ascii: ",")) }
            added += #""timestamp":\#(receivedAt)"#.utf8
        }
        guard !added.isEmpty else { return .line(line) }
        let isEmptyObject = members.isEmpty
        line.replaceSubrange(close..<close, with: (isEmptyObject ? [] : [UInt8(ascii: ",")]) + added)
        return .line(line)
    }

    static func isSpace(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
    }
}

/// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`.
func appendJSONString(_ text: String, to out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for b in text.utf8 {
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            out.append(UInt8(ascii: "\\"))
            out.append(b)
        case 0..<0x20:
            out += Array(#"\u00"#.utf8)
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        default:
            out.append(b)
        }
    }
    out.append(UInt8(ascii: "\""))
}
