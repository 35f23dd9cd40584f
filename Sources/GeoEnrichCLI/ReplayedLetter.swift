#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import GeoModel

/// What `push --replay` takes from a dead-letter line: the strings `session_id` and `body` of a
/// JSON object (other keys are ignored).
///
/// The line is read as `JSONSerialization` read it, which is full Foundation's (and would link
/// its 34 MB of ICU data): with FoundationEssentials' `JSONDecoder`, made to agree with it where
/// the two differ. `JSONDecoder` parses only the values it is asked for, so every value is
/// decoded (a number such as `1e999` or `01` anywhere makes the line unreadable, as it did);
/// and of a key given twice it keeps the first value where `JSONSerialization` kept the last,
/// so the two keys' values are taken from the last of their occurrences at the top level.
/// Lines as geo-enrich writes them have neither; the agreement is for files edited by hand.
/// One difference is left: a nonzero number too small for a Double (`1e-400`) anywhere in the
/// line, which `JSONSerialization` read as 0 and `JSONDecoder` refuses, so such a line is now
/// reported as not a dead-letter line (exit status 1) instead of being replayed.
struct ReplayedLetter {
    let session: SessionID
    let body: String
    /// What the body is when not a location update (``LocationPush/DeadLetterFile/geofenceTransitionKind``).
    let kind: String?

    /// `nil` when the line is not a JSON object with string values for both keys.
    init?(line: some Collection<UInt8>) {
        let bytes = Array(line)
        guard case .object? = try? JSONDecoder().decode(AnyJSON.self, from: Data(bytes)),
              let values = Self.lastValues(bytes),
              let session = values["session_id"].flatMap({ Self.string(bytes[$0]) }).flatMap(SessionID.init),
              let body = values["body"].flatMap({ Self.string(bytes[$0]) }) else { return nil }
        self.session = session
        self.body = body
        kind = values["kind"].flatMap { Self.string(bytes[$0]) }
    }

    /// A JSON text that is one string, read as a string (`nil` when it is another value).
    private static func string(_ text: ArraySlice<UInt8>) -> String? {
        try? JSONDecoder().decode(String.self, from: Data(text))
    }

    /// Where each top-level key's last value is in `bytes`, a valid JSON object (checked first).
    private static func lastValues(_ bytes: [UInt8]) -> [String: Range<Int>]? {
        guard var i = bytes.firstIndex(of: UInt8(ascii: "{")) else { return nil }
        i += 1
        var values: [String: Range<Int>] = [:]
        func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }
        // past the string that starts at `i`
        func skipString() {
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
            i += 1
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return values }  // `}`
            let keyStart = i
            skipString()
            guard let key = string(bytes[keyStart..<min(i, bytes.count)]) else { return nil }
            skipSpace()
            i += 1  // `:`
            skipSpace()
            let valueStart = i
            var depth = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { skipString(); continue }
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1 }
                else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    if depth == 0 { break }
                    depth -= 1
                } else if b == UInt8(ascii: ","), depth == 0 { break }
                i += 1
            }
            var valueEnd = min(i, bytes.count)
            while valueEnd > valueStart, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[valueEnd - 1]) { valueEnd -= 1 }
            values[key] = valueStart..<valueEnd
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return values }
            i += 1
        }
    }
}

/// Any JSON value, every part of it decoded: the check that the whole line is JSON.
private enum AnyJSON: Decodable {
    case object, array, scalar

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyJSON.self) }
            self = .array
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            for key in object.allKeys { _ = try object.decode(AnyJSON.self, forKey: key) }
            self = .object
        } else {
            let value = try decoder.singleValueContainer()
            if !value.decodeNil(), (try? value.decode(Bool.self)) == nil, (try? value.decode(String.self)) == nil {
                _ = try value.decode(Double.self)
            }
            self = .scalar
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
