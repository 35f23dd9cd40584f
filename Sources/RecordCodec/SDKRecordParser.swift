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
        let scanner: JSONLineScanner
        var slots = RecordSlots()  // the tree reads the fields
        switch RecordParser.scanObject(line, into: &slots, { $0.scanLine(into: &$1) }) {
        case .success(let (s, _)): scanner = s
        case .failure(let reason): return .bad(reason)
        }
        guard let (root, _) = JSONTree.build(scanner, at: 0) else { return .bad(.badBatch) }
        let reader = RecordFields(scanner: scanner)
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

    private func eqworks(_ root: JSONTree, _ r: RecordFields) throws(BadRecord) -> [SDKRecord] {
        if let cmd = root.member("cmd"), r.isString(cmd.slot, "batch") {
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

    private func eqworksRecord(_ object: JSONTree, _ r: RecordFields) throws(BadRecord) -> SDKRecord {
        guard case .object(_, let close, let members) = object else { throw BadRecord(.badBatch) }
        let session = try r.requireSession(object.member("userId"))
        let timestamp = try r.requireTimestamp(object.member("timestamp"))
        let consent = try r.requireConsent(object.member("consent"))
        var fix: ParsedFix?
        if let location = object.member("location"), !location.isNull {
            guard case .object = location else { throw BadRecord(.badCoordinates) }
            fix = try r.requireFix(location)
            try r.requireRepresentable(timestamp)
        }
        var placements: [SDKPlacement] = []
        var insertions: [SDKPlacement.Content] = []
        for (content, key) in [(SDKPlacement.Content.h3Index, "h3Index" as StaticString), (.postalcode, "postalcode"),
                               (.timezone, "timezone"), (.geofences, "geofences")] {
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
    private func flat(_ root: JSONTree, _ r: RecordFields) throws(BadRecord) -> SDKRecord {
        guard case .object(_, let close, _) = root else { throw BadRecord(.notAnObject) }
        let session = try r.requireSession(root.member("session_id"))
        let timestamp = try r.requireTimestamp(root.member("timestamp"))
        let consent = try r.requireConsent(root.member("consent"))
        let isUpdate = root.member("event_name") == nil && root.member("latitude") != nil
            && root.member("longitude") != nil
        let fix = isUpdate ? try r.requireFix(root) : nil
        if isUpdate { try r.requireRepresentable(timestamp) }
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

extension JSONTree {
    var isNull: Bool { if case .null = self { true } else { false } }

    /// The value as the field checks see a top-level slot (``RecordFields``).
    var slot: ValueSlot {
        switch self {
        case .string(let start, let end, let escaped): ValueSlot(kind: .string, start: start, end: end, flag: escaped)
        case .number(let start, let end, let integerSyntax): ValueSlot(kind: .number, start: start, end: end, flag: integerSyntax)
        case .object: ValueSlot(kind: .object)
        case .array: ValueSlot(kind: .array)
        case .trueLiteral: ValueSlot(kind: .trueLiteral)
        case .falseLiteral: ValueSlot(kind: .falseLiteral)
        case .null: ValueSlot(kind: .null)
        }
    }
}

extension Optional<JSONTree> {
    /// An absent member's slot is `.absent`.
    var slot: ValueSlot { self?.slot ?? ValueSlot() }
}

/// The shared field checks, throwing the reason, for the SDK formats' records.
extension RecordFields {
    func requireSession(_ node: JSONTree?) throws(BadRecord) -> String {
        guard let id = sessionID(node.slot) else { throw BadRecord(.missingSessionID) }
        return id
    }

    func requireTimestamp(_ node: JSONTree?) throws(BadRecord) -> Int64 {
        guard let ms = timestamp(node.slot) else { throw BadRecord(.badTimestamp) }
        return ms
    }

    /// ``RecordFields/isRepresentable(_:)``, the last check of a fix.
    func requireRepresentable(_ milliseconds: Int64) throws(BadRecord) {
        guard RecordFields.isRepresentable(milliseconds) else { throw BadRecord(.badTimestamp) }
    }

    func requireConsent(_ node: JSONTree?) throws(BadRecord) -> Consent? {
        switch consent(node.slot) {
        case .success(let c): return c
        case .failure(let reason): throw BadRecord(reason)
        }
    }

    /// `latitude`, `longitude` and `accuracy` of `object`.
    func requireFix(_ object: JSONTree) throws(BadRecord) -> ParsedFix {
        switch fix(latitude: object.member("latitude").slot, longitude: object.member("longitude").slot,
                   accuracy: object.member("accuracy").slot) {
        case .success(let f): return f
        case .failure(let reason): throw BadRecord(reason)
        }
    }
}
