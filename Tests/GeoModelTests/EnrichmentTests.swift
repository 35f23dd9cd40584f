import GeoModel
import H3Core
import Testing

/// The `geo` value keeps every number as the record wrote it, in its compact layout.
@Suite struct EnrichmentTests {
    static let cell = H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!

    static func enrichment(_ lat: JSONNumber, _ lng: JSONNumber, _ acc: JSONNumber?) -> Enrichment {
        Enrichment(latitude: lat, longitude: lng, accuracy: acc, fixTimestamp: Timestamp(milliseconds: 1),
                   h3: cell, country: CountryCode("CA"), postal: PostalMatch(code: PostalCode("R3C 4L9")!, distanceMetres: 19.7))
    }

    @Test(arguments: [
        (JSONNumber.integer(49), JSONNumber.integer(-97), JSONNumber?.none),
        (.double(49.0), .double(-0.0), .integer(0)),
        (.integer(-90), .integer(180), .integer(9_007_199_254_740_993)),
        (.double(-89.999999999999), .double(179.5), .unsignedInteger(.max)),
        (.double(.leastNonzeroMagnitude), .integer(0), .double(12.5)),
        (.integer(0), .double(1e-7), .integer(.max)),
    ])
    func numbersComeBackAsWritten(lat: JSONNumber, lng: JSONNumber, acc: JSONNumber?) {
        let e = Self.enrichment(lat, lng, acc)
        // the same case and value: `49` stays an integer, `-0.0` keeps its sign, 2^53 + 1 its last bit
        #expect(String(describing: e.latitude) == String(describing: lat))
        #expect(String(describing: e.longitude) == String(describing: lng))
        #expect(String(describing: e.accuracy) == String(describing: acc))
        #expect(e.latitudeDegrees == lat.doubleValue && e.longitudeDegrees == lng.doubleValue)
    }

    @Test func aSessionsValueStaysAsSmallAsTheMemoryTargetWasMeasuredWith() {
        // 80 bytes: the session table's state holds one (see Enrichment's doc); 65 before the
        // time zone and its offset, 77 before the geofence list (which fits the padding)
        #expect(MemoryLayout<Enrichment>.size == 80 && MemoryLayout<Enrichment>.stride == 80)
        #expect(_isPOD(Enrichment.self), "copied as bytes: no reference counting per session")
    }

    /// The `geo` writer copies a zone's name into JSON as it is: no name may need an escape, and
    /// none is longer than the 32 bytes its buffer allows for.
    @Test func everyZoneNameIsPlainJSONText() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_-+".utf8)
        for raw in 0..<UInt16(TimeZoneID.count) {
            let name = TimeZoneID(rawValue: raw)!.name
            #expect(name.utf8.allSatisfy(allowed.contains) && name.utf8.count <= 32, "\(name)")
        }
        #expect(TimeZoneID(name: "America/Winnipeg")?.name == "America/Winnipeg")
    }
}
