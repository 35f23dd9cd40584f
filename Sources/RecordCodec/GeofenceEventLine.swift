/// Writes one geofence transition (contract rule 11) as the JSON object that
/// `--geofence-events` writes a line of and the webhook sends:
/// `{"session_id":…,"fence":…,"transition":"enter","timestamp":"…","latitude":…,"longitude":…}`,
/// strings and numbers as orjson writes them (the position as the record wrote it, the time as
/// the `geo` object's `fix_timestamp`).
public enum GeofenceEventLine {
    /// Appends the object (without a line terminator) to `output`.
    ///
    /// - Parameters:
    ///   - session: the session id.
    ///   - fence: the fence's id as a JSON string, quotes included (``GeofenceListTable/quotedName(of:)``).
    ///   - transition: `enter`, `exit` or `dwell`.
    ///   - timestamp: the accepted fix's time, epoch milliseconds.
    ///   - position: the fix's position as the record wrote it.
    ///   - output: the buffer to append to.
    public static func append(session: String, fence: [UInt8], transition: StaticString, timestamp: Int64,
                              position: ReportedPosition, to output: inout [UInt8]) {
        // at most 6 bytes a byte of the id (`\u00XX`), the name as given, and the rest's ~150
        let capacity = 6 * session.utf8.count + fence.count + 256
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var w = ByteWriter(buffer)
            w.write(#"{"session_id":"#)
            OrjsonText.writeString(session, to: &w)
            w.write(#","fence":"#)
            fence.withUnsafeBufferPointer { w.write($0) }
            w.write(#","transition":""#)
            w.write(transition)
            w.write(#"","timestamp":"#)
            OrjsonText.writeISOTimestamp(milliseconds: timestamp, to: &w)
            w.write(#","latitude":"#)
            OrjsonText.writeNumber(position.latitude, to: &w)
            w.write(#","longitude":"#)
            OrjsonText.writeNumber(position.longitude, to: &w)
            w.write(UInt8(ascii: "}"))
            output.append(contentsOf: w.written)
        }
    }
}
