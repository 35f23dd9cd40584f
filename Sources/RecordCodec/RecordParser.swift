import GeoModel

/// Decides what one input line is: a record for the engine, or a bad line with the first reason
/// that applies.
///
/// The checks run in this order: `line_too_long`, `invalid_utf8`, `invalid_json`,
/// `not_an_object`, `missing_session_id`, `bad_timestamp`, `bad_consent`, then, for
/// `"type":"location"`, `bad_coordinates` and `bad_accuracy`. JSON is read as orjson 3.8.3
/// reads it (see `JSONLineScanner`), strings and numbers as Python then sees them, ISO 8601
/// timestamps as CPython 3.11's `datetime.fromisoformat` (see `PythonISOTimestamp`).
///
/// One pass over the bytes; nothing is allocated but the session id's `String` (none at all
/// for ids of up to 15 UTF-8 bytes), except on rare paths (escaped strings, long numbers,
/// nesting deeper than 64).
///
/// ```swift
/// let parser = RecordParser()
/// switch line.withUnsafeBufferPointer({ parser.parse($0) }) {
/// case .record(let record): engine.feed(record)
/// case .bad(let reason): errors.write(lineNumber, reason.rawValue, line)
/// }
/// ```
public struct RecordParser: Sendable {
    /// The longest line accepted, in bytes (1 MiB); checked first.
    public static let maximumLineLength = 1 << 20

    /// A parser; it holds no state, so one can serve any number of threads.
    public init() {}

    /// Parses and checks one line.
    ///
    /// - Parameter line: the line's bytes without its terminator (strip `\n` and the `\r`s before
    ///   it, as Python's `raw.rstrip(b"\r\n")` does). Blank lines are the caller's to skip: see
    ///   ``isBlank(_:)``.
    /// - Returns: the record, or the reason the line is bad.
    /// - Complexity: O(n) in the line's length.
    public func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParseOutcome {
        var slots = RecordSlots()
        switch Self.scanObject(line, into: &slots, { $0.scanLine(into: &$1) }) {
        case .success(let (scanner, closingBrace)):
            var dates = PythonISOTimestamp.DateMemo()
            switch check(slots, closingBrace: closingBrace, scanner, beginID: { _, _ in () },
                         id: { bytes, _ in String(decoding: bytes, as: UTF8.self) }, dates: &dates,
                         make: { ParsedRecord(sessionID: $0, timestamp: $1, consent: $2, fix: $3, closingBraceOffset: $4) }) {
            case .record(let record): return .record(record)
            case .bad(let reason): return .bad(reason)
            }
        case .failure(let reason):
            return .bad(reason)
        }
    }

    /// ``parse(_:)-(UnsafeBufferPointer<UInt8>)`` with what the reader remembers of the lines
    /// before: the line scanned by a match when it has a layout seen lately (``LineLayouts``),
    /// and the record's ``SessionID`` taken from the session ids (made there when it is new):
    /// the stream's reader, which needs the id anyway.
    /// - Returns: the outcome, and the record's id when it is a record.
    package func parse(_ line: UnsafeBufferPointer<UInt8>, memory: inout ReaderMemory) -> (ParseOutcome, SessionID?) {
        switch parse(line, memory: &memory, make: {
            (ParsedRecord(sessionID: $0.rawValue, timestamp: $1, consent: $2, fix: $3, closingBraceOffset: $4), $0)
        }) {
        case .record(let (record, id)): return (.record(record), id)
        case .bad(let reason): return (.bad(reason), nil)
        }
    }

    /// ``parse(_:memory:)`` of a stream's reader: the record as the stream keeps it, with its
    /// session's id and without the id's text.
    package func parseSessionRecord(_ line: UnsafeBufferPointer<UInt8>, memory: inout ReaderMemory) -> SessionRecordOutcome {
        switch parse(line, memory: &memory, make: {
            SessionRecord(session: $0, timestamp: $1, consent: $2, fix: $3, closingBrace: $4)
        }) {
        case .record(let record): return .record(record)
        case .bad(let reason): return .bad(reason)
        }
    }

    /// The reader's parse, the record made by `make` from its id and fields.
    @inline(__always)
    private func parse<Record>(_ line: UnsafeBufferPointer<UInt8>, memory: inout ReaderMemory,
                               make: (SessionID, Int64, Consent?, ParsedFix?, Int) -> Record) -> Checked<Record> {
        var slots = RecordSlots()
        switch Self.scanObject(line, into: &slots, layouts: &memory.layouts) {
        case .success(let (scanner, closingBrace)):
            return check(slots, closingBrace: closingBrace, scanner,
                         beginID: { memory.sessionIDs.begin(utf8: $0.baseAddress!, count: $0.count, readable: $1) },
                         id: { bytes, lookup in
                             // an escaped id's bytes are decoded: its lookup starts here
                             guard let lookup else { return memory.sessionIDs.id(utf8: bytes) }
                             return memory.sessionIDs.id(utf8: bytes, lookup: lookup)
                         },
                         dates: &memory.dates, make: make)
        case .failure(let reason):
            return .bad(reason)
        }
    }

