/// Writes an SDK payload line with its records' enrichment placed where ``SDKRecordParser`` said:
/// values replaced, members inserted before an object's `}`, every other byte copied.
public enum SDKSplice {
    /// Appends the enriched line (without a terminator) to `output`.
    ///
    /// - Parameters:
    ///   - line: the input line, as parsed.
    ///   - records: the line's records.
    ///   - geos: each record's enrichment with its age in milliseconds (0 on a fix), or `nil`
    ///     to leave the record as it is.
    ///   - geofences: the fence set's table, when the enrichments have ``Enrichment/geofences``.
    ///   - output: the buffer to append to.
    /// - Complexity: O(n) in the line's length.
    public static func append(line: UnsafeBufferPointer<UInt8>, records: [SDKRecord],
                              geos: [(geo: Enrichment, ageMilliseconds: Int64)?], geofences: GeofenceListTable? = nil,
                              to output: inout [UInt8]) {
        var edits: [(SDKPlacement, (geo: Enrichment, ageMilliseconds: Int64))] = []
        for (record, geo) in zip(records, geos) {
            guard let geo else { continue }
            // no postal code or time zone to give: the payload's own, if any, stays as it is
            for placement in record.placements where placement.content.isGiven(by: geo.geo) {
                edits.append((placement, geo))
            }
        }
        // stable: insertions at one point keep the order they were listed in
        let ordered = edits.enumerated().sorted {
            ($0.element.0.range.lowerBound, $0.offset) < ($1.element.0.range.lowerBound, $1.offset)
        }.map(\.element)
        var copied = 0
        for (placement, geo) in ordered {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: line[copied..<placement.range.lowerBound]))
            write(placement, geo, geofences, to: &output)
            copied = placement.range.upperBound
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: line[copied...]))
    }

    private static func write(_ placement: SDKPlacement, _ enrichment: (geo: Enrichment, ageMilliseconds: Int64),
                              _ geofences: GeofenceListTable?, to output: inout [UInt8]) {
        let geo = enrichment.geo
        let array = Splice.geofenceArray(geo, geofences)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Splice.capacity(geofences: array) + 64) { buffer in
            var w = ByteWriter(buffer)
            let insert = placement.isInsertion
            let comma = insert && placement.needsComma
            switch placement.content {
            case .h3Index:
                if insert { w.write(comma ? #","h3Index":"# : #""h3Index":"#) }
                OrjsonText.writeHexString(geo.h3.rawValue, to: &w)
            case .postalcode:
                let postal = geo.postal!
                if insert { w.write(comma ? #","postalcode":"# : #""postalcode":"#) }
                w.write(#"{"postalcode":"#)
                OrjsonText.writeString(postal.code.compact, to: &w)
                if let fsa = postal.fsa {
                    w.write(#","fsa":"#)
                    OrjsonText.writeString(fsa, to: &w)
                }
                w.write(UInt8(ascii: "}"))
            case .timezone:
                if insert { w.write(comma ? #","timezone":"# : #""timezone":"#) }
                Splice.writeZoneName(geo.timeZone!, to: &w)
            case .geofences:
                if insert { w.write(comma ? #","geofences":"# : #""geofences":"#) }
                w.write(array!)
            case .geo:
                // Splice's text is `,"geo":{…}}`: the last `}` closes the record, which stays in the line
                Splice.writeHead(geo, to: &w)
                OrjsonText.writeInteger(enrichment.ageMilliseconds, to: &w)
                Splice.writeTail(geo, geofences: array, to: &w)
                let text = UnsafeBufferPointer(rebasing: w.written[(comma ? 0 : 1)..<(w.count - 1)])
                output.append(contentsOf: text)
                return
            case .geoWithoutPosition:
                w.write(comma ? #","geo":{"# : #""geo":{"#)
                if let accuracy = geo.accuracy {
                    w.write(#""accuracy":"#)
                    OrjsonText.writeNumber(accuracy, to: &w)
                    w.write(UInt8(ascii: ","))
                }
                w.write(#""fix_timestamp":"#)
                OrjsonText.writeISOTimestamp(milliseconds: geo.fixTimestamp.milliseconds, to: &w)
                w.write(#","age_ms":"#)
                OrjsonText.writeInteger(enrichment.ageMilliseconds, to: &w)
                Splice.writeTail(geo, geofences: array, to: &w)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: w.written[..<(w.count - 1)]))
                return
            case .latitude:
                if insert { w.write(comma ? #","latitude":"# : #""latitude":"#) }
                OrjsonText.writeNumber(geo.latitude, to: &w)
            case .longitude:
                if insert { w.write(comma ? #","longitude":"# : #""longitude":"#) }
                OrjsonText.writeNumber(geo.longitude, to: &w)
            }
            output.append(contentsOf: w.written)
        }
    }
}

extension SDKPlacement.Content {
    /// Whether an enrichment has what this placement writes: EQWorks' `postalcode`, `timezone`
    /// and `geofences` are written only when there is one.
    func isGiven(by geo: Enrichment) -> Bool {
        switch self {
        case .postalcode: geo.postal != nil
        case .timezone: geo.timeZone != nil
        case .geofences: geo.geofences != nil
        case .h3Index, .geo, .geoWithoutPosition, .latitude, .longitude: true
        }
    }
}
