/// A string as a JSON string literal, as orjson (and Python's `json.dumps(ensure_ascii=False)`)
/// writes it: `"` and `\` escaped, the control characters below U+0020 as `\n`, `\r`, `\t`,
/// `\b`, `\f` or `\u00XX`, everything else (non-ASCII included) as its UTF-8 bytes. For values
/// that come from users (geofence ids) and go into JSON output.
public enum JSONString {
    /// ``quoted(_:)``'s UTF-8 bytes. A string with nothing to escape (no control character,
    /// quote or backslash: most ids) is copied between its quotes in one allocation; going
    /// through ``quoted(_:)``'s scalar by scalar appends was 6 % of loading 100,000 fences
    /// (perf), on the one thread.
    public static func quotedBytes(_ s: String) -> [UInt8] {
        let utf8 = s.utf8
        guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return Array(quoted(s).utf8)
        }
        return [UInt8](unsafeUninitializedCapacity: utf8.count + 2) { out, count in
            out[0] = UInt8(ascii: "\"")
            count = 1
            for b in utf8 { out[count] = b; count += 1 }
            out[count] = UInt8(ascii: "\"")
            count += 1
        }
    }

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