    /// The checks every record format starts with, in this order: the length, one strict
    /// JSON document (else `invalid_utf8` or `invalid_json`), an object. The top-level fields
    /// go into `slots` (which must come empty), by `scan` (``JSONLineScanner/scanLine(into:)``
    /// or an equivalent).
    /// - Returns: the scanner over the line and the closing brace's offset.
    @inline(__always)
    static func scanObject(_ line: UnsafeBufferPointer<UInt8>, into slots: inout RecordSlots,
                           _ scan: (JSONLineScanner, inout RecordSlots) -> JSONLineScanner.Shape)
        -> Result<(JSONLineScanner, Int), BadLineReason> {
        switch scanner(line) {
        case .success(let scanner): return object(scan(scanner, &slots), scanner, line)
        case .failure(let reason): return .failure(reason)
        }
    }

    /// ``scanObject(_:into:_:)`` by the line layouts (``LineLayouts/scanLine(_:into:)``), called
    /// here rather than through a closure: through one, the layouts' match was left out of the
    /// parser's body (10 M instructions more over the benchmark stream's first 200,000 lines).
    @inline(__always)
    static func scanObject(_ line: UnsafeBufferPointer<UInt8>, into slots: inout RecordSlots, layouts: inout LineLayouts)
        -> Result<(JSONLineScanner, Int), BadLineReason> {
        switch scanner(line) {
        case .success(let scanner): return object(layouts.scanLine(scanner, into: &slots), scanner, line)
        case .failure(let reason): return .failure(reason)
        }
    }

    /// The scanner over a line, when its length allows one.
    @inline(__always)
    private static func scanner(_ line: UnsafeBufferPointer<UInt8>) -> Result<JSONLineScanner, BadLineReason> {
        let n = line.count
        if n > maximumLineLength { return .failure(.lineTooLong) }
        guard n > 0, let p = line.baseAddress else { return .failure(.invalidJSON) }
        return .success(JSONLineScanner(p: p, n: n))
    }

    /// What a scan's shape makes of the line.
    @inline(__always)
    private static func object(_ shape: JSONLineScanner.Shape, _ scanner: JSONLineScanner, _ line: UnsafeBufferPointer<UInt8>)
        -> Result<(JSONLineScanner, Int), BadLineReason> {
        switch shape {
        case .invalid:
            // The scanner stops at the first JSON error, but Python decodes the whole line first.
            return .failure(UTF8Validation.isValid(line) ? .invalidJSON : .invalidUTF8)
        case .notAnObject:
            return .failure(.notAnObject)
        case .object(let closingBrace):
            return .success((scanner, closingBrace))
        }
    }

    /// Parses and checks one line held in an array or any other collection of bytes (copied
    /// first when it is not contiguous); see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``.
    /// - Parameter line: the line's bytes without its terminator.
    /// - Returns: the record, or the reason the line is bad.
    /// - Complexity: O(n) in the line's length.
    public func parse<Bytes: Collection<UInt8>>(_ line: Bytes) -> ParseOutcome {
        if let outcome = line.withContiguousStorageIfAvailable({ parse($0) }) { return outcome }
        return Array(line).withUnsafeBufferPointer { parse($0) }
    }

