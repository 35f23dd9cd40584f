import Foundation
import H3Core
import TestSupport
import Testing

@testable import GeoLookup

@Suite("TimeZoneIndex: timezonefinder 9.0.0's timezone_at, bit for bit")
struct TimeZoneIndexTests {
    static let index: TimeZoneIndex = {
        do { return try TimeZoneIndex(path: TestData.data("timezones.bin")) } catch { fatalError("\(error)") }
    }()

    /// `timezone_reference.txt`: points and the zone PyPI timezonefinder 9.0.0 gives them
    /// (scripts/dev/gen_timezone_reference.py; named points first, each with a `# label`).
    static let reference: [(latitude: Double, longitude: Double, zone: String, label: String?)] = {
        do {
            return try TestData.fixture("timezone_reference.txt").map { line in
                let parts = line.split(separator: "#", maxSplits: 1)
                let f = parts[0].split(separator: " ")
                let label = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
                return (Double(f[0])!, Double(f[1])!, String(f[2]), label)
            }
        } catch { fatalError("\(error)") }
    }()

    @Test("named places: Indiana, Kentucky and North Dakota counties, Alaska, Hawaii, Puerto Rico, oceans, antimeridian, poles")
    func namedPlaces() throws {
        let named = Self.reference.filter { $0.label != nil }
        #expect(named.count >= 50)
        for p in named {
            let got = Self.index.zone(latitude: p.latitude, longitude: p.longitude)?.name
            #expect(got == p.zone, "\(p.label!) (\(p.latitude), \(p.longitude))")
        }
    }

    @Test("6,000 random points of the reference (uniform, US, near vertices), with and without the tree")
    func referencePoints() throws {
        var mismatches = 0
        for p in Self.reference {
            let tree = Self.index.zone(latitude: p.latitude, longitude: p.longitude)?.name
            let cell = Self.index.zoneWithoutTree(latitude: p.latitude, longitude: p.longitude)?.name
            if tree != p.zone || cell != p.zone {
                mismatches += 1
                if mismatches <= 10 {
                    Issue.record("(\(p.latitude), \(p.longitude)): timezone_at \(p.zone), tree \(tree ?? "nil"), cell \(cell ?? "nil")")
                }
            }
        }
        #expect(Self.reference.count == 6_056)
        #expect(mismatches == 0)
    }

    /// The tree answers only where the builder proved its zone is the package's; on fresh points
    /// it must agree with the package's own path (the H3 cell, then the candidates) everywhere.
    @Test("the tree's answers equal the H3 path's on 300,000 fresh points")
    func treeAgreesWithCells() throws {
        let seed = testSeed("TimeZoneIndexTests.treeAgreesWithCells")
        var rng = SplitMix64(seed: seed)
        var differ = 0, answeredByTree = 0
        let n = 300_000
        for i in 0..<n {
            let lat: Double, lng: Double
            switch i % 3 {
            case 0:  // uniform on the sphere
                lat = asin(rng.uniform(-1, 1)) * 180 / .pi
                lng = rng.uniform(-180, 180)
            case 1:  // North America, where borders are dense
                lat = rng.uniform(24, 62)
                lng = rng.uniform(-135, -52)
            default:  // tile edges and box middles: whole and half degrees, exactly or nearly
                lat = (rng.uniform(-80, 80) * 32).rounded() / 32 + [0, 1e-12, -1e-12][Int(rng.next() % 3)]
                lng = (rng.uniform(-177, 177) * 32).rounded() / 32 + [0, 1e-12, -1e-12][Int(rng.next() % 3)]
            }
            let tree = Self.index.zone(latitude: lat, longitude: lng)
            let cell = Self.index.zoneWithoutTree(latitude: lat, longitude: lng)
            if Self.index.tables.treeEntry(latitude: lat, longitude: lng) != TimeZoneFileLayout.entryCell { answeredByTree += 1 }
            if tree != cell || tree == nil {
                differ += 1
                if differ <= 10 { Issue.record("seed \(seed): (\(lat), \(lng)): tree \(String(describing: tree)), cell \(String(describing: cell))") }
            }
        }
        #expect(differ == 0)
        #expect(answeredByTree > n / 2)
    }

    @Test("the benchmarks' city points are answered by the tree alone")
    func cityPointsUseTheTree() {
        // LookupInputs.cities of benchmarks/: centre and spread in degrees of latitude
        let cities: [(Double, Double, Double)] = [
            (43.6532, -79.3832, 0.15), (45.5019, -73.5674, 0.12), (49.2827, -123.1207, 0.10), (51.0447, -114.0719, 0.12),
            (49.8951, -97.1384, 0.08), (44.6488, -63.5752, 0.06), (45.4215, -75.6972, 0.08), (53.5461, -113.4938, 0.10),
            (46.8139, -71.2080, 0.06), (50.4452, -104.6189, 0.05), (47.5615, -52.7126, 0.04), (60.7212, -135.0568, 0.03),
        ]
        var rng = SplitMix64(seed: 0x6369_7469_6573)
        var viaCell = 0
        for _ in 0..<120_000 {
            let (lat, lng, spread) = cities[Int(rng.next() % UInt64(cities.count))]
            let a = lat + rng.uniform(-spread, spread), o = lng + rng.uniform(-spread, spread) / cos(lat * .pi / 180)
            if Self.index.tables.treeEntry(latitude: a, longitude: o) == TimeZoneFileLayout.entryCell { viaCell += 1 }
        }
        #expect(viaCell == 0)
    }

