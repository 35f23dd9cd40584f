/// The error-output line for a bad input line, byte for byte as Python's
/// `orjson.dumps({"line": n, "reason": code, "raw": text})` writes it, where `text` is the line's
/// first ``RecordParser/maximumLineLength`` bytes decoded as UTF-8 with each invalid sequence
/// replaced by U+FFFD (Python's `errors="replace"`).
public enum BadLineReport {
    /// Appends the report (without a line terminator) to `output`.
    ///
    /// - Parameters:
    ///   - line: the line's number in its input, from 1.
    ///   - file: the input's name, written as `"file"` after `"line"` when given (when not, the
    ///     report has only `line`, `reason` and `raw`).
    ///   - reason: why the line is bad.
    ///   - raw: the line's bytes without terminator (only the first
    ///     ``RecordParser/maximumLineLength`` are written).
    ///   - output: the buffer to append to.
    /// - Complexity: O(n) in the line's length.
    public static func append(line: Int, file: String? = nil, reason: BadLineReason,
                              raw: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let kept = UnsafeBufferPointer(rebasing: raw[..<min(raw.count, RecordParser.maximumLineLength)])
        let text = String(decoding: kept, as: UTF8.self)
        var fileBytes = 0
        if let file { fileBytes = 6 * file.utf8.count + 16 }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * text.utf8.count + fileBytes + 96) { buffer in
            var w = ByteWriter(buffer)
            w.write(#"{"line":"#)
            OrjsonText.writeInteger(Int64(line), to: &w)
            if let file {
                w.write(#","file":"#)
                OrjsonText.writeString(file, to: &w)
            }
            w.write(#","reason":"#)
            OrjsonText.writeString(reason.rawValue, to: &w)
            w.write(#","raw":"#)
            OrjsonText.writeString(text, to: &w)
            w.write(UInt8(ascii: "}"))
            output.append(contentsOf: w.written)
        }
    }
}
