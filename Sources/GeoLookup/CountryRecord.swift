import GeoModel

/// One admin-0 record of the countries file: its code, where its WKB is, and its bounding box.
struct CountryRecord: Sendable {
    /// `ISO_A2_EH`, or `nil` where Natural Earth has `-99`.
    let code: CountryCode?
    /// The byte range of the record's WKB within the WKB section.
    let wkb: Range<Int>
    /// The bounding box in degrees, exactly the extremes of the record's coordinates.
    let minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double

    /// Whether the closed bounding box holds the point; a record can only intersect points
    /// for which this is true.
    func boundingBoxContains(latitude: Double, longitude: Double) -> Bool {
        latitude >= minLatitude && latitude <= maxLatitude && longitude >= minLongitude && longitude <= maxLongitude
    }

    /// Decodes record `index` from the records section, checking what can be checked alone.
    ///
    /// - Parameters:
    ///   - bytes: the records section.
    ///   - index: the record's position.
    ///   - wkbSectionSize: the size of the WKB section, which the record's range must lie in.
    /// - Throws: the reason, as text, for ``CountryIndex`` to wrap.
    init(_ bytes: UnsafeRawBufferPointer, index: Int, wkbSectionSize: Int) throws(CountryFileProblem) {
        typealias L = CountryFileLayout
        let base = index * L.recordSize
        func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: base + o, as: UInt32.self)) }
        func f64(_ o: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + o, as: UInt64.self)))
        }
        let first = bytes[base + L.recordCodeOffset], second = bytes[base + L.recordCodeOffset + 1]
        if first == 0 && second == 0 {
            code = nil
        } else if let c = CountryCode(first: first, second: second) {
            code = c
        } else {
            throw CountryFileProblem("record \(index) has code bytes \(first), \(second), not two letters A-Z")
        }
        let reserved = bytes[(base + L.recordReservedOffset)..<(base + L.recordReservedOffset + L.recordReservedSize)]
        guard reserved.allSatisfy({ $0 == 0 }) else { throw CountryFileProblem("record \(index) has non-zero reserved bytes") }
        let offset = Int(u32(L.recordWKBOffsetOffset)), length = Int(u32(L.recordWKBLengthOffset))
        guard offset % 8 == 0, length > 0, offset <= wkbSectionSize, length <= wkbSectionSize - offset else {
            throw CountryFileProblem("record \(index) has WKB at \(offset) of \(length) bytes, outside the \(wkbSectionSize)-byte section")
        }
        wkb = offset..<(offset + length)
        minLongitude = f64(L.recordBoundingBoxOffset)
        minLatitude = f64(L.recordBoundingBoxOffset + 8)
        maxLongitude = f64(L.recordBoundingBoxOffset + 16)
        maxLatitude = f64(L.recordBoundingBoxOffset + 24)
        guard minLongitude <= maxLongitude, minLatitude <= maxLatitude,
              [minLongitude, minLatitude, maxLongitude, maxLatitude].allSatisfy(\.isFinite) else {
            throw CountryFileProblem("record \(index) has an empty or non-finite bounding box")
        }
    }
}

/// Why a countries file's structure is inconsistent (becomes ``DataFileError/Reason/corrupt(_:)``).
struct CountryFileProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
