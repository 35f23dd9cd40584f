import Foundation
import GeoBridge
import TestSupport
import Testing

@testable import GeoLookup

/// A point with the country the rule gives it.
struct CountryLandmark: Sendable, CustomTestStringConvertible {
    let name: String
    let latitude: Double
    let longitude: Double
    let expected: String?

    var testDescription: String { "\(name) (\(latitude), \(longitude)) → \(expected ?? "none")" }
}

@Suite("CountryIndex: the Natural Earth 10 m admin-0 country of a point")
struct CountryIndexTests {
    static let index: CountryIndex = {
        do { return try CountryIndex(path: TestData.data("countries.bin")) } catch { fatalError("\(error)") }
    }()

    // Every expectation was checked with shapely 2.2 (GEOS 3.14) against
    // ne_10m_admin_0_countries_deu.shp under the peer's rule (the lowest-index record whose
    // geometry intersects the point; scripts/geoenrich_tools/country_rule.py BruteForce and the peer's own
    // `Countries` class agree on all of them).
    static let landmarks: [CountryLandmark] = [
        .init(name: "Detroit", latitude: 42.3314, longitude: -83.0458, expected: "US"),
        .init(name: "Windsor", latitude: 42.3149, longitude: -83.0364, expected: "CA"),
        .init(name: "Niagara Falls NY", latitude: 43.0962, longitude: -79.0377, expected: "US"),
        .init(name: "Niagara Falls ON", latitude: 43.0896, longitude: -79.0849, expected: "CA"),
        .init(name: "Sault Ste. Marie MI", latitude: 46.4953, longitude: -84.3453, expected: "US"),
        .init(name: "Sault Ste. Marie ON", latitude: 46.5219, longitude: -84.3461, expected: "CA"),
        // Natural Earth's 10 m border runs at 48.99251° N here, south of the 49th parallel, so
        // Blaine's listed centre (48.9937) falls in Canada under the rule; 1.4 km south is US.
        .init(name: "Blaine WA centre", latitude: 48.9937, longitude: -122.7471, expected: "CA"),
        .init(name: "Blaine WA south", latitude: 48.98, longitude: -122.70, expected: "US"),
        .init(name: "Surrey BC", latitude: 49.1913, longitude: -122.8490, expected: "CA"),
        // The EQWorks seed fixes (../shared/seeds/eqworks-ios-sdk.md).
        .init(name: "seed Winnipeg", latitude: 49.888171, longitude: -97.131112, expected: "CA"),
        .init(name: "seed Western Sahara", latitude: 23.456755, longitude: -12.651229, expected: "EH"),
        .init(name: "open Pacific", latitude: 0, longitude: -140, expected: nil),
        .init(name: "North Pole", latitude: 90, longitude: 0, expected: nil),
        .init(name: "Antarctica", latitude: -89.5, longitude: 0, expected: "AQ"),
        .init(name: "Fiji on the antimeridian", latitude: -16.5, longitude: 180, expected: "FJ"),
        // Guantánamo Bay is record 132, whose ISO_A2_EH is -99: it claims the point, which
        // therefore gets no country even though Cuba (record 133) surrounds it.
        .init(name: "Guantanamo Bay (-99)", latitude: 19.9347, longitude: -75.2037, expected: nil),
    ]

    @Test("border towns, seed points and edge cases", arguments: landmarks)
    func landmark(_ p: CountryLandmark) throws {
        let locator = try CountryLocator(index: Self.index)
        #expect(locator.country(latitude: p.latitude, longitude: p.longitude)?.description == p.expected)
    }

    @Test("a -99 record still claims its points")
    func recordWithoutCode() throws {
        let locator = try CountryLocator(index: Self.index)
        #expect(locator.record(latitude: 19.9347, longitude: -75.2037) == 132)
        #expect(Self.index.records[132].code == nil)
        #expect(Self.index.records[133].code == CountryCode("CU"))
    }

