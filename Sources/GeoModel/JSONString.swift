/// A string as a JSON string literal, as orjson (and Python's `json.dumps(ensure_ascii=False)`)
/// writes it: `"` and `\` escaped, the control characters below U+0020 as `\n`, `\r`, `\t`,
/// `\b`, `\f` or `\u00XX`, everything else (non-ASCII included) as its UTF-8 bytes. For values
/// that come from users (geofence ids) and go into JSON output.
public enum JSONString {
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }
}
