import TestSupport
import Testing

@testable import H3Core

// Expected values come from Fixtures/directed_edges.txt, written from PyPI `h3==4.5.0` by
// scripts/dev/gen_h3_edges_golden.py (which says how to regenerate it). Indexes must be equal,
// coordinates and lengths equal to the last bit (glibc libm, as for the other fixtures).

/// `DirectedEdge` and the neighbour functions of `H3Cell`, against H3 4.5.0 and on bad input.
@Suite("Directed edges")
struct DirectedEdgeTests {
    // MARK: Golden vectors

    /// `pair A B ARE EDGE`: areNeighborCells and cellsToDirectedEdge.
    @Test("areNeighborCells and cellsToDirectedEdge match H3 4.5.0")
    func pairs() throws {
        var log = MismatchLog(fixture: "directed_edges.txt")
        var cases = 0
        var outcomes: [String: Int] = [:]
        for line in try Fixture.lines("directed_edges") where line.fields.first == "pair" {
            let f = line.fields
            guard f.count == 5, let a = Fixture.cell(f[1]), let b = Fixture.cell(f[2]),
                  let edge = Fixture.outcome(f[4], Fixture.cell)
            else { log.malformed(line); continue }
            let are: Result<Bool, H3Error>
            switch f[3] {
            case "true": are = .success(true)
            case "false": are = .success(false)
            default:
                guard let e = Fixture.error(f[3]) else { log.malformed(line); continue }
                are = .failure(e)
            }
            cases += 1
            outcomes[String(f[3]), default: 0] += 1
            guard let origin = log.validCell(a, line), let destination = log.validCell(b, line) else { continue }
            let actualAre = Result { () throws(H3Error) in try origin.isNeighbor(of: destination) }
            if actualAre != are {
                log.record(line, "\(origin).isNeighbor(of: \(destination)): expected \(are), got \(actualAre)")
            }
            let actualEdge = Result { () throws(H3Error) in try origin.directedEdge(to: destination).rawValue }
            if actualEdge != edge {
                log.record(line, "\(origin).directedEdge(to: \(destination)): expected \(show(edge)), got \(show(actualEdge))")
            }
        }
        log.finish(cases: cases, atLeast: 2_500)
        // the fixture must hold each outcome, or the comparison proves little
        #expect(outcomes["true", default: 0] >= 500 && outcomes["false", default: 0] >= 500
                && outcomes["error:resolutionMismatch", default: 0] >= 200, "outcomes: \(outcomes)")
    }

    /// `edges CELL N E1..EN`: originToDirectedEdges, ascending.
    @Test("originToDirectedEdges matches H3 4.5.0")
    func originToDirectedEdges() throws {
        var log = MismatchLog(fixture: "directed_edges.txt")
        var cases = 0
        var pentagons = 0
        for line in try Fixture.lines("directed_edges") where line.fields.first == "edges" {
            let f = line.fields
            guard f.count >= 3, let raw = Fixture.cell(f[1]), let n = Int(f[2]), f.count == 3 + n
            else { log.malformed(line); continue }
            let expected = f[3...].compactMap(Fixture.cell)
            guard expected.count == n else { log.malformed(line); continue }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            if cell.isPentagon { pentagons += 1 }
            let actual = cell.directedEdges.map(\.rawValue)
            if actual != expected {
                log.record(line, "directedEdges of \(cell): expected \(show(.success(expected))), got \(show(.success(actual)))")
            }
        }
        log.finish(cases: cases, atLeast: 700)
        #expect(pentagons >= 12 * 16, "every pentagon at every resolution")
    }

    /// `edge EDGE ORIGIN DESTINATION REVERSE RADS KM M N LAT1 LNG1 … KIND`.
    @Test("origin, destination, cells, reversed, boundary and lengths match H3 4.5.0", arguments: 0...15)
    func edges(resolution res: Int) throws {
        var log = MismatchLog(fixture: "directed_edges.txt")
        var cases = 0
        var crossings = 0
        for line in try Fixture.lines("directed_edges") where line.fields.first == "edge" {
            let f = line.fields
            guard f.count >= 10, let raw = Fixture.cell(f[1]), let origin = Fixture.cell(f[2]),
                  let destination = Fixture.cell(f[3]), let reverse = Fixture.cell(f[4]),
                  let rads = Double(f[5]), let km = Double(f[6]), let m = Double(f[7]),
                  let n = Int(f[8]), f.count == 10 + 2 * n
            else { log.malformed(line); continue }
            var expected: [LatLng] = []
            for i in 0..<n {
                guard let lat = Double(f[9 + 2 * i]), let lng = Double(f[10 + 2 * i]) else { break }
                expected.append(LatLng(latitude: lat, longitude: lng))
            }
            guard expected.count == n else { log.malformed(line); continue }
            guard Fixture.resolution(ofCellHex: f[2]) == res else { continue }
            cases += 1
            if n == 3 { crossings += 1 }
            guard let edge = DirectedEdge(rawValue: raw) else {
                log.record(line, "DirectedEdge(rawValue: 0x\(hex(raw))) is nil, but H3 says it is valid")
                continue
            }
            if edge.description != f[1] { log.record(line, "description: expected \(f[1]), got \(edge)") }
            if edge.origin.rawValue != origin || edge.destination.rawValue != destination
                || edge.cells.origin.rawValue != origin || edge.cells.destination.rawValue != destination {
                log.record(line, "cells of \(edge): expected \(hex(origin)) → \(hex(destination)), "
                    + "got \(edge.origin) → \(edge.destination), cells \(edge.cells)")
            }
            if edge.reversed.rawValue != reverse {
                log.record(line, "reversed of \(edge): expected \(hex(reverse)), got \(edge.reversed)")
            }
            if (try? edge.origin.directedEdge(to: edge.destination)) != edge {
                log.record(line, "directedEdge(to:) does not give \(edge) back from its own cells")
            }
            if !sameBits(edge.lengthRadians, rads) || !sameBits(edge.lengthKilometers, km) || !sameBits(edge.lengthMeters, m) {
                log.record(line, "length of \(edge): expected \(show(rads)) rad, \(show(km)) km, \(show(m)) m; "
                    + "got \(show(edge.lengthRadians)), \(show(edge.lengthKilometers)), \(show(edge.lengthMeters))")
            }
            let actual = edge.boundary
            let same = actual.count == expected.count && zip(actual, expected).allSatisfy {
                sameBits($0.latitude, $1.latitude) && sameBits($0.longitude, $1.longitude)
            }
            if !same { log.record(line, "boundary of \(edge): expected \(show(expected)), got \(show(actual))") }
        }
        log.finish(cases: cases, atLeast: 150)
        if res % 2 == 1 { #expect(crossings > 0, "Class III resolution \(res) needs edges across an icosahedron edge") }
    }

    /// `valid HEX 0|1 RULE`: isValidDirectedEdge, and the rule a built-to-fail value breaks.
    @Test("isValidDirectedEdge matches H3 4.5.0, with the broken rule")
    func validity() throws {
        var log = MismatchLog(fixture: "directed_edges.txt")
        var cases = 0
        var rules: [Substring: Int] = [:]
        for line in try Fixture.lines("directed_edges") where line.fields.first == "valid" {
            let f = line.fields
            guard f.count == 4, let raw = Fixture.cell(f[1]), f[2] == "0" || f[2] == "1" else { log.malformed(line); continue }
            cases += 1
            let valid = f[2] == "1"
            rules[f[3], default: 0] += 1
            if DirectedEdge.isValid(raw) != valid || (DirectedEdge(rawValue: raw) != nil) != valid {
                log.record(line, "isValid(0x\(hex(raw))): expected \(valid)")
            }
            let result = Result { () throws(H3Error) in try DirectedEdge(validating: raw) }
            switch (result, f[3]) {
            case (.success, "-") where valid: break
            case (.failure(.invalidDirectedEdge(raw, _)), "-") where !valid: break
            case (.failure(.invalidDirectedEdge(raw, let rule)), let name) where "\(rule)" == ruleDescription(name): break
            default: log.record(line, "DirectedEdge(validating: 0x\(hex(raw))): expected \(valid ? "an edge" : "rule \(f[3])"), got \(result)")
            }
        }
        log.finish(cases: cases, atLeast: 300)
        for rule in ["mode", "direction", "originCell", "pentagonDeletedDirection"] {
            #expect(rules[Substring(rule), default: 0] >= 10, "too few cases of rule \(rule): \(rules)")
        }
    }

    private func ruleDescription(_ name: Substring) -> String? {
        let rule: DirectedEdge.Rule? = switch name {
        case "mode": .mode
        case "direction": .direction
        case "originCell": .originCell
        case "pentagonDeletedDirection": .pentagonDeletedDirection
        default: nil
        }
        return rule.map { "\($0)" }
    }

    // MARK: Bad input gives the typed error

    static let hexagon = try! H3Cell(string: "85283473fffffff")
    static let pentagon = try! H3Cell(string: "8009fffffffffff")

    @Test("a cell is not a directed edge: wrong mode bits")
    func wrongMode() {
        let raw = Self.hexagon.rawValue
        #expect(throws: H3Error.invalidDirectedEdge(raw, .mode)) { try DirectedEdge(validating: raw) }
        #expect(DirectedEdge(rawValue: raw) == nil)
        let edge = Self.hexagon.directedEdges[0]
        let vertexMode = H3IndexBits.setMode(edge.rawValue, H3IndexBits.vertexMode)
        #expect(throws: H3Error.invalidDirectedEdge(vertexMode, .mode)) { try DirectedEdge(validating: vertexMode) }
    }

    @Test("direction 0 and 7 are not edges", arguments: [0, 7])
    func badDirection(direction: Int) {
        let raw = H3IndexBits.setReservedBits(Self.hexagon.directedEdges[0].rawValue, direction)
        #expect(throws: H3Error.invalidDirectedEdge(raw, .direction)) { try DirectedEdge(validating: raw) }
    }

    @Test("a pentagon has no edge in its deleted k direction, at every resolution", arguments: 0...15)
    func pentagonDeletedDirection(res: Int) throws {
        let resolution = try #require(H3Resolution(rawValue: res))
        let pentagon = try Self.pentagon.centerChild(at: resolution)
        #expect(pentagon.isPentagon)
        let raw = DirectedEdge(origin: pentagon, direction: .kAxes).rawValue
        #expect(throws: H3Error.invalidDirectedEdge(raw, .pentagonDeletedDirection)) { try DirectedEdge(validating: raw) }
        #expect(pentagon.directedEdges.count == 5)
        #expect(!pentagon.directedEdges.contains { $0.direction == .kAxes })
    }

    @Test("an edge whose origin is not a cell")
    func badOrigin() {
        let edge = Self.hexagon.directedEdges[2].rawValue
        for raw in [edge | (1 << 63), H3IndexBits.setDigit(edge, 3, .invalid), H3IndexBits.setBaseCell(edge, 122)] {
            #expect(throws: H3Error.invalidDirectedEdge(raw, .originCell)) { try DirectedEdge(validating: raw) }
        }
    }

    @Test("non-neighbours have no directed edge")
    func notNeighbors() throws {
        let cell = Self.hexagon
        let far = try #require(cell.gridDisk(k: 2).last)
        #expect(throws: H3Error.notNeighbors) { try cell.directedEdge(to: far) }
        #expect(throws: H3Error.notNeighbors) { try cell.directedEdge(to: cell) }
        let child = try cell.centerChild(at: H3Resolution(6))
        #expect(throws: H3Error.notNeighbors) { try cell.directedEdge(to: child) }
        #expect(try !cell.isNeighbor(of: far))
        #expect(try !cell.isNeighbor(of: cell))
        #expect(throws: H3Error.resolutionMismatch) { try cell.isNeighbor(of: child) }
    }

    @Test("strings: hex parses and validates; description is lower-case hex")
    func strings() throws {
        let edge = Self.hexagon.directedEdges[3]
        #expect(try DirectedEdge(string: edge.description) == edge)
        #expect(try DirectedEdge(string: "0x" + edge.description.uppercased()) == edge)
        #expect(DirectedEdge(edge.description) == edge)
        #expect(throws: H3Error.invalidString) { try DirectedEdge(string: "zz") }
        #expect(throws: H3Error.invalidDirectedEdge(Self.hexagon.rawValue, .mode)) { try DirectedEdge(string: Self.hexagon.description) }
        let message = "\(H3Error.invalidDirectedEdge(Self.hexagon.rawValue, .mode))"
        #expect(message.contains(Self.hexagon.description) && message.contains("mode"))
    }

    // MARK: Properties

    @Test("every edge of random cells: reversed twice is itself, its cells are neighbours, its ends are shared", arguments: 0...15)
    func properties(res: Int) throws {
        let resolution = try #require(H3Resolution(rawValue: res))
        var rng = SplitMix64(seed: 2020 + UInt64(res))
        var checked = 0
        for _ in 0..<40 {
            let point = LatLng(latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let cell = try H3Cell(point, resolution: resolution)
            for edge in cell.directedEdges {
                let back = edge.reversed
                #expect(back.reversed == edge)
                #expect(back.origin == edge.destination && back.destination == edge.origin)
                #expect(try edge.destination.isNeighbor(of: cell))
                #expect(edge.lengthRadians > 0)
                // the two sides of an edge are the same line, walked the other way
                let a = edge.boundary, b = back.boundary
                #expect(a.count >= 2 && b.count >= 2)
                if let a0 = a.first, let b1 = b.last { #expect(abs(a0.latitude - b1.latitude) < 1e-9) }
                checked += 1
            }
        }
        #expect(checked >= 200)
    }
}
