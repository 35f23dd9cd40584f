/// Why a line was refused: a bad line never reaches the engine; it is reported under one of
/// these stable codes.
///
/// The raw values are the codes written to the error output (`{"line":N,"reason":"…"}`). A line
/// gets the first reason that applies, in the order of the cases below.
public enum BadLineReason: String, Sendable, CaseIterable, Hashable, Error {
    /// The line is longer than ``RecordParser/maximumLineLength`` bytes: split or drop such records upstream.
    case lineTooLong = "line_too_long"
    /// The bytes are not strict UTF-8 (overlong forms, encoded surrogates and bytes above F4 included):
    /// re-encode the source as UTF-8.
    case invalidUTF8 = "invalid_utf8"
    /// The line is not one strict RFC 8259 JSON document (as orjson 3.8.3 reads it): fix the producer.
    case invalidJSON = "invalid_json"
    /// The JSON document is valid but not an object: send one JSON object per line.
    case notAnObject = "not_an_object"
    /// `session_id` is absent, not a string, or empty: every record needs its session.
    case missingSessionID = "missing_session_id"
    /// `timestamp` is absent, not a number or an ISO 8601 string with a zone, or names no real instant.
    case badTimestamp = "bad_timestamp"
    /// `consent` is present but not one of `optIn`, `optOut`, `notSet`.
    case badConsent = "bad_consent"
    /// A `location` record whose `latitude`/`longitude` are missing, not numbers, or out of range.
    case badCoordinates = "bad_coordinates"
    /// A `location` record whose `accuracy` is present but not a number >= 0.
    case badAccuracy = "bad_accuracy"
    /// SDK formats only: an EQWorks `batch` whose `batch_info` is not an array of objects, or a
    /// payload nested deeper than the format reader follows (512 levels).
    case badBatch = "bad_batch"
}