    /// Whether the line holds only white space as Python's `bytes.strip()` sees it (space, tab,
    /// LF, CR, VT, FF): such a line, and an empty one, is skipped and not counted.
    /// - Parameter line: the line's bytes.
    /// - Returns: `true` when the caller should skip the line.
    /// - Complexity: O(n).
    @inlinable
    public static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // a record starts with `{`: answered where it is asked, without a call (every line of
        // a stream is asked; the call was 18 instructions a line, callgrind)
        if let first = line.first, first > 0x20 { return false }
        return isBlankByScan(line)
    }

    @usableFromInline
    static func isBlankByScan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: continue
            default: return false
            }
        }
        return true
    }

    /// ``isBlank(_:)-(UnsafeBufferPointer<UInt8>)`` for any collection of bytes.
    /// - Parameter line: the line's bytes.
    /// - Returns: `true` when the caller should skip the line.
    /// - Complexity: O(n).
    public static func isBlank<Bytes: Collection<UInt8>>(_ line: Bytes) -> Bool {
        line.allSatisfy { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    }

    // MARK: The peer's field checks, in its order

    /// A record made by a parse's `make`, or the reason its line is bad.
    private enum Checked<Record> {
        case record(Record)
        case bad(BadLineReason)
    }

    /// The checks, with the session id made from its decoded UTF-8 by `id` (a `String`, or a
    /// ``SessionID``), a string timestamp's date remembered in `dates`, and the record made by
    /// `make` from the id, the timestamp, the consent, the fix and the closing brace's offset.
    ///
    /// The id is checked first but made last, when the line is known to be a record: its
    /// lookup is begun by `beginID` (with the id's bytes in the line and how many bytes may be
    /// read from there) when it needs no decoding, and finished by `id` with what `beginID`
    /// gave, so that the reader's cache line of the id arrives while the other fields are
    /// checked (``SessionIDCache/begin(utf8:count:readable:)``).
    @inline(__always)
    private func check<Lookup, ID, Record>(_ slots: RecordSlots, closingBrace: Int, _ scanner: JSONLineScanner,
                                           beginID: (UnsafeBufferPointer<UInt8>, Int) -> Lookup,
                                           id: (UnsafeBufferPointer<UInt8>, Lookup?) -> ID,
                                           dates: inout PythonISOTimestamp.DateMemo,
                                           make: (ID, Int64, Consent?, ParsedFix?, Int) -> Record) -> Checked<Record> {
        let fields = RecordFields(scanner: scanner)
        let sessionSlot = slots.sessionID
        guard RecordFields.isSessionID(sessionSlot) else { return .bad(.missingSessionID) }
        let lookup = sessionSlot.flag ? nil : beginID(fields.rawString(sessionSlot), scanner.n &- sessionSlot.start)
        guard let timestamp = fields.timestamp(slots.timestamp, dates: &dates) else { return .bad(.badTimestamp) }
        guard case .success(let consent) = fields.consent(slots.consent) else { return .bad(.badConsent) }
        var fix: ParsedFix? = nil
        // rec.get("type") == "location"
        if fields.isString(slots.type, "location") {
            switch fields.fix(latitude: slots.latitude, longitude: slots.longitude, accuracy: slots.accuracy) {
            case .success(let checked):
                guard RecordFields.isRepresentable(timestamp) else { return .bad(.badTimestamp) }
                fix = checked
            case .failure(let reason):
                return .bad(reason)
            }
        }
        // one call of each closure: with one per kind of record, `make` was not inlined
        let session = fields.withDecodedString(sessionSlot) { id($0, lookup) }
        return .record(make(session, timestamp, consent, fix, closingBrace))
    }
}

/// The checks of a record's fields, on values located in a scanned line: the one
/// implementation both ``RecordParser`` (top-level slots) and ``SDKRecordParser`` (values
/// found in a ``JSONTree``) use.
struct RecordFields {
    let scanner: JSONLineScanner

    /// The last check of a fix: its time within ``Timestamp/representable``, years 1 to 9999
    /// UTC, else `bad_timestamp`. Made after the other checks, so that a fix that also breaks
    /// one of them is refused for that one's reason. Such a fix's `fix_timestamp` has no
    /// four-digit ISO 8601 form (Python's `datetime` raises on it), and its time would break the
    /// engine's arithmetic on times (one used to kill the run). An event keeps any time,
    /// saturated at `Int64`'s ends: no fix is live then, so it passes through without `geo`.
    static func isRepresentable(_ milliseconds: Int64) -> Bool { Timestamp.representable.contains(milliseconds) }

    /// `session_id`: a non-empty string, decoded.
    func sessionID(_ slot: ValueSlot) -> String? {
        sessionID(slot) { String(decoding: $0, as: UTF8.self) }
    }

    /// `session_id`: a non-empty string, made by `make` from its decoded UTF-8.
    @inline(__always)
    func sessionID<ID>(_ slot: ValueSlot, _ make: (UnsafeBufferPointer<UInt8>) -> ID) -> ID? {
        guard Self.isSessionID(slot) else { return nil }
        return withDecodedString(slot, make)
    }

    /// Whether `slot` holds a `session_id`: a non-empty string.
    @inline(__always)
    static func isSessionID(_ slot: ValueSlot) -> Bool { slot.kind == .string && slot.end > slot.start }

    /// `timestamp`: a number truncated toward zero (Python's `int()`), or an ISO 8601 string with
    /// a zone; numbers beyond `Int64` saturate at its ends (see ``isRepresentable(_:)`` for what
    /// is then kept).
    func timestamp(_ slot: ValueSlot) -> Int64? {
        var dates = PythonISOTimestamp.DateMemo()
        return timestamp(slot, dates: &dates)
    }

