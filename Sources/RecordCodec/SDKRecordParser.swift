/// Reads lines of an ``SDKFormat``: the same JSON rules and reason codes as ``RecordParser``
/// (`line_too_long`, `invalid_utf8`, `invalid_json`, `not_an_object` first, then per record
/// `missing_session_id`, `bad_timestamp`, `bad_consent`, `bad_coordinates`, `bad_accuracy`),
/// applied to the format's fields; plus `bad_batch` for an EQWorks batch that is not an array of
/// objects. A line with one bad record is a bad line as a whole (its raw text is reported).
///
/// Builds a tree of the line's values (``JSONTree``), so it allocates, unlike the canonical
/// parser: the formats are for the seeds' payloads, the canonical records for bulk streams.
public struct SDKRecordParser: Sendable {
    public let format: SDKFormat

    public init(format: SDKFormat) { self.format = format }

    /// Parses one line (without its terminator; blank lines are the caller's to skip).
    /// - Complexity: O(n) in the line's length.
    public func parse(_ line: UnsafeBufferPointer<UInt8>) -> SDKParseOutcome {
        let n = line.count
        if n > RecordParser.maximumLineLength { return .bad(.lineTooLong) }
        guard n > 0, let p = line.baseAddress else { return .bad(.invalidJSON) }
        let scanner = JSONLineScanner(p: p, n: n)
        switch scanner.scanLine() {
        case .invalid: return .bad(UTF8Validation.isValid(line) ? .invalidJSON : .invalidUTF8)
        case .notAnObject: return .bad(.notAnObject)
        case .object: break
        }
        guard let (root, _) = JSONTree.build(scanner, at: 0) else { return .bad(.badBatch) }
        let reader = FieldReader(scanner: scanner)
        do {
            switch format {
            case .eqworks: return .records(try eqworks(root, reader))
            case .mobiletracker, .datacloud: return .records([try flat(root, reader)])
            }
        } catch {
            return .bad(error.reason)
        }
    }

    // MARK: EQWorks

    private func eqworks(_ root: JSONTree, _ r: FieldReader) throws(BadRecord) -> [SDKRecord] {
        if let cmd = root.member("cmd"), r.isString(cmd, "batch") {
            guard case .array(_, _, let elements)? = root.member("batch_info") else { throw BadRecord(.badBatch) }
            var records: [SDKRecord] = []
            for element in elements {
                guard case .object = element else { throw BadRecord(.badBatch) }
                records.append(try eqworksRecord(element, r))
            }
            return records
        }
        return [try eqworksRecord(root, r)]
    }

    private func eqworksRecord(_ object: JSONTree, _ r: FieldReader) throws(BadRecord) -> SDKRecord {
        guard case .object(_, let close, let members) = object else { throw BadRecord(.badBatch) }
        let session = try r.session(object.member("userId"))
        let timestamp = try r.timestamp(object.member("timestamp"))
        let consent = try r.consent(object.member("consent"))
        var fix: ParsedFix?
        if let location = object.member("location"), !location.isNull {
            guard case .object = location else { throw BadRecord(.badCoordinates) }
            fix = try r.fix(location)
        }
        var placements: [SDKPlacement] = []
        var insertions: [SDKPlacement.Content] = []
        for (content, key) in [(SDKPlacement.Content.h3Index, "h3Index" as StaticString), (.postalcode, "postalcode")] {
            if let existing = object.member(key) {
                placements.append(SDKPlacement(content: content, range: existing.start..<existing.end, needsComma: false))
            } else {
                insertions.append(content)
            }
        }
        for content in insertions {
            placements.append(SDKPlacement(content: content, range: close..<close, needsComma: !members.isEmpty))
        }
        return SDKRecord(record: ParsedRecord(sessionID: session, timestamp: timestamp, consent: consent, fix: fix,
                                              closingBraceOffset: close),
                         placements: placements.sorted { $0.range.lowerBound < $1.range.lowerBound })
    }

    // MARK: MobileTracker and Data Cloud

    /// A flat record with the contract's `session_id`, `timestamp`, `consent`; a location
    /// update when it has `latitude` and `longitude` and no `event_name`.
    private func flat(_ root: JSONTree, _ r: FieldReader) throws(BadRecord) -> SDKRecord {
        guard case .object(_, let close, _) = root else { throw BadRecord(.notAnObject) }
        let session = try r.session(root.member("session_id"))
        let timestamp = try r.timestamp(root.member("timestamp"))
        let consent = try r.consent(root.member("consent"))
        let isUpdate = root.member("event_name") == nil && root.member("latitude") != nil
            && root.member("longitude") != nil
        let fix = isUpdate ? try r.fix(root) : nil
        var placements: [SDKPlacement] = []
        if isUpdate {
            placements = [SDKPlacement(content: .geo, range: close..<close, needsComma: true)]
        } else if format == .mobiletracker {
            if case .object(_, let dataClose, let dataMembers)? = root.member("data") {
                placements = [SDKPlacement(content: .geo, range: dataClose..<dataClose, needsComma: !dataMembers.isEmpty)]
            } else {
                placements = [SDKPlacement(content: .geo, range: close..<close, needsComma: true)]
            }
        } else {
            var inserted: [SDKPlacement] = []
            for (content, key) in [(SDKPlacement.Content.latitude, "latitude" as StaticString), (.longitude, "longitude")] {
                if let existing = root.member(key) {
                    placements.append(SDKPlacement(content: content, range: existing.start..<existing.end, needsComma: false))
                } else {
                    inserted.append(SDKPlacement(content: content, range: close..<close, needsComma: true))
                }
            }
            placements.sort { $0.range.lowerBound < $1.range.lowerBound }
            placements += inserted
            placements.append(SDKPlacement(content: .geoWithoutPosition, range: close..<close, needsComma: true))
        }
        return SDKRecord(record: ParsedRecord(sessionID: session, timestamp: timestamp, consent: consent, fix: fix,
                                              closingBraceOffset: close),
                         placements: placements)
    }
}

