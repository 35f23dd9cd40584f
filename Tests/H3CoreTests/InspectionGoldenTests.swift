import Foundation
import Testing

@testable import H3Core

/// H3Core's inspection, hierarchy and measure functions against the golden vectors of
/// `Fixtures/inspection.txt` (h3-py 4.5.0 and its exported C functions; written by
/// `scripts/dev/gen_h3_inspection_golden.py`). Each line is a tool of `geo-enrich h3`, its
/// options, one input line and H3's answer; here the answer is computed through the library,
/// not the CLI (scripts/ci/h3_diffcheck.py checks the CLI on fresh cases each run).
@Suite struct InspectionGoldenTests {
    @Test func everyCaseAgreesWithH3() throws {
        let url = try #require(Bundle.module.url(forResource: "inspection", withExtension: "txt", subdirectory: "Fixtures"),
                               "missing fixture inspection.txt; run scripts/dev/gen_h3_inspection_golden.py")
        let text = try String(contentsOf: url, encoding: .utf8)
        var cases = 0, mismatches = 0
        var tools: Set<Substring> = []
        for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                Issue.record("inspection.txt:\(number + 1): malformed line")
                continue
            }
            cases += 1
            tools.insert(fields[0])
            let got: String?
            do { got = try Self.answer(tool: fields[0], options: fields[1], line: fields[2]) } catch { got = nil }
            if !Self.same(got, fields[3]) {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record("inspection.txt:\(number + 1): \(fields[0]) \(fields[1]) `\(fields[2].prefix(60))`: H3 gives \(fields[3].prefix(60)), H3Core \(got ?? "an error")")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases) cases differ from H3 4.5.0")
        #expect(cases > 5_000 && tools.count == 28, "a truncated fixture: \(cases) cases of \(tools.count) tools")
    }

    /// The expected text, or a float compared bit for bit, or `error:` for any error.
    static func same(_ got: String?, _ want: Substring) -> Bool {
        guard let got else { return want == "error:" }
        if got == want { return true }
        guard let a = Double(got), let b = Double(want) else { return false }
        return a.bitPattern == b.bitPattern
    }

    /// What the library answers for one fixture case, as text.
    static func answer(tool: Substring, options: Substring, line: Substring) throws -> String {
        let words = line.split(separator: " ")
        let option = options.split(separator: " ").last.map(String.init)
        func resolution() throws -> H3Resolution { try H3Resolution(Int(option!)!) }
        func cell(_ s: Substring) throws -> H3Cell { try H3Cell(string: s) }
        func cells() throws -> [H3Cell] { try words.map(cell) }
        func number(_ i: Int) -> Double { Double(words[i])! }
        func list(_ cs: [H3Cell]) -> String { cs.map(\.description).joined(separator: " ") }
        switch tool {
        case "getResolution": return String(try cell(line).resolution.rawValue)
        case "getBaseCellNumber": return String(try cell(line).baseCellNumber)
        case "isPentagon": return String(try cell(line).isPentagon)
        case "isResClassIII": return String(try cell(line).isResolutionClassIII)
        case "maxFaceCount": return String(try cell(line).maxFaceCount)
        case "getIcosahedronFaces": return try cell(line).icosahedronFaces.map(String.init).joined(separator: " ")
        case "getIndexDigit": return String(try cell(line).indexDigit(at: resolution()))
        case "isValidCell": return String((try? cell(line)) != nil)
        case "isValidIndex": return String(H3Cell.isValidIndex(UInt64(line, radix: 16)!))
        case "constructCell":
            let n = words.map { Int($0)! }
            return try H3Cell(resolution: H3Resolution(n[0]), baseCell: n[1], digits: Array(n.dropFirst(2))).description
        case "cellToChildrenSize": return String(try cell(line).childrenCount(at: resolution()))
        case "cellToCenterChild": return try cell(line).centerChild(at: resolution()).description
        case "cellToChildPos": return String(try cell(line).childPosition(in: resolution()))
        case "childPosToCell": return try H3Cell(childPosition: Int64(words[0])!, of: cell(words[1]), at: resolution()).description
        case "compactCells": return list(try H3Cell.compact(cells()))
        case "uncompactCells": return list(try H3Cell.uncompact(cells(), to: resolution()))
        case "uncompactCellsSize": return String(try H3Cell.uncompactCount(cells(), to: resolution()))
        case "getRes0Cells": return list(H3Cell.resolution0Cells)
        case "res0CellCount": return String(H3Cell.resolution0Cells.count)
        case "pentagonCount": return String(H3Cell.pentagons(at: .coarsest).count)
        case "getPentagons": return list(H3Cell.pentagons(at: try H3Resolution(Int(line)!)))
        case "getNumCells": return String(try H3Resolution(Int(line)!).cellCount)
        case "cellArea": return try cell(line).area(in: H3AreaUnit(rawValue: option!)!).description
        case "getHexagonAreaAvg": return try H3Resolution(Int(line)!).averageHexagonArea(in: H3AreaUnit(rawValue: option!)!).description
        case "getHexagonEdgeLengthAvg":
            return try H3Resolution(Int(line)!).averageHexagonEdgeLength(in: H3LengthUnit(rawValue: option!)!).description
        case "greatCircleDistance":
            return LatLng(latitude: number(0), longitude: number(1))
                .greatCircleDistance(to: LatLng(latitude: number(2), longitude: number(3)), in: H3LengthUnit(rawValue: option!)!)
                .description
        case "degsToRads": return LatLng.radians(fromDegrees: number(0)).description
        case "radsToDegs": return LatLng.degrees(fromRadians: number(0)).description
        default:
            Issue.record("no such tool in the fixture: \(tool)")
            return ""
        }
    }
}
