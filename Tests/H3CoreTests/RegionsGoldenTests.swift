import Foundation
import Testing

@testable import H3Core

/// H3Core's `polygonToCells` (H3's traced flood) and `polygonToCells(_:resolution:containment:)`
/// (`polygonToCellsExperimental`) against the golden vectors of `Fixtures/regions.txt` (h3-py
/// 4.5.0; written by `scripts/dev/gen_h3_regions_golden.py`). Each line is a tool of
/// `geo-enrich h3`, its options, a GeoJSON polygon and H3's cells (ascending; a MultiPolygon's the
/// union of its polygons'), or the name of H3's error code. Here the cells come from the library;
/// the lines h3-py refuses before H3 sees them (`error:` alone: not a polygon, a ring of two
/// points) are the CLI's to refuse and are checked by scripts/ci/h3_diffcheck.py.
@Suite struct RegionsGoldenTests {
    @Test func everyCaseAgreesWithH3() throws {
        let url = try #require(Bundle.module.url(forResource: "regions", withExtension: "txt", subdirectory: "Fixtures"),
                               "missing fixture regions.txt; run scripts/dev/gen_h3_regions_golden.py")
        let text = try String(contentsOf: url, encoding: .utf8)
        var cases = 0, mismatches = 0, failures = 0, sizes = 0
        var modes: Set<String> = []
        for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                Issue.record("regions.txt:\(number + 1): malformed line")
                continue
            }
            if fields[3] == "error:" { continue }
            cases += 1
            let options = fields[1].split(separator: " ").map(String.init)
            let resolution = try H3Resolution(Int(try #require(Self.option("--resolution", options)))!)
            let mode = Self.option("--containment", options).map(Self.mode)
            modes.insert(Self.option("--containment", options) ?? "none")
            let got: String
            if fields[0].hasPrefix("maxPolygonToCellsSize") {
                // the size estimates, summed over a MultiPolygon's polygons
                do {
                    var total: Int64 = 0
                    for polygon in try Self.polygons(String(fields[2])) {
                        total += fields[0] == "maxPolygonToCellsSize"
                            ? try H3Cell.maxPolygonToCellsSize(polygon, resolution: resolution)
                            : H3Cell.maxPolygonToCellsSizeExperimental(polygon, resolution: resolution)
                    }
                    got = String(total)
                } catch {
                    got = "error:E_FAILED"
                }
                sizes += 1
                if got != fields[3] {
                    mismatches += 1
                    Issue.record("regions.txt:\(number + 1): \(fields[0]) \(fields[1]): H3 gives \(fields[3]), H3Core \(got)")
                }
                continue
            }
            do {
                var cells = Set<H3Cell>()
                for polygon in try Self.polygons(String(fields[2])) {
                    if let mode {
                        cells.formUnion(try H3Cell.polygonToCells(polygon, resolution: resolution, containment: mode))
                    } else {
                        cells.formUnion(try H3Cell.polygonToCells(polygon, resolution: resolution))
                    }
                }
                got = cells.sorted().map(\.description).joined(separator: " ")
            } catch let error as H3Error {
                got = error == .failed ? "error:E_FAILED" : error == .latLngDomain ? "error:E_LATLNG_DOMAIN" : "error:\(error)"
            }
            if got.hasPrefix("error:") { failures += 1 }
            if got != fields[3] {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record("regions.txt:\(number + 1): \(fields[0]) \(fields[1]) `\(fields[2].prefix(80))`: H3 gives \(fields[3].prefix(80)), H3Core \(got.prefix(80))")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases) cases differ from H3 4.5.0")
        #expect(cases > 2_000 && modes.count == 5, "a truncated fixture: \(cases) cases in \(modes.count) modes")
        #expect(failures > 0, "the refusals (a polygon with no width) are missing")
        #expect(sizes > 50, "the size estimates are missing: \(sizes)")
    }

    /// The experimental walk's output is ascending without a sort (the doc comment's promise),
    /// and its compact form expands to the same cells.
    @Test func walkIsAscendingAndCompactFormExpandsToIt() throws {
        let ring = [(37.68, -122.54), (37.68, -122.34), (37.82, -122.34), (37.82, -122.54)].map { LatLng(latitude: $0.0, longitude: $0.1) }
        let polygon = GeoPolygon(outer: ring)
        let res = try H3Resolution(9)
        for mode in ContainmentMode.allCases {
            let cells = try H3Cell.polygonToCells(polygon, resolution: res, containment: mode)
            #expect(cells.count > 1000 && cells == cells.sorted(), "\(mode): \(cells.count) cells")
            let compact = try H3Cell.polygonToCompactCells(polygon, resolution: res, containment: mode)
            #expect(compact.count < cells.count)
            #expect(try H3Cell.uncompact(compact, to: res) == cells)
        }
    }

    private static func option(_ name: String, _ options: [String]) -> String? {
        guard let i = options.firstIndex(of: name), i + 1 < options.count else { return nil }
        return options[i + 1]
    }

    private static func mode(_ name: String) -> ContainmentMode {
        switch name {
        case "full": return .full
        case "overlapping": return .overlapping
        case "overlappingBbox": return .overlappingBoundingBox
        default: return .center
        }
    }

    /// A GeoJSON Polygon, MultiPolygon or Feature as GeoPolygons. `JSONDecoder`, not
    /// `JSONSerialization`: on Linux the latter reads some 17-digit numbers one bit off.
    private static func polygons(_ json: String) throws -> [GeoPolygon] {
        try JSONDecoder().decode(Geometry.self, from: Data(json.utf8)).polygons.map { rings in
            let loops = rings.map { $0.map { LatLng(latitude: $0[1], longitude: $0[0]) } }
            return GeoPolygon(outer: loops.first ?? [], holes: Array(loops.dropFirst()))
        }
    }

    private struct Geometry: Decodable {
        let polygons: [[[[Double]]]]
        enum Key: String, CodingKey { case type, coordinates, geometry }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            switch try c.decode(String.self, forKey: .type) {
            case "Feature": polygons = try c.decode(Geometry.self, forKey: .geometry).polygons
            case "Polygon": polygons = [try c.decode([[[Double]]].self, forKey: .coordinates)]
            default: polygons = try c.decode([[[[Double]]]].self, forKey: .coordinates)
            }
        }
    }
}