/// A record's first broken rule.
struct BadRecord: Error {
    let reason: BadLineReason
    init(_ reason: BadLineReason) { self.reason = reason }
}

/// The contract's field checks (as ``RecordParser`` applies them) on values of a ``JSONTree``.
struct FieldReader {
    let scanner: JSONLineScanner

    func isString(_ node: JSONTree, _ literal: StaticString) -> Bool {
        guard case .string(let start, let end, let escaped) = node else { return false }
        return withString(start, end, escaped) { JSONLineScanner.equals($0, literal) }
    }

    func withString<R>(_ start: Int, _ end: Int, _ escaped: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if !escaped { return body(UnsafeBufferPointer(start: scanner.p + start, count: end - start)) }
        return scanner.decodeString(start: start, end: end).withUnsafeBufferPointer(body)
    }

    func session(_ node: JSONTree?) throws(BadRecord) -> String {
        guard case .string(let start, let end, let escaped)? = node, end > start else {
            throw BadRecord(.missingSessionID)
        }
        return withString(start, end, escaped) { String(decoding: $0, as: UTF8.self) }
    }

    func number(_ node: JSONTree) -> JSONNumber? {
        guard case .number(let start, let end, let integerSyntax) = node else { return nil }
        return JSONNumber.read(scanner.p, from: start, to: end, integerSyntax: integerSyntax)
    }

    /// The peer's `parse_ts`: a number's `int()`, or an ISO 8601 string with a zone.
    func timestamp(_ node: JSONTree?) throws(BadRecord) -> Int64 {
        switch node {
        case .number?:
            switch number(node!)! {
            case .integer(let v): return v
            case .unsignedInteger: return Int64.max
            case .double(let v):
                if v >= 9_223_372_036_854_775_808.0 { return Int64.max }
                if v < -9_223_372_036_854_775_808.0 { return Int64.min }
                return Int64(v)
            }
        case .string(let start, let end, let escaped)?:
            if let ms = withString(start, end, escaped, { PythonISOTimestamp.milliseconds(utf8: $0) }) { return ms }
            throw BadRecord(.badTimestamp)
        default:
            throw BadRecord(.badTimestamp)
        }
    }

    func consent(_ node: JSONTree?) throws(BadRecord) -> RecordConsent? {
        switch node {
        case nil, .null?: return nil
        case .string(let start, let end, let escaped)?:
            let consent = withString(start, end, escaped) { text -> RecordConsent? in
                if JSONLineScanner.equals(text, "optIn") { return .optIn }
                if JSONLineScanner.equals(text, "optOut") { return .optOut }
                if JSONLineScanner.equals(text, "notSet") { return .notSet }
                return nil
            }
            guard let consent else { throw BadRecord(.badConsent) }
            return consent
        default:
            throw BadRecord(.badConsent)
        }
    }

    /// `latitude`, `longitude` (numbers in range) and `accuracy` (absent, null, or >= 0) of `object`.
    func fix(_ object: JSONTree) throws(BadRecord) -> ParsedFix {
        guard let latNode = object.member("latitude"), let lngNode = object.member("longitude"),
              let lat = number(latNode), let lng = number(lngNode),
              Self.isWithin(lat, 90), Self.isWithin(lng, 180) else { throw BadRecord(.badCoordinates) }
        var accuracy: JSONNumber?
        switch object.member("accuracy") {
        case nil, .null?: accuracy = nil
        case let node?:
            guard let value = number(node) else { throw BadRecord(.badAccuracy) }
            switch value {
            case .integer(let v) where v < 0: throw BadRecord(.badAccuracy)
            case .double(let v) where v < 0: throw BadRecord(.badAccuracy)
            default: accuracy = value
            }
        }
        return ParsedFix(latitude: lat, longitude: lng, accuracy: accuracy)
    }

    static func isWithin(_ value: JSONNumber, _ limit: Int64) -> Bool {
        switch value {
        case .integer(let v): return v >= -limit && v <= limit
        case .unsignedInteger: return false
        case .double(let v): return v >= Double(-limit) && v <= Double(limit)
        }
    }
}

extension JSONTree {
    var isNull: Bool { if case .null = self { true } else { false } }
}