    @Test("coordinates out of range or not numbers have no zone; the range's ends do")
    func outOfRange() {
        let index = Self.index
        for (lat, lng) in [(90.000001, 0.0), (-90.000001, 0.0), (0.0, 180.000001), (0.0, -180.000001), (.nan, 0.0), (0.0, .nan),
                           (.infinity, 0.0), (0.0, -.infinity)] {
            #expect(index.zone(latitude: lat, longitude: lng) == nil, "(\(lat), \(lng))")
        }
        for (lat, lng) in [(90.0, 180.0), (-90.0, -180.0), (90.0, -180.0), (-90.0, 180.0), (0.0, 0.0), (-0.0, -0.0)] {
            #expect(index.zone(latitude: lat, longitude: lng) != nil, "(\(lat), \(lng))")
        }
    }

    @Test("zone ids and names: the compiled table is the file's")
    func names() throws {
        #expect(Self.index.zoneCount == TimeZoneID.count)
        #expect(TimeZoneID.count == 444)
        let toronto = try #require(TimeZoneID(name: "America/Toronto"))
        #expect(toronto.name == "America/Toronto")
        #expect(TimeZoneID(rawValue: toronto.rawValue) == toronto)
        #expect(TimeZoneID(name: "US/Eastern") == nil)
        #expect(TimeZoneID(rawValue: UInt16(TimeZoneID.count)) == nil)
        #expect(MemoryLayout<TimeZoneID?>.size <= 3)
        #expect(_isPOD(TimeZoneID?.self))
    }

    @Test("a quick timing, printed for the record (not a benchmark)")
    func timing() {
        let index = Self.index
        var rng = SplitMix64(seed: 7)
        // city points (the Toronto, Vancouver and Halifax boxes, the ones with candidate lists
        // near them), a box over Indiana and Kentucky's zone borders, the sphere, and borders
        let city = (0..<100_000).map { i -> (Double, Double) in
            let c = [(43.6532, -79.3832, 0.15), (49.2827, -123.1207, 0.10), (44.6488, -63.5752, 0.06)][i % 3]
            return (c.0 + rng.uniform(-c.2, c.2), c.1 + rng.uniform(-c.2, c.2) / cos(c.0 * .pi / 180))
        }
        let indiana = (0..<20_000).map { _ in (rng.uniform(37.5, 41.5), rng.uniform(-88.0, -84.5)) }
        let uniform = (0..<100_000).map { _ in (asin(rng.uniform(-1, 1)) * 180 / .pi, rng.uniform(-180, 180)) }
        // the reference's last 2,000 points lie within 0.01° of the package's vertices: borders
        // and coasts, most in cells with candidate lists
        let nearVertices = Self.reference.suffix(2_000).map { ($0.latitude, $0.longitude) }
        // what the tree saves: latLngToCell at resolution 4 alone, on the city points
        let clock = ContinuousClock()
        var cells: UInt64 = 0
        var h3Time = Duration.seconds(1_000)
        for _ in 0..<3 {
            h3Time = min(h3Time, clock.measure {
                for (lat, lng) in city { cells &+= (try? H3Cell(LatLng(latitude: lat, longitude: lng), resolution: TimeZoneFileLayout.resolution))?.rawValue ?? 0 }
            })
        }
        print("TimeZoneIndex timing: H3Cell at resolution 4 alone, city points: \(Self.nanoseconds(h3Time, city.count)) ns a point (checksum \(cells))")
        for (name, points) in [("city points", city), ("Indiana/Kentucky box", indiana), ("uniform", uniform),
                               ("within 0.01° of vertices", nearVertices)] {
            // the best of three passes each, alternating, so that neither path runs on the
            // other's warm caches only
            var best = [Duration.seconds(1_000), .seconds(1_000)]
            var sink = 0
            for _ in 0..<3 {
                for (k, treeFirst) in [true, false].enumerated() {
                    let elapsed = clock.measure {
                        for (lat, lng) in points {
                            let z = treeFirst ? index.zone(latitude: lat, longitude: lng) : index.zoneWithoutTree(latitude: lat, longitude: lng)
                            sink &+= Int(z?.rawValue ?? 0)
                        }
                    }
                    best[k] = min(best[k], elapsed)
                }
            }
            print("TimeZoneIndex timing: \(name): tree \(Self.nanoseconds(best[0], points.count)) ns a point, "
                  + "H3 path \(Self.nanoseconds(best[1], points.count)) ns (checksum \(sink))")
        }
    }