    /// ``timestamp(_:)`` with the date of a string timestamp remembered in `dates`.
    @inline(__always)
    func timestamp(_ slot: ValueSlot, dates: inout PythonISOTimestamp.DateMemo) -> Int64? {
        switch slot.kind {
        case .number:
            switch number(slot) {
            case .integer(let v): return v
            case .unsignedInteger: return Int64.max
            case .double(let v):
                // int(v) truncates toward zero; Python's int is unbounded, ours saturates.
                if v >= 9_223_372_036_854_775_808.0 { return Int64.max }
                if v < -9_223_372_036_854_775_808.0 { return Int64.min }
                return Int64(v)
            }
        case .string:
            return withDecodedString(slot) { PythonISOTimestamp.milliseconds(utf8: $0, memo: &dates) }
        default:
            return nil
        }
    }

    /// `consent`: absent or null (`nil`), or one of the three strings; anything else fails.
    func consent(_ slot: ValueSlot) -> Result<Consent?, BadLineReason> {
        switch slot.kind {
        case .absent, .null:
            return .success(nil)
        case .string:
            let consent = withDecodedString(slot) { text -> Consent? in
                if JSONLineScanner.equals(text, "optIn") { return .optIn }
                if JSONLineScanner.equals(text, "optOut") { return .optOut }
                if JSONLineScanner.equals(text, "notSet") { return .notSet }
                return nil
            }
            return consent.map { .success($0) } ?? .failure(.badConsent)
        default:
            return .failure(.badConsent)
        }
    }

    /// Whether the value is the string `literal` (escapes resolved).
    @inline(__always)
    func isString(_ slot: ValueSlot, _ literal: StaticString) -> Bool {
        slot.kind == .string && withDecodedString(slot) { JSONLineScanner.equals($0, literal) }
    }

    /// A fix's `latitude` and `longitude` (numbers, not booleans, within ±90 and ±180) and
    /// `accuracy` (absent, null, or a number >= 0, so -0.0 passes).
    func fix(latitude: ValueSlot, longitude: ValueSlot, accuracy: ValueSlot) -> Result<ParsedFix, BadLineReason> {
        guard latitude.kind == .number, longitude.kind == .number else { return .failure(.badCoordinates) }
        let lat = coordinate(latitude), lng = coordinate(longitude)
        guard Self.isWithin(lat, 90), Self.isWithin(lng, 180) else { return .failure(.badCoordinates) }
        var acc: JSONNumber?
        switch accuracy.kind {
        case .absent, .null:
            acc = nil
        case .number:
            let value = coordinate(accuracy)
            switch value {
            case .integer(let v) where v < 0: return .failure(.badAccuracy)
            case .double(let v) where v < 0: return .failure(.badAccuracy)
            default: acc = value
            }
        default:
            return .failure(.badAccuracy)
        }
        return .success(ParsedFix(latitude: lat, longitude: lng, accuracy: acc))
    }

    /// ``number(_:)`` of a fix's number: the usual `-ddd.ddd` read here
    /// (``GeoModel/JSONNumber/checkedDecimal(_:from:to:)``, inlined), the others by the call.
    /// The call, with its dispatch on the number's form, was about 40 of the 160 instructions
    /// of each of a fix's three numbers (callgrind, benchmark stream).
    @inline(__always)
    func coordinate(_ slot: ValueSlot) -> JSONNumber {
        if !slot.flag, let value = JSONNumber.checkedDecimal(scanner.p, from: slot.start, to: slot.end) { return .double(value) }
        return number(slot)
    }

    @inline(__always)
    func number(_ slot: ValueSlot) -> JSONNumber {
        JSONNumber.read(scanner.p, from: slot.start, to: slot.end, integerSyntax: slot.flag, readableTo: scanner.n)
    }

    /// `-limit <= value <= limit`, compared exactly as Python compares an int or a float.
    static func isWithin(_ value: JSONNumber, _ limit: Int64) -> Bool {
        switch value {
        case .integer(let v): return v >= -limit && v <= limit
        case .unsignedInteger: return false
        case .double(let v): return v >= Double(-limit) && v <= Double(limit)
        }
    }

    /// The bytes of the string in `slot` as the line has them (its text when it has no escape).
    @inline(__always)
    func rawString(_ slot: ValueSlot) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: scanner.p + slot.start, count: slot.end - slot.start)
    }

    /// Calls `body` with a string value's decoded UTF-8: the line's own bytes when the string has
    /// no escape, a decoded copy otherwise.
    @inline(__always)
    func withDecodedString<R>(_ slot: ValueSlot, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if !slot.flag { return body(rawString(slot)) }
        return scanner.decodeString(start: slot.start, end: slot.end).withUnsafeBufferPointer(body)
    }
}
