import Foundation
import Testing
@testable import RecordCodec

/// The differential corpus in `Fixtures/`, written by `scripts/dev/gen_codec_corpus.py` from the peer
/// itself (its `validate`, `parse_ts`, `flush()` splice, and orjson 3.8.3). Set
/// `RECORD_CODEC_CORPUS=DIR` to read a larger corpus generated with `--scale K --out DIR`.
enum CodecCorpus {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["RECORD_CODEC_CORPUS"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }()

    /// One data line of a fixture: its 1-based line number and tab-separated fields.
    struct Row {
        let file: String
        let number: Int
        let fields: [Substring]
        var location: String { "\(file):\(number)" }
    }

    static func rows(_ file: String) throws -> [Row] {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .ascii)
        var rows: [Row] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            rows.append(Row(file: file, number: index + 1,
                            fields: line.split(separator: "\t", omittingEmptySubsequences: false)))
        }
        return rows
    }

    /// Bytes written as printable ASCII with `\xHH` for everything else.
    static func bytes(_ field: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        let u = Array(field.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "\\") {
                guard i + 3 < u.count, u[i + 1] == UInt8(ascii: "x"),
                      let b = UInt8(String(decoding: u[(i + 2)...(i + 3)], as: UTF8.self), radix: 16)
                else { return nil }
                out.append(b)
                i += 4
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return out
    }

    /// A typed number: `i:<int>` (a Python int within orjson's 64 bits) or `f:<repr>`; `-` is nil.
    static func number(_ field: Substring) -> JSONNumber?? {
        if field == "-" { return .some(nil) }
        if field.hasPrefix("i:") {
            let digits = field.dropFirst(2)
            if let v = Int64(digits) { return .integer(v) }
            if let v = UInt64(digits) { return .unsignedInteger(v) }
            return nil
        }
        if field.hasPrefix("f:"), let v = Double(field.dropFirst(2)) { return .double(v) }
        return nil
    }

    /// A Python int as the codec's `Int64` timestamp: saturated (Python's ints are unbounded).
    static func saturatedInt64(_ field: Substring) -> Int64? {
        if let v = Int64(field) { return v }
        guard field.dropFirst(field.hasPrefix("-") ? 1 : 0).allSatisfy(\.isNumber) else { return nil }
        return field.hasPrefix("-") ? Int64.min : Int64.max
    }
}

/// Same kind and same bits (so `-0.0` and `0.0` differ, as they do in the output).
func identical(_ a: JSONNumber?, _ b: JSONNumber?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (.integer(let x)?, .integer(let y)?): return x == y
    case (.unsignedInteger(let x)?, .unsignedInteger(let y)?): return x == y
    case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern
    default: return false
    }
}

func identical(_ a: ParseOutcome, _ b: ParseOutcome) -> Bool {
    switch (a, b) {
    case (.bad(let x), .bad(let y)): return x == y
    case (.record(let x), .record(let y)):
        return x.sessionID == y.sessionID && x.timestamp == y.timestamp && x.consent == y.consent
            && x.closingBraceOffset == y.closingBraceOffset && (x.fix == nil) == (y.fix == nil)
            && identical(x.fix?.latitude, y.fix?.latitude) && identical(x.fix?.longitude, y.fix?.longitude)
            && identical(x.fix?.accuracy, y.fix?.accuracy)
    default: return false
    }
}

/// Counts every mismatch of a differential test, reports the first few as issues.
struct MismatchLog {
    static let limit = 25
    let fixture: String
    private(set) var count = 0

    mutating func record(_ row: CodecCorpus.Row, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        count += 1
        if count <= Self.limit { Issue.record("\(row.location): \(message)", sourceLocation: sourceLocation) }
    }

    mutating func malformed(_ row: CodecCorpus.Row, sourceLocation: SourceLocation = #_sourceLocation) {
        record(row, "malformed fixture row: \(row.fields.joined(separator: "\t").prefix(200))",
               sourceLocation: sourceLocation)
    }

    func finish(cases: Int, atLeast minimum: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let reported = count > Self.limit ? " (the first \(Self.limit) are reported)" : ""
        #expect(count == 0, "\(count) of \(cases) cases in \(fixture) differ from the peer\(reported)",
                sourceLocation: sourceLocation)
        #expect(cases >= minimum, "\(fixture) yielded only \(cases) cases; regenerate it",
                sourceLocation: sourceLocation)
    }
}

/// Bytes shown with `\xHH` escapes, for messages.
func show(_ bytes: [UInt8]) -> String {
    String(bytes.prefix(300).map { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }
        .joined())
}