    @Test("agrees with shapely on 4,045 reference points (countries_reference.txt)")
    func reference() throws {
        let locator = try CountryLocator(index: Self.index)
        var cases = 0, mismatches = 0, tested = 0
        for line in try TestData.fixture("countries_reference.txt") {
            let f = line.split(separator: " ")
            try #require(f.count == 5, "malformed line \(line)")
            let lat = try #require(Double(f[0])), lng = try #require(Double(f[1]))
            let record = f[2] == "-" ? nil : Int(f[2])
            let code = f[3] == "-" ? nil : CountryCode(f[3])
            cases += 1
            if case .list = Self.index.entry(latitude: lat, longitude: lng) { tested += 1 }
            let got = locator.record(latitude: lat, longitude: lng)
            let gotCode = locator.country(latitude: lat, longitude: lng)
            if got != record || gotCode != code {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record("\(line): got record \(got.map(String.init) ?? "-") \(gotCode?.description ?? "-")")
                }
            }
        }
        #expect(cases == 4045)
        #expect(tested > 1000, "the fixture should exercise the polygon tests")
        #expect(mismatches == 0)
    }

    @Test("most points in Canadian cities need no polygon test")
    func fastPath() {
        // A 41 × 41 lattice over ±0.1° around each city of the benchmark stream and the border towns.
        let cities: [(Double, Double)] = [
            (43.6532, -79.3832), (45.5019, -73.5674), (49.2827, -123.1207), (51.0447, -114.0719),
            (49.8951, -97.1384), (44.6488, -63.5752), (45.4215, -75.6972), (53.5461, -113.4938),
            (46.8139, -71.2080), (50.4452, -104.6189), (47.5615, -52.7126), (60.7212, -135.0568),
            (42.3149, -83.0364), (43.0896, -79.0849), (46.5219, -84.3461), (49.1913, -122.8490),
        ]
        var points = 0, listed = 0
        for (lat, lng) in cities {
            for i in -20...20 {
                for j in -20...20 {
                    points += 1
                    if case .list = Self.index.entry(latitude: lat + Double(i) * 0.005, longitude: lng + Double(j) * 0.005) {
                        listed += 1
                    }
                }
            }
        }
        #expect(Double(listed) / Double(points) < 0.03, "\(listed) of \(points) city points need a polygon test")
    }

    @Test("coordinates outside the world or not finite have no country")
    func outOfRange() throws {
        let locator = try CountryLocator(index: Self.index)
        for (lat, lng) in [(90.5, 0.0), (-91, 0), (45, 180.5), (45, -181), (.nan, 0), (0, .nan),
                           (.infinity, 0), (45, -.infinity)] {
            #expect(locator.country(latitude: lat, longitude: lng) == nil)
        }
    }

    @Test("testing a record's polygons one by one answers as the whole MultiPolygon does")
    func polygonsOneByOne() throws {
        // Canada and the United States (hundreds of polygons each, points near their borders
        // and coasts), and the records of most polygons elsewhere
        let context = try GEOSContext()
        let index = Self.index
        let names: Set<String> = ["CA", "US", "ID", "NO", "GR", "PH", "FJ", "RU"]
        let records = index.records.indices.filter { r in index.records[r].code.map { names.contains($0.description) } ?? false }
        #expect(records.count == names.count)
        let seed = testSeed("CountryIndexTests.polygonsOneByOne")
        var rng = SplitMix64(seed: seed)
        var inside = 0, tested = 0
        for r in records {
            let record = index.records[r]
            let wkb = index.wkb(ofRecord: r)
            let whole = try Geometry(wkb: wkb, context: context).prepared()
            let polygons = RecordPolygons(wkb: wkb)
            // points in the record's box, half of them on its polygons' outer rings' vertices (on
            // the boundary): a Polygon's WKB is byte order, type, ring count, then the outer
            // ring's point count at byte 9 and its points from byte 13
            let vertices = WKBStructure.polygons(in: wkb).flatMap { p -> [GeoPoint] in
                let count = Int(wkb.loadUnaligned(fromByteOffset: p.bytes.lowerBound + 9, as: UInt32.self))
                let first = p.bytes.lowerBound + 13
                return stride(from: first, to: first + 16 * count, by: 16 * 7).map { o in
                    GeoPoint(latitude: wkb.loadUnaligned(fromByteOffset: o + 8, as: Double.self),
                             longitude: wkb.loadUnaligned(fromByteOffset: o, as: Double.self))
                }
            }
            for k in 0..<4_000 {
                let point = k % 2 == 0 && !vertices.isEmpty ? vertices.randomElement(using: &rng)!
                    : GeoPoint(latitude: Double.random(in: record.minLatitude...record.maxLatitude, using: &rng),
                               longitude: Double.random(in: record.minLongitude...record.maxLongitude, using: &rng))
                let expected = try whole.intersects(point)
                #expect(try polygons.intersects(point, wkb: wkb, context: context) == expected,
                        "record \(r) at \(point.latitude), \(point.longitude) (seed 0x\(String(seed, radix: 16)))")
                tested += 1
                if expected { inside += 1 }
            }
        }
        // both answers occur (a test of only outside points would prove little)
        #expect(inside > tested / 4 && inside < tested, "\(inside) of \(tested) inside")
    }

    @Test("locators on several threads share one index and agree")
    func concurrent() async throws {
        let points = try TestData.fixture("countries_reference.txt").map { line -> (Double, Double) in
            let f = line.split(separator: " ")
            return (Double(f[0])!, Double(f[1])!)
        }
        let index = Self.index
        let serialLocator = try CountryLocator(index: index)
        let expected = points.map { serialLocator.country(latitude: $0.0, longitude: $0.1) }
        let answers = try await withThrowingTaskGroup(of: [CountryCode?].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let locator = try CountryLocator(index: index)
                    return points.map { locator.country(latitude: $0.0, longitude: $0.1) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 4)
        for a in answers { #expect(a == expected) }
    }

    // MARK: Damaged files

    @Test("a truncated file is an error that names it")
    func truncated() throws {
        let path = try TestData.alteredCopy(of: "countries.bin") { $0 = $0.prefix($0.count - 4096) }
        let error = #expect(throws: DataFileError.self) { try CountryIndex(path: path) }
        let e = try #require(error)
        #expect(e.path == path)
        #expect(e.description.contains(path) && e.description.contains("truncated"))
    }

    @Test("a flipped byte is caught by the checksum")
    func flippedByte() throws {
        let path = try TestData.alteredCopy(of: "countries.bin") { $0[$0.count / 2] ^= 0x04 }
        let error = #expect(throws: DataFileError.self) { try CountryIndex(path: path) }
        let e = try #require(error)
        guard case .checksumMismatch = e.reason else {
            Issue.record("expected a checksum mismatch, got \(e)")
            return
        }
        #expect(e.description.contains(path) && e.description.contains("checksum"))
    }

    @Test("a file of another kind or a missing file is an error")
    func wrongFile() throws {
        #expect(throws: DataFileError.self) { try CountryIndex(path: TestData.data("postal_ca.bin")) }
        #expect(throws: DataFileError.self) { try CountryIndex(path: "/nonexistent/countries.bin") }
    }

    /// Damage that keeps the checksum right (as a buggy builder would write it) is caught by the
    /// structure checks at open, so that no lookup can trap later.
    @Test("inconsistent structure with a valid checksum", arguments: StructuralDamage.allCases)
    func structure(_ damage: StructuralDamage) throws {
        let index = Self.index
        let payload = index.file.payload.baseAddress!
        let tiles = UnsafeRawPointer(index.tables.tiles.baseAddress!) - payload
        let nodes = UnsafeRawPointer(index.tables.nodes.baseAddress!) - payload
        let wkb = index.tables.wkb.baseAddress! - payload
        let path = try TestData.alteredCopy(of: "countries.bin") { data in
            func put(_ value: UInt32, atPayload offset: Int) {
                withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange((128 + offset)..<(132 + offset), with: $0) }
            }
            switch damage {
            case .tileNamesMissingRecord: put(9_999, atPayload: tiles)
            case .unusedEntryValue: put(0xC000_0001, atPayload: tiles + 4)
            case .nodeLoopsBack: put(CountryFileLayout.kindNode | 0, atPayload: nodes + 16)
            case .listOutOfRange: put(CountryFileLayout.kindList | 0x3FFF_FFF0, atPayload: tiles + 8)
            case .wkbTypeUnknown: data[128 + wkb + 1] = 7
            case .coordinateOutOfRange:
                // the second x of the first record's first ring (finite, and the ring still
                // closed, so only the range check refuses it): after the byte order, the type,
                // (for a MultiPolygon, the part count and the part's header,) the ring and point
                // counts, and the first point
                let type = data[128 + wkb + 1]
                let x = 128 + wkb + (type == 6 ? 22 : 13) + 16
                withUnsafeBytes(of: (1e300).bitPattern.littleEndian) { data.replaceSubrange(x..<(x + 8), with: $0) }
            }
            TestData.rechecksum(&data)
        }
        try TestData.expectCorrupt(path, mentions: damage.mentions) { _ = try CountryIndex(path: path) }
    }

    enum StructuralDamage: String, CaseIterable, Sendable {
        case tileNamesMissingRecord, unusedEntryValue, nodeLoopsBack, listOutOfRange, wkbTypeUnknown, coordinateOutOfRange

        var mentions: String {
            switch self {
            case .tileNamesMissingRecord: "names record 9999"
            case .unusedEntryValue: "unused entry value"
            case .nodeLoopsBack: "not after its own"
            case .listOutOfRange: "does not fit"
            case .wkbTypeUnknown: "geometry type 7"
            case .coordinateOutOfRange: "not in degrees within ±180 longitude"
            }
        }
    }
}

@Suite("CountryCode")
struct CountryCodeTests {
    @Test func parsesTwoUpperCaseLetters() throws {
        let ca = try #require(CountryCode("CA"))
        #expect(ca.description == "CA")
        #expect(CountryCode("US")! > ca)
        for bad in ["ca", "C", "CAN", "-99", "C1", "", "ÇA"] {
            #expect(CountryCode(bad) == nil, "\(bad)")
        }
    }
}