    static func nanoseconds(_ d: Duration, _ count: Int) -> Int {
        Int((Double(d.components.attoseconds) / 1e9 + Double(d.components.seconds) * 1e9) / Double(count))
    }

    // MARK: damaged files

    @Test("a truncated file is refused with its name")
    func truncated() throws {
        let path = try TestData.alteredCopy(of: "timezones.bin") { $0 = $0.prefix($0.count - 4096) }
        let error = #expect(throws: DataFileError.self) { try TimeZoneIndex(path: path) }
        let e = try #require(error)
        #expect(e.path == path && e.description.contains(path) && e.description.contains("truncated"))
    }

    @Test("a flipped byte is caught by the checksum")
    func flippedByte() throws {
        let path = try TestData.alteredCopy(of: "timezones.bin") { $0[$0.count / 2] ^= 0x10 }
        let error = #expect(throws: DataFileError.self) { try TimeZoneIndex(path: path) }
        let e = try #require(error)
        guard case .checksumMismatch = e.reason else {
            Issue.record("expected a checksum mismatch, got \(e)")
            return
        }
        #expect(e.description.contains(path))
    }

    @Test("a file of another kind or a missing file is an error")
    func wrongFile() throws {
        let error = #expect(throws: DataFileError.self) { try TimeZoneIndex(path: TestData.data("countries.bin")) }
        #expect(error.map { "\($0)".contains("countries.bin") && "\($0)".contains("GETZONE1") } == true)
        #expect(throws: DataFileError.self) { try TimeZoneIndex(path: "/nonexistent/timezones.bin") }
    }

    /// Damage that keeps the checksum right (as a buggy builder would write it) is caught by the
    /// structure checks at open, so that no lookup can trap later, and a file of other zones is
    /// refused with the first zone that differs.
    @Test("inconsistent structure or other zone names, with a valid checksum", arguments: StructuralDamage.allCases)
    func structure(_ damage: StructuralDamage) throws {
        let t = Self.index.tables
        let payload = Self.index.file.payload.baseAddress!
        func at<T>(_ b: UnsafeBufferPointer<T>) -> Int { UnsafeRawPointer(b.baseAddress!) - payload }
        let path = try TestData.alteredCopy(of: "timezones.bin") { data in
            func put<T: FixedWidthInteger>(_ value: T, atPayload offset: Int) {
                withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange((128 + offset)..<(128 + offset + MemoryLayout<T>.size), with: $0) }
            }
            switch damage {
            case .slotNamesMissingList: put(UInt16(0x8000 | 0x7FF0), atPayload: at(t.slots) + 2 * Self.firstUsedSlot(t))
            case .tileNamesMissingZone: put(UInt32(9_999), atPayload: at(t.tiles))
            case .nodeLoopsBack: put(TimeZoneFileLayout.kindNode | 0, atPayload: at(t.nodes) + 16)
            case .listNamesMissingPolygon: put(UInt16(60_000), atPayload: at(t.listPolygons))
            case .blockCutInAVarint: put(Int32(t.blocks[TimeZoneFileLayout.blockDataEnd]) + 1, atPayload: at(t.blocks) + 4 * TimeZoneFileLayout.blockDataEnd)
            case .otherZoneName:
                // the first zone's name, "Africa/Abidjan", with one letter changed
                let name = 128 + (UnsafeRawPointer(Self.nameBytes.baseAddress!) - UnsafeRawPointer(payload))
                data[name] = UInt8(ascii: "X")
            }
            TestData.rechecksum(&data)
        }
        try TestData.expectCorrupt(path, mentions: damage.mentions) { _ = try TimeZoneIndex(path: path) }
    }

    /// The name bytes: the section after the `params` and the names' offsets.
    static var nameBytes: UnsafeRawBufferPointer {
        let payload = index.file.payload
        let offsetsBytes = (4 * (TimeZoneID.count + 1) + 7) & ~7
        return UnsafeRawBufferPointer(rebasing: payload[(4 * TimeZoneFileLayout.parameterCount + offsetsBytes)...])
    }

    static func firstUsedSlot(_ t: TimeZoneTables) -> Int { t.slots.firstIndex { $0 != TimeZoneFileLayout.slotEmpty }! }

    enum StructuralDamage: String, CaseIterable, Sendable {
        case slotNamesMissingList, tileNamesMissingZone, nodeLoopsBack, listNamesMissingPolygon, blockCutInAVarint, otherZoneName

        var mentions: String {
            switch self {
            case .slotNamesMissingList: "names list 32752"
            case .tileNamesMissingZone: "names zone 9999"
            case .nodeLoopsBack: "not after its own"
            case .listNamesMissingPolygon: "names polygon 60000"
            case .blockCutInAVarint: "block 0"
            case .otherZoneName: "zone 0 is \"Xfrica/Abidjan\" in the file"
            }
        }
    }
}
