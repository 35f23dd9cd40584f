import Foundation
import Testing

@testable import H3Core

/// H3Core's traversal and local IJ functions against the golden vectors of `Fixtures/grid.txt`
/// (h3-py 4.5.0 and H3 4.5.0's exported C functions; written by
/// `scripts/dev/gen_h3_grid_golden.py`). Each line is a tool of `geo-enrich h3`, its options, one
/// input line and H3's answer, or the name of H3's error code; here the answer is computed through
/// the library, not the CLI (scripts/ci/h3_diffcheck.py checks the CLI on fresh cases each run),
/// and an error must be the one H3 gives.
@Suite struct GridGoldenTests {
    @Test func everyCaseAgreesWithH3() throws {
        let url = try #require(Bundle.module.url(forResource: "grid", withExtension: "txt", subdirectory: "Fixtures"),
                               "missing fixture grid.txt; run scripts/dev/gen_h3_grid_golden.py")
        let text = try String(contentsOf: url, encoding: .utf8)
        var cases = 0, mismatches = 0
        var tools: Set<Substring> = []
        var errors: [String: Int] = [:]
        for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                Issue.record("grid.txt:\(number + 1): malformed line")
                continue
            }
            cases += 1
            tools.insert(fields[0])
            let got: String
            do { got = try Self.answer(tool: fields[0], options: fields[1], line: fields[2]) } catch {
                got = "error:" + Self.cName(error)
            }
            if got.hasPrefix("error:") { errors[got, default: 0] += 1 }
            if got != fields[3] {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record("grid.txt:\(number + 1): \(fields[0]) \(fields[1]) `\(fields[2].prefix(60))`: H3 gives \(fields[3].prefix(80)), H3Core \(got.prefix(80))")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases) cases differ from H3 4.5.0")
        #expect(cases > 8_000 && tools.count == 14, "a truncated fixture: \(cases) cases of \(tools.count) tools")
        // the refusals are covered too: far cells, pentagons, mixed resolutions, negative sizes
        #expect(errors["error:E_FAILED", default: 0] > 100 && errors["error:E_PENTAGON", default: 0] > 100
                    && errors["error:E_RES_MISMATCH", default: 0] > 50 && errors["error:E_DOMAIN", default: 0] > 0,
                "too few refusals: \(errors)")
    }

    @Test func kOutOfRangeIsRefused() throws {
        let cell = try H3Cell(string: "8928308280fffff")
        for k in [-1, H3Cell.maxGridDiskK + 1] {
            #expect(throws: H3Error.kDomain) { try cell.gridRing(k: k) }
            #expect(throws: H3Error.kDomain) { try cell.gridRingUnsafe(k: k) }
            #expect(throws: H3Error.kDomain) { try cell.gridDiskUnsafe(k: k) }
            #expect(throws: H3Error.kDomain) { try cell.gridDiskDistances(k: k) }
            #expect(throws: H3Error.kDomain) { try cell.gridDiskDistancesSafe(k: k) }
            #expect(throws: H3Error.kDomain) { try cell.gridDiskDistancesUnsafe(k: k) }
            #expect(throws: H3Error.kDomain) { try H3Cell.gridDisksUnsafe([cell], k: k) }
        }
        #expect(throws: H3Error.domain) { try H3Cell.maxGridDiskSize(k: Int(Int32.max) + 1) }
    }

    /// Every cell of a disk around each pentagon and a hexagon, at every resolution: local IJ
    /// and back gives the cell again wherever H3 gives coordinates, and the distance from the
    /// centre is the disk's.
    @Test(arguments: 0...15) func localIJRoundTrips(resolution: Int) throws {
        let res = try H3Resolution(resolution)
        let origins = H3Cell.pentagons(at: res) + [try H3Cell(LatLng(latitude: 37.77, longitude: -122.42), resolution: res)]
        var roundTrips = 0
        for origin in origins {
            for (cell, distance) in try origin.gridDiskDistances(k: 3) {
                guard let ij = try? cell.localIJ(origin: origin) else { continue }
                #expect(try H3Cell(localIJ: ij, origin: origin) == cell)
                #expect(try origin.gridDistance(to: cell) == distance)
                roundTrips += 1
            }
        }
        #expect(roundTrips >= 37)
    }

    /// gridDistance's shortcut inside one hexagon base cell (the walk of the differing digits)
    /// against H3's two full local IJK walks, at every resolution: pairs of nearby cells (a
    /// disk of radius 6) and of random cells anywhere in the base cell.
    @Test(arguments: 1...15) func differingDigitsDistanceIsLocalIJKs(resolution: Int) throws {
        var rng = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<300 {
            let a = try H3Cell(LatLng(latitude: .random(in: -89...89, using: &rng), longitude: .random(in: -180...180, using: &rng)),
                               resolution: try H3Resolution(resolution))
            guard !BaseCells.isPentagon(H3IndexBits.baseCell(a.rawValue)) else { continue }
            // a random cell of the same base cell: random digits below it
            var far = a.rawValue
            for r in 1...resolution { far = H3IndexBits.setDigit(far, r, Direction(unchecked: UInt8.random(in: 0...6, using: &rng))) }
            let near = (try? a.gridDisk(k: 6)) ?? []
            for b in near.map(\.rawValue) + [far] {
                guard let fast = LocalIJK.distanceInOneHexagonBaseCell(a.rawValue, b) else { continue }
                let full = CoordIJK.distance(try LocalIJK.coordinates(of: a.rawValue, origin: a.rawValue),
                                             try LocalIJK.coordinates(of: b, origin: a.rawValue))
                #expect(fast == full, "\(a) \(String(b, radix: 16))")
                checked += 1
            }
        }
        #expect(checked > 1_000)
    }

    /// H3's name of the error code a library error stands for.
    static func cName(_ error: any Error) -> String {
        switch error as? H3Error {
        case .failed: return "E_FAILED"
        case .domain, .kDomain: return "E_DOMAIN"
        case .invalidCell: return "E_CELL_INVALID"
        case .pentagon: return "E_PENTAGON"
        case .resolutionMismatch: return "E_RES_MISMATCH"
        default: return "\(error)"
        }
    }

    /// What the library answers for one fixture case, as the CLI writes it.
    static func answer(tool: Substring, options: Substring, line: Substring) throws -> String {
        let words = line.split(separator: " ")
        let option = options.split(separator: " ").last.map(String.init)
        func cell(_ s: Substring) throws -> H3Cell { try H3Cell(string: s) }
        func k() -> Int { Int(option!)! }
        func list(_ cs: [H3Cell]) -> String { cs.map(\.description).joined(separator: " ") }
        func pairs(_ ps: [(cell: H3Cell, distance: Int)]) -> String {
            ps.sorted { $0.cell < $1.cell }.map { "\($0.cell) \($0.distance)" }.joined(separator: " ")
        }
        switch tool {
        case "cellToLocalIj": return try cell(line).localIJ(origin: cell(Substring(option!))).description
        case "localIjToCell":
            let ij = CoordIJ(i: Int32(words[0])!, j: Int32(words[1])!)
            return try H3Cell(localIJ: ij, origin: cell(Substring(option!))).description
        case "gridDistance": return String(try cell(words[0]).gridDistance(to: cell(words[1])))
        case "gridPathCellsSize": return String(try cell(words[0]).gridPathCellsCount(to: cell(words[1])))
        case "gridPathCells": return list(try cell(words[0]).gridPathCells(to: cell(words[1])))
        case "gridRing": return list(try cell(line).gridRing(k: k()).sorted())
        case "gridRingUnsafe": return list(try cell(line).gridRingUnsafe(k: k()).sorted())
        case "gridDiskUnsafe": return list(try cell(line).gridDiskUnsafe(k: k()).sorted())
        case "gridDiskDistances": return pairs(try cell(line).gridDiskDistances(k: k()))
        case "gridDiskDistancesSafe": return pairs(try cell(line).gridDiskDistancesSafe(k: k()))
        case "gridDiskDistancesUnsafe": return pairs(try cell(line).gridDiskDistancesUnsafe(k: k()))
        case "gridDisksUnsafe":
            return try H3Cell.gridDisksUnsafe(words.map(cell), k: k()).map { list($0.sorted()) }.joined(separator: " ")
        case "maxGridDiskSize": return String(try H3Cell.maxGridDiskSize(k: Int(line)!))
        case "maxGridRingSize": return String(try H3Cell.maxGridRingSize(k: Int(line)!))
        default:
            Issue.record("no such tool in the fixture: \(tool)")
            return ""
        }
    }
}
