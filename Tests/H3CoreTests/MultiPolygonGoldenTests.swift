import Foundation
import Testing

@testable import H3Core

/// ``H3Cell/multiPolygon(of:)`` against the golden vectors of `Fixtures/multipolygon.txt` (h3-py
/// 4.5.0's `cells_to_h3shape(cells, tight=False)`, written by
/// `scripts/dev/gen_h3_multipolygon_golden.py`): the same polygons, rings, vertex order and first
/// vertex, every coordinate to the bit, and H3's error where H3 refuses. scripts/ci/h3_diffcheck.py
/// checks the CLI on fresh sets each run.
@Suite struct MultiPolygonGoldenTests {
    @Test func everyCaseAgreesWithH3() throws {
        let url = try #require(Bundle.module.url(forResource: "multipolygon", withExtension: "txt", subdirectory: "Fixtures"),
                               "missing fixture multipolygon.txt; run scripts/dev/gen_h3_multipolygon_golden.py")
        let text = try String(contentsOf: url, encoding: .utf8)
        var cases = 0, mismatches = 0, points = 0
        var kinds: [String: Int] = [:]
        for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "cellsToMultiPolygon" else {
                Issue.record("multipolygon.txt:\(number + 1): malformed line")
                continue
            }
            cases += 1
            let got: String
            do {
                let cells = try fields[2].split(separator: " ").map { try H3Cell(string: $0) }
                let polygons = try H3Cell.multiPolygon(of: cells)
                got = Self.nested(polygons)
                points += polygons.reduce(0) { $0 + $1.outer.count + $1.holes.reduce(0) { $0 + $1.count } }
                let kind = polygons.contains { !$0.holes.isEmpty } ? "holes" : polygons.count > 1 ? "several" : "one"
                kinds[kind, default: 0] += 1
            } catch {
                got = "error:" + Self.cName(error)
                kinds[got, default: 0] += 1
            }
            if !Self.sameText(got, String(fields[3])) {
                mismatches += 1
                if mismatches <= 10 {
                    Issue.record("multipolygon.txt:\(number + 1): `\(fields[2].prefix(60))`: H3 gives \(fields[3].prefix(120)), H3Core \(got.prefix(120))")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases) cases differ from H3 4.5.0")
        #expect(cases > 800 && points > 25_000, "a truncated fixture: \(cases) cases, \(points) points")
        // every kind is there: one polygon, several, holes, and each refusal
        #expect(kinds["one", default: 0] > 100 && kinds["several", default: 0] > 30 && kinds["holes", default: 0] > 100
                    && kinds["error:E_DUPLICATE_INPUT", default: 0] > 5 && kinds["error:E_RES_MISMATCH", default: 0] > 5
                    && kinds["error:E_CELL_INVALID", default: 0] > 5, "too few of a kind: \(kinds)")
    }

    @Test func emptySetHasNoPolygons() throws {
        #expect(try H3Cell.multiPolygon(of: []) == [])
    }

    /// A single cell's ring is its boundary (H3's `cellToBoundary`), started at another vertex:
    /// every pentagon and a hexagon at each resolution, Class III ones with their extra vertices.
    @Test(arguments: 0...15) func singleCellIsItsBoundary(resolution: Int) throws {
        let res = try H3Resolution(resolution)
        let cells = H3Cell.pentagons(at: res) + [try H3Cell(LatLng(latitude: 37.775, longitude: -122.418), resolution: res),
                                                 try H3Cell(LatLng(latitude: 10, longitude: 180), resolution: res)]
        for cell in cells {
            let polygons = try H3Cell.multiPolygon(of: [cell])
            try #require(polygons.count == 1)
            #expect(polygons[0].holes.isEmpty)
            let ring = polygons[0].outer, boundary = cell.boundary
            let shift = try #require(boundary.firstIndex(of: ring[0]), "\(cell): the ring's first point is not a vertex")
            #expect(ring == Array(boundary[shift...] + boundary[..<shift]), "\(cell)")
        }
    }

    /// The input's order moves where rings start, not what they are.
    @Test func orderOnlyMovesTheStart() throws {
        let centre = try H3Cell(string: "8928308280fffff")
        let disk = try centre.gridDisk(k: 3)
        let ring = try Set(centre.gridRing(k: 2))
        let cells = disk.filter { !ring.contains($0) || $0.rawValue % 3 == 0 }
        let a = try H3Cell.multiPolygon(of: cells), b = try H3Cell.multiPolygon(of: cells.reversed())
        #expect(a.count == b.count)
        for (p, q) in zip(a, b) {
            for (x, y) in zip([p.outer] + p.holes, [q.outer] + q.holes) {
                #expect(x.count == y.count && Set(x) == Set(y))
            }
        }
    }

    /// Every cell of a resolution leaves no edge: H3 gives the sphere as 8 octant triangles.
    @Test func wholeSphereIsEightTriangles() throws {
        let polygons = try H3Cell.multiPolygon(of: H3Cell.resolution0Cells)
        #expect(polygons.count == 8)
        #expect(polygons.allSatisfy { $0.outer.count == 3 && $0.holes.isEmpty })
        #expect(polygons[0].outer == [LatLng(latitude: 90, longitude: 0), LatLng(latitude: 0, longitude: 0), LatLng(latitude: 0, longitude: 90)])
    }

    @Test func refusalsAreH3s() throws {
        let disk = try H3Cell(string: "8928308280fffff").gridDisk(k: 1)
        #expect(throws: H3Error.duplicateInput) { try H3Cell.multiPolygon(of: disk + [disk[3]]) }
        #expect(throws: H3Error.resolutionMismatch) { try H3Cell.multiPolygon(of: disk + [disk[0].parent(at: H3Resolution(8))]) }
        // H3 checks the resolutions first
        #expect(throws: H3Error.resolutionMismatch) {
            try H3Cell.multiPolygon(of: disk + [disk[0], disk[0].parent(at: H3Resolution(8))])
        }
    }

    /// The polygons as the fixture writes them: `[[outer, hole, ...], ...]`, points `[lat,lng]`.
    static func nested(_ polygons: [GeoPolygon]) -> String {
        func ring(_ r: [LatLng]) -> String { "[" + r.map { "[\($0.latitude),\($0.longitude)]" }.joined(separator: ",") + "]" }
        return "[" + polygons.map { "[" + ([$0.outer] + $0.holes).map(ring).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
    }

    /// The same brackets and commas, and numbers that are the same doubles (to the bit, the sign
    /// of zero included), whichever shortest decimal each side chose.
    static func sameText(_ a: String, _ b: String) -> Bool {
        if a.hasPrefix("error:") || b.hasPrefix("error:") { return a == b }
        func tokens(_ s: String) -> [String] {
            var out: [String] = [], number = ""
            for c in s {
                if c == "[" || c == "]" || c == "," {
                    if !number.isEmpty { out.append(number); number = "" }
                    out.append(String(c))
                } else {
                    number.append(c)
                }
            }
            return out
        }
        let (x, y) = (tokens(a), tokens(b))
        guard x.count == y.count else { return false }
        for (s, t) in zip(x, y) where s != t {
            guard let u = Double(s), let v = Double(t), u.bitPattern == v.bitPattern else { return false }
        }
        return true
    }

    static func cName(_ error: any Error) -> String {
        switch error as? H3Error {
        case .duplicateInput: return "E_DUPLICATE_INPUT"
        case .resolutionMismatch: return "E_RES_MISMATCH"
        case .invalidCell, .invalidString: return "E_CELL_INVALID"
        default: return "\(error)"
        }
    }
}
