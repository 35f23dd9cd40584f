#if canImport(Glibc)
import Glibc
#endif
import GeoBridge
import TestSupport
import Testing

@testable import GeoLookup

/// `GeofenceSet` used alone: loading, the refusals of rule 11, and membership on the cases whose
/// answer is known by construction (edges and corners of a square, a hole, a circle's radius).
/// The differential check against shapely and pyproj on random fences is scripts/ci/geofence_check.py.
@Suite struct GeofenceSetTests {
    static let file = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"square","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0.25,0.25],[0.5,0.25],[0.5,0.5],[0.25,0.5],[0.25,0.25]]]}},
        {"type":"Feature","id":7,"properties":{"radius_m":1000},"geometry":{"type":"Point","coordinates":[0.5,0.75]}},
        {"type":"Feature","properties":{"id":"é"},"geometry":{"type":"MultiPolygon","coordinates":[[[[0.5,0.5],[2,0.5],[2,2],[0.5,2],[0.5,0.5]]]]}}
        ]}
        """

    static func load(_ text: String) throws(GeofenceFileError) -> GeofenceSet {
        try GeofenceSet(json: Array(text.utf8), path: "test.geojson")
    }

    @Test func idsAreInUTF8OrderAndMembershipCoversTheBoundary() throws {
        let set = try Self.load(Self.file)
        #expect(set.fences.map(\.id) == ["7", "square", "é"])
        let locator = try set.makeLocator()
        func ids(_ lat: Double, _ lng: Double) -> [String] { locator.ids(containing: GeoPoint(latitude: lat, longitude: lng)) }
        #expect(ids(0.75, 0.5) == ["7", "square", "é"])      // the circle's centre, on the multipolygon's edge
        #expect(ids(0, 0) == ["square"])                      // a corner
        #expect(ids(1, 0.3) == ["square"])                    // the top edge
        #expect(ids(0.3, 0.3) == [])                          // in the hole
        #expect(ids(0.25, 0.3) == ["square"])                 // on the hole's edge: the boundary is inside
        #expect(ids(1.5, 1.5) == ["é"])
        #expect(ids(-0.000001, 0.5) == [])
        #expect(ids(.nan, 0) == [] && ids(91, 0) == [])
    }

    @Test func aCircleHoldsWhatIsWithinItsRadius() throws {
        let set = try Self.load(Self.file)
        let locator = try set.makeLocator()
        let center = GeoPoint(latitude: 0.75, longitude: 0.5)
        for bearing in stride(from: 0.0, to: 360, by: 15) {
            for distance in [999.0, 999.999, 1000.001, 1001] {
                let p = Self.point(from: center, metres: distance, bearing: bearing)
                let exact = Geodesic.wgs84.distance(from: center, to: p)
                #expect(locator.ids(containing: p).contains("7") == (exact <= 1000), "\(distance) m at \(bearing)°")
            }
        }
    }

    /// Each fence's membership test by the references alone, by fence number: PROJ's geodesic
    /// for a circle, GEOS's prepared `intersects` for a polygon (no grid, no even-odd rule).
    static func exactTests(_ set: GeofenceSet) throws -> [(GeoPoint) -> Bool] {
        let context = try GEOSContext()
        return try set.fences.map { fence in
            switch fence.shape {
            case .circle(let centre, let radius):
                return { Geodesic.wgs84.distance(from: centre, to: $0) <= radius }
            case .polygons(let polygons):
                let prepared = try Geometry(polygons: polygons, context: context).prepared()
                return { (try? prepared.intersects($0)) ?? false }
            }
        }
    }

    /// A point `metres` from `p` on `bearing` (a local plane step, then measured exactly above).
    static func point(from p: GeoPoint, metres: Double, bearing: Double) -> GeoPoint {
        let b = bearing * .pi / 180
        return GeoPoint(latitude: p.latitude + metres * cos(b) / 110_574,
                        longitude: p.longitude + metres * sin(b) / (111_320 * cos(p.latitude * .pi / 180)))
    }

    @Test(arguments: [
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}}]}"#, "feature \"x\": invalid Polygon: Self-intersection"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "feature \"c\": a Point fence needs properties.radius_m"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"c","properties":{"radius_m":-1},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "radius_m must be a finite number > 0"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"radius_m":1}}]}"#, "feature 0: has no id"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"l","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#, "\"LineString\" geometry is not a fence"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"u","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}"#, "ring 0 is not closed"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"r","geometry":{"type":"Polygon","coordinates":[[[0,0],[0,95],[1,1],[0,0]]]}}]}"#, "coordinate out of range"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"d","properties":{"radius_m":1},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","id":"d","properties":{"radius_m":1},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "feature \"d\": duplicate id"),
        ("[1, 2", "not JSON"),
    ])
    func brokenFilesAreRefusedNamingTheFeature(text: String, reason: String) {
        #expect {
            _ = try Self.load(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func oneFeatureALineIsReadToo() throws {
        let lines = """
            {"type":"Feature","id":"a","properties":{"radius_m":10},"geometry":{"type":"Point","coordinates":[10,10]}}

            {"type":"Feature","id":"b","properties":{"radius_m":10},"geometry":{"type":"Point","coordinates":[10,10]}}
            """
        let set = try Self.load(lines)
        #expect(try set.makeLocator().ids(containing: GeoPoint(latitude: 10, longitude: 10)) == ["a", "b"])
        // a bad line is named by its number
        #expect { _ = try Self.load(lines + "\n{oops") } throws: { "\($0)".contains("(line 4)") }
    }

    /// 2,500 fences, most of them crowded into a box a few cells across (so cells hold more
    /// marks than a grid slot keeps inline) and the rest scattered: `count` features as JSON.
    static func crowd(_ rng: inout SplitMix64, count: Int = 2_500) -> [String] {
        (0..<count).map { n in
            let crowded = n % 5 != 0
            let lat = crowded ? rng.uniform(45.0, 45.03) : rng.uniform(-60, 60)
            let lng = crowded ? rng.uniform(7.0, 7.03) : rng.uniform(-170, 170)
            let id = "f\(n)"
            if n % 2 == 0 {
                return #"{"type":"Feature","id":"\#(id)","properties":{"radius_m":\#(rng.uniform(20, 900))},"geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]}}"#
            }
            // a star: corners at increasing angles round the centre (SimpleRing proves it); every
            // fifth with a hole, or of 70 corners, or one of two apart (GEOS decides those)
            let size = rng.uniform(0.0005, 0.008)
            func ring(_ x: Double, _ y: Double, _ corners: Int, _ scale: Double) -> String {
                var ring: [String] = []
                for k in 0..<corners {
                    let a = 2 * Double.pi * (Double(k) + rng.uniform(0.1, 0.9)) / Double(corners)
                    let r = scale * (k % 2 == 0 ? 1 : rng.uniform(0.6, 1))
                    ring.append("[\(x + r * cos(a)),\(y + r * sin(a))]")
                }
                ring.append(ring[0])
                return "[" + ring.joined(separator: ",") + "]"
            }
            let geometry: String
            switch n % 10 {
            case 3: geometry = #"{"type":"Polygon","coordinates":[\#(ring(lng, lat, 12, size)),\#(ring(lng, lat, 6, size / 5))]}"#
            case 5: geometry = #"{"type":"Polygon","coordinates":[\#(ring(lng, lat, 70, size))]}"#
            case 7: geometry = #"{"type":"MultiPolygon","coordinates":[[\#(ring(lng, lat, 8, size / 3))],[\#(ring(lng + size, lat, 8, size / 3))]]}"#
            default: geometry = #"{"type":"Polygon","coordinates":[\#(ring(lng, lat, 6 + Int(rng.next() % 10), size))]}"#
            }
            return #"{"type":"Feature","id":"\#(id)","properties":{},"geometry":\#(geometry)}"#
        }
    }

    /// A point in more fences than the locator's first room for them (16), from two grid
    /// levels, with ids that put fence numbers out of the marks' order: every fence found, in
    /// ascending order, and the same list handle as the table gives for those numbers; then
    /// points in fewer, so a query starts from none.
    @Test func aPointInManyFencesFindsThemAllInOrder() throws {
        var features: [String] = []
        for k in 0..<40 {  // concentric circles, 20 m to 800 m
            features.append(#"{"type":"Feature","id":"c\#((k * 17) % 40)","properties":{"radius_m":\#(20 * (k + 1))},"geometry":{"type":"Point","coordinates":[7,45]}}"#)
        }
        for k in 0..<30 {  // nested squares, 0.001° to 2.9° a side (so two levels of the grid)
            let h = 0.0005 + Double(k * k) * 0.0017
            let ring = "[[\(7 - h),\(45 - h)],[\(7 + h),\(45 - h)],[\(7 + h),\(45 + h)],[\(7 - h),\(45 + h)],[\(7 - h),\(45 - h)]]"
            features.append(#"{"type":"Feature","id":"b\#((k * 7) % 30)","properties":{},"geometry":{"type":"Polygon","coordinates":[\#(ring)]}}"#)
        }
        let set = try Self.load(features.joined(separator: "\n"))
        let locator = try set.makeLocator()
        let exact = try Self.exactTests(set)
        var counts: [Int] = []
        for (lat, lng) in [(45.0, 7.0), (45.0001, 7.0002), (45.02, 7.0), (45.0, 7.3), (45.0, 7.0001), (48.0, 7.0)] {
            let p = GeoPoint(latitude: lat, longitude: lng)
            let want = set.fences.indices.filter { exact[$0](p) }
            #expect(locator.fences(containing: p) == want, "\(lat), \(lng)")
            #expect(locator.list(containing: p) == set.lists.list(of: want), "\(lat), \(lng)")
            counts.append(want.count)
        }
        #expect(counts[0] == 70 && counts[1] > 16 && counts.last == 0, "the points are in as many fences as meant: \(counts)")
    }

    /// A collection large enough to be read and indexed in parts (``GeofenceFile``,
    /// ``GeofenceGrid``) answers as each fence alone answers (GEOS `intersects`, PROJ's
    /// geodesic), and as the same features one a line (read in order).
    @Test func aLargeCollectionReadInPartsAnswersAsEachFenceAlone() throws {
        let seed = testSeed("GeofenceSetTests.aLargeCollectionReadInPartsAnswersAsEachFenceAlone")
        var rng = SplitMix64(seed: seed)
        let features = Self.crowd(&rng)
        let collection = #"{"type":"FeatureCollection","features":[\#n"# + features.joined(separator: ",\n") + "]}"
        #expect(Array(collection.utf8).withUnsafeBufferPointer { GeofenceFile.inParts($0, path: "test.geojson") }?.count == features.count,
                "the collection is read in parts, not by the fallback (seed \(seed))")
        let set = try Self.load(collection)
        let lines = try Self.load(features.joined(separator: "\n"))
        #expect(set.fences == lines.fences, "seed \(seed)")
        let exact = try Self.exactTests(set)
        let locator = try set.makeLocator()
        var mismatches = 0, memberships = 0
        for _ in 0..<600 {
            let p = GeoPoint(latitude: rng.uniform(44.99, 45.04), longitude: rng.uniform(6.99, 7.04))
            let want = set.fences.indices.filter { exact[$0](p) }
            memberships += want.count
            if locator.fences(containing: p) != want { mismatches += 1 }
        }
        #expect(mismatches == 0, "seed \(seed)")
        #expect(memberships > 600 * 5, "the crowd is crowded: \(memberships) memberships in 600 points")
    }

    /// The fences are numbered in UTF-8 byte order of their ids: ids sharing their first 16
    /// bytes or more, ids that are prefixes of others, NUL and non-ASCII bytes, against a sort
    /// of their bytes.
    @Test func fencesAreNumberedInTheByteOrderOfTheirIds() {
        let seed = testSeed("GeofenceSetTests.fencesAreNumberedInTheByteOrderOfTheirIds")
        var rng = SplitMix64(seed: seed)
        let pieces = ["store-0000000000", "a", "b", "\u{0}", "é", "日", "Z", "0", "store-00000000001"]
        var ids = Set<String>()
        while ids.count < 2_000 {
            ids.insert((0..<Int(rng.next() % 5)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
        }
        let fences = ids.shuffled(using: &rng).map { Geofence(id: $0, shape: .circle(center: GeoPoint(latitude: 0, longitude: 0), radiusMetres: 1)) }
        let expected = fences.map { Array($0.id.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(Geofence.idOrder(fences).map { Array(fences[$0].id.utf8) } == expected, "seed \(seed)")
        #expect(GeofenceSet(fences: fences).fences.map { Array($0.id.utf8) } == expected, "seed \(seed)")
    }

    /// A problem in a later part of a large collection is named as reading in order names it;
    /// so is an id that two parts share.
    @Test func aLargeCollectionsProblemIsTheFirstInFileOrder() throws {
        var rng = SplitMix64(seed: 7)
        var features = Self.crowd(&rng)
        func load(_ features: [String]) -> String {
            do {
                _ = try Self.load(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
                return "loaded"
            } catch { return error.description }
        }
        let good = features
        features[2_400] = #"{"type":"Feature","id":"late","geometry":{"type":"Point","coordinates":[0,0]}}"#
        features[2_450] = #"{"type":"Feature","id":"later","geometry":{"type":"Point","coordinates":[0,"#
        #expect(load(features).contains("not JSON"), "a syntax error anywhere refuses the whole file first")
        features[2_450] = good[2_450]
        #expect(load(features) == #"geofence file test.geojson: feature "late": a Point fence needs properties.radius_m (metres)"#)
        features[2_400] = good[2_400].replacing(#""id":"f2400""#, with: #""id":"f10""#)
        #expect(load(features) == #"geofence file test.geojson: feature "f10": duplicate id: feature 10 has it too"#)
        features[2_400] = good[2_400]
        features[4] = good[4].replacing(#""radius_m":"#, with: #""radius_m":-"#)
        features[2_401] = good[2_401].replacing("Polygon", with: "LineString")
        #expect(load(features).contains(#"feature "f4": properties.radius_m must be a finite number > 0"#))
        #expect(load(good) == "loaded")
        // a repeated id is named before a later problem of another kind, as reading in order meets them
        features = good
        features[20] = good[20].replacing(#""id":"f20""#, with: #""id":"f10""#)
        features[2_000] = good[2_000].replacing(#""radius_m":"#, with: #""radius_m":-"#)
        #expect(load(features) == #"geofence file test.geojson: feature "f10": duplicate id: feature 10 has it too"#)
        // and a file with a problem is not taken from the parts
        let broken = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        #expect(Array(broken.utf8).withUnsafeBufferPointer { GeofenceFile.inParts($0, path: "test.geojson") } == nil)
        // of several repeated ids, the one whose repeat comes first in the file, with the
        // feature that had it first (a third use of it not reached)
        features = good
        features[1_500] = good[1_500].replacing(#""id":"f1500""#, with: #""id":"f2490""#)
        features[2_300] = good[2_300].replacing(#""id":"f2300""#, with: #""id":"f7""#)
        features[2_200] = good[2_200].replacing(#""id":"f2200""#, with: #""id":"f7""#)
        features[2_100] = good[2_100].replacing(#""id":"f2100""#, with: #""id":"f30""#)
        #expect(load(features) == #"geofence file test.geojson: feature "f30": duplicate id: feature 30 has it too"#)
        features[2_100] = good[2_100]
        #expect(load(features) == #"geofence file test.geojson: feature "f7": duplicate id: feature 7 has it too"#)
    }
}
