/// Builds an enriched output line: the input line up to its closing `}`, then `,"geo":{…}}`.
///
/// Byte for byte what Python writes as `raw.rstrip()[:-1] + b',"geo":' + orjson.dumps(g) + b"}"`,
/// with `g`'s keys in this order: `latitude`, `longitude`, `accuracy`, `fix_timestamp`, `age_ms`,
/// `h3`, `country`, `postalcode`, `fsa`, `postal_distance_m`, absent keys left out, values as
/// orjson 3.8.3 writes them. Nothing of the input line is re-encoded; white space after the
/// closing brace is dropped, as `rstrip()` drops it.
///
/// A fix's `geo` object is the same for every record it enriches but for `age_ms`: render it
/// once as a ``RenderedGeo`` and splice that, rather than the ``Enrichment``, into each line.
public enum Splice {
    /// Appends the enriched line (without a line terminator) to `output`.
    ///
    /// - Parameters:
    ///   - line: the input line as given to ``RecordParser/parse(_:)``.
    ///   - closingBrace: the record's ``ParsedRecord/closingBraceOffset``.
    ///   - geo: the values of the `geo` object.
    ///   - ageMilliseconds: milliseconds from the fix to this record (0 on the fix itself).
    ///   - geofences: the fence set's table, when `geo` has a ``Enrichment/geofences`` list.
    ///   - output: the buffer to append to; reuse it across lines to avoid allocation.
    /// - Precondition: `line[closingBrace]` is `}`.
    /// - Complexity: O(line length).
    public static func append(line: UnsafeBufferPointer<UInt8>, closingBrace: Int, geo: Enrichment,
                              ageMilliseconds: Int64, geofences: GeofenceListTable? = nil, to output: inout [UInt8]) {
        checkClosingBrace(line, closingBrace)
        let array = geofenceArray(geo, geofences)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity(geofences: array)) { buffer in
            var writer = ByteWriter(buffer)
            writeHead(geo, to: &writer)
            OrjsonText.writeInteger(ageMilliseconds, to: &writer)
            writeTail(geo, geofences: array, to: &writer)
            reserve(&output, closingBrace + writer.count)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<closingBrace]))
            output.append(contentsOf: writer.written)
        }
    }

    /// Appends the enriched line (without a line terminator) to `output`, from a `geo` object
    /// rendered once for its fix.
    ///
    /// - Parameters:
    ///   - line: the input line as given to ``RecordParser/parse(_:)``.
    ///   - closingBrace: the record's ``ParsedRecord/closingBraceOffset``.
    ///   - geo: the fix's rendered `geo` object.
    ///   - ageMilliseconds: milliseconds from the fix to this record (0 on the fix itself).
    ///   - output: the buffer to append to; reuse it across lines to avoid allocation.
    /// - Precondition: `line[closingBrace]` is `}`.
    /// - Complexity: O(line length).
    public static func append(line: UnsafeBufferPointer<UInt8>, closingBrace: Int, geo: RenderedGeo,
                              ageMilliseconds: Int64, to output: inout [UInt8]) {
        checkClosingBrace(line, closingBrace)
        reserve(&output, closingBrace + geo.bytes.count + 20)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<closingBrace]))
        appendTail(geo, ageMilliseconds: ageMilliseconds, to: &output)
    }

    /// Appends what an enriched line has after the input line's first `closingBrace` bytes:
    /// `,"geo":{…}}`, the `geo` member and the record's closing brace. The stream's writer puts
    /// the input's bytes before it itself (``append(line:closingBrace:geo:ageMilliseconds:to:)``
    /// copies them; a writer that gathers its output with `writev(2)` need not).
    ///
    /// - Parameters:
    ///   - geo: the fix's rendered `geo` object.
    ///   - ageMilliseconds: milliseconds from the fix to this record (0 on the fix itself).
    ///   - output: the buffer to append to.
    public static func appendTail(_ geo: RenderedGeo, ageMilliseconds: Int64, to output: inout [UInt8]) {
        geo.bytes.withUnsafeBufferPointer { appendTail($0, ageOffset: geo.ageOffset, ageMilliseconds: ageMilliseconds, to: &output) }
    }

    /// ``appendTail(_:ageMilliseconds:to:)`` of a rendering held as bytes (``RenderedGeo/render(_:geofences:_:)``'s
    /// text, `ageOffset` where its `age_ms` value goes), and then `terminator` when given (a
    /// stream's `\n`, in the same append).
    @inline(__always)
    package static func appendTail(_ rendered: UnsafeBufferPointer<UInt8>, ageOffset: Int, ageMilliseconds: Int64,
                                   terminator: UInt8? = nil, to output: inout [UInt8]) {
        // written in place, in one append: the age's digits through a temporary buffer and three
        // appends cost about 140 instructions an enriched line, beside the copy itself (callgrind)
        output.append(addingCapacity: rendered.count + 21) { tail in
            tail.withUnsafeMutableBufferPointer { buffer, count in
                var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                writer.write(UnsafeBufferPointer(rebasing: rendered[..<ageOffset]))
                OrjsonText.writeInteger(ageMilliseconds, to: &writer)  // at most 20 bytes
                writer.write(UnsafeBufferPointer(rebasing: rendered[ageOffset...]))
                if let terminator { writer.write(terminator) }
                count += writer.count
            }
        }
    }

    /// A `geo` object alone, `{"lat":…,…}`, as a line enriched with it carries it (a service
    /// answers a request with it).
    /// - Parameters:
    ///   - geo: the values of the `geo` object.
    ///   - ageMilliseconds: milliseconds from the fix to the record it describes.
    ///   - geofences: the fence set's table, when `geo` has a ``Enrichment/geofences`` list.
    public static func geoObject(_ geo: Enrichment, ageMilliseconds: Int64, geofences: GeofenceListTable? = nil) -> [UInt8] {
        let rendered = RenderedGeo(geo, geofences: geofences)
        var out: [UInt8] = []
        out.reserveCapacity(rendered.bytes.count + 20)
        // the rendering starts `,"geo":` (its key, for a splice); the object follows it
        let objectStart = rendered.bytes.firstIndex(of: UInt8(ascii: "{"))!
        out.append(contentsOf: rendered.bytes[objectStart..<rendered.ageOffset])
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var writer = ByteWriter(buffer)
            OrjsonText.writeInteger(ageMilliseconds, to: &writer)
            out.append(contentsOf: writer.written)
        }
        // and ends `}}`: the object's brace, then the record's
        out.append(contentsOf: rendered.bytes[rendered.ageOffset..<(rendered.bytes.count - 1)])
        return out
    }

    /// The enriched line as a new array; see ``append(line:closingBrace:geo:ageMilliseconds:to:)``.
    /// - Parameters:
    ///   - line: the input line.
    ///   - closingBrace: the record's ``ParsedRecord/closingBraceOffset``.
    ///   - geo: the values of the `geo` object.
    ///   - ageMilliseconds: milliseconds from the fix to this record.
    ///   - geofences: the fence set's table, when `geo` has a ``Enrichment/geofences`` list.
    /// - Returns: the output line, without a line terminator.
    /// - Complexity: O(line length).
    public static func enriched(line: [UInt8], closingBrace: Int, geo: Enrichment, ageMilliseconds: Int64,
                                geofences: GeofenceListTable? = nil) -> [UInt8] {
        var output: [UInt8] = []
        line.withUnsafeBufferPointer {
            append(line: $0, closingBrace: closingBrace, geo: geo, ageMilliseconds: ageMilliseconds,
                   geofences: geofences, to: &output)
        }
        return output
    }

    /// Makes room for `extra` more bytes, growing geometrically: `reserveCapacity` with the exact
    /// size would reallocate on almost every line appended to a reused buffer.
    @inline(__always)
    private static func reserve(_ output: inout [UInt8], _ extra: Int) {
        let needed = output.count + extra
        if needed > output.capacity { output.reserveCapacity(max(needed, 2 * output.capacity)) }
    }

    // MARK: Rendering

    @inline(__always)
    private static func checkClosingBrace(_ line: UnsafeBufferPointer<UInt8>, _ closingBrace: Int) {
        precondition(closingBrace >= 0 && closingBrace < line.count && line[closingBrace] == UInt8(ascii: "}"),
                     "closingBrace must be the offset of the record's closing brace")
    }

    /// An upper bound of the `geo` text's length (about 400) but for its `geofences` array: the
    /// keys, at most four numbers of 24 bytes and two of 20, a timestamp of 32, the cell's 15 hex
    /// digits, the codes' 12 letters and a zone name (at most 32).
    static let capacity = 512

    /// The room a `geo` text needs with its `geofences` array (JSON), if any: the array's length
    /// is the users' fence ids', so it is added to the bound rather than bounded.
    @inline(__always)
    static func capacity(geofences array: UnsafeBufferPointer<UInt8>?) -> Int { capacity + (array.map { $0.count + 16 } ?? 0) }

    /// The `geofences` array of `geo` as JSON, read from its fence set's table (memory the
    /// table owns: valid while the caller holds `table`); `nil` when `geo` has no list (fences
    /// were not asked for).
    @inline(__always)
    static func geofenceArray(_ geo: Enrichment, _ table: GeofenceListTable?) -> UnsafeBufferPointer<UInt8>? {
        guard let list = geo.geofences else { return nil }
        guard let table else { preconditionFailure("an enrichment with a geofence list is written with its fence set's table") }
        return table.text(of: list)
    }

    /// `,"geo":{"latitude":…,"longitude":…,"accuracy":…,"fix_timestamp":"…","age_ms":`
    static func writeHead(_ geo: Enrichment, to w: inout ByteWriter) {
        w.write(#","geo":{"latitude":"#)
        OrjsonText.writeNumber(geo.latitude, to: &w)
        w.write(#","longitude":"#)
        OrjsonText.writeNumber(geo.longitude, to: &w)
        if let accuracy = geo.accuracy {
            w.write(#","accuracy":"#)
            OrjsonText.writeNumber(accuracy, to: &w)
        }
        w.write(#","fix_timestamp":"#)
        OrjsonText.writeISOTimestamp(milliseconds: geo.fixTimestamp.milliseconds, to: &w)
        w.write(#","age_ms":"#)
    }

    /// `,"h3":"…","country":"…","postalcode":"…","fsa":"…","postal_distance_m":…,"timezone":"…","utc_offset_s":…,"geofences":[…]}}`
    /// (`geofences` the JSON array of ``geofenceArray(_:_:)``; the writer sized with
    /// ``capacity(geofences:)``).
    static func writeTail(_ geo: Enrichment, geofences array: UnsafeBufferPointer<UInt8>?, to w: inout ByteWriter) {
        w.write(#","h3":"#)
        OrjsonText.writeHexString(geo.h3.rawValue, to: &w)
        // the codes are ASCII letters, digits and a space: JSON strings without escapes, written
        // from their packed bytes (making each a `String` first cost an allocation-free but
        // uninlined String init a code, 3 % of a run with a million sessions, perf)
        if let country = geo.country {
            w.write(#","country":""#)
            w.write(word: UInt64(country.packed >> 8) | UInt64(country.packed & 0xFF) << 8, count: 2)
            w.write(UInt8(ascii: "\""))
        }
        if let postal = geo.postal {
            w.write(#","postalcode":""#)
            let code = postal.code.textBytes(count: 6, spaced: true)
            w.write(word: code.word, count: code.count)
            w.write(UInt8(ascii: "\""))
            if postal.code.system == .canada {
                w.write(#","fsa":""#)
                w.write(word: code.word, count: 3)
                w.write(UInt8(ascii: "\""))
            }
            w.write(#","postal_distance_m":"#)
            OrjsonText.writeFloat(postal.distanceMetres, to: &w)
        }
        if let zone = geo.timeZone {
            w.write(#","timezone":"#)
            writeZoneName(zone, to: &w)
        }
        if let offset = geo.utcOffsetSeconds {
            w.write(#","utc_offset_s":"#)
            OrjsonText.writeInteger(Int64(offset), to: &w)
        }
        if let array {
            w.write(#","geofences":"#)
            w.write(array)
        }
        w.write("}}")
    }

    /// A zone's IANA name as a JSON string: the names need no escapes (letters, digits and
    /// `/_-+`; a GeoModel test checks every one), so the static text is copied as it is.
    static func writeZoneName(_ zone: TimeZoneID, to w: inout ByteWriter) {
        w.write(UInt8(ascii: "\""))
        w.write(zone.staticName)
        w.write(UInt8(ascii: "\""))
    }
}
