import Foundation

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

    /// The top-level member names of a JSON object body, or `nil` when the body is not one (the
    /// record parser then says what is wrong with it, in its own words).
    static func memberNames(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any]
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
        guard let members = memberNames(body), let close = line.lastIndex(where: { !isSpace($0) }),
              line[close] == UInt8(ascii: "}") else {
            return .line(line)  // not an object: the parser's reason (invalid_json, not_an_object, …)
        }
        if requireLocation && members["latitude"] == nil && members["longitude"] == nil {
            return .refused(reason: "missing_location")
        }
        var added: [UInt8] = []
        if let session {
            if let own = members["session_id"] {
                guard let own = own as? String, own == session else { return .refused(reason: "session_id_mismatch") }
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
