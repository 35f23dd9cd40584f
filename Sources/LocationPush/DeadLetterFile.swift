/// The dead-letter file: one JSON object per undelivered update,
/// `{"session_id":"…","body":"<the PUT body, as a JSON string>","reason":"…","attempts":N}`;
/// the body is kept as a string so that a replay sends exactly the same bytes. A geofence
/// transition's letter (the webhook's POST body) ends with `"kind":"geofence_transition"`, so
/// that a replay never sends it as a location or a location as a transition.
public enum DeadLetterFile {
    /// The `kind` of a geofence transition's dead letter.
    public static let geofenceTransitionKind = "geofence_transition"

    /// The NDJSON line (with its `\n`) of a dead letter.
    /// - Parameter kind: what the body is, when not a location update (``geofenceTransitionKind``).
    public static func line(_ letter: DeadLetter, kind: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out += #"{"session_id":"#.utf8
        appendString(Array(letter.session.rawValue.utf8), to: &out)
        out += #","body":"#.utf8
        appendString(letter.body, to: &out)
        out += #","reason":"#.utf8
        appendString(Array(letter.reason.utf8), to: &out)
        out += #","attempts":"#.utf8
        out += String(letter.attempts).utf8
        if let kind {
            out += #","kind":"#.utf8
            appendString(Array(kind.utf8), to: &out)
        }
        out += "}\n".utf8
        return out
    }

    /// A JSON string of UTF-8 text: `"` and `\` escaped, control characters as `\u00xx`.
    static func appendString(_ bytes: [UInt8], to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case ..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
