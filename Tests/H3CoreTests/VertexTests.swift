import TestSupport
import Testing

@testable import H3Core

// Expected values come from Fixtures/vertices.txt, written from PyPI `h3==4.5.0` by
// scripts/dev/gen_h3_edges_golden.py (which says how to regenerate it). Indexes must be equal,
// coordinates equal to the last bit (glibc libm, as for the other fixtures).

/// `Vertex` and `H3Cell.vertex(number:)` / `vertices`, against H3 4.5.0 and on bad input.
@Suite("Vertices")
struct VertexTests {
    // MARK: Golden vectors

    /// `vertexes CELL N V1..VN KIND`: cellToVertexes and cellToVertex, in H3's order.
    @Test("cellToVertexes and cellToVertex match H3 4.5.0", arguments: 0...15)
    func cellToVertexes(resolution res: Int) throws {
        var log = MismatchLog(fixture: "vertices.txt")
        var cases = 0
        var pentagons = 0
        for line in try Fixture.lines("vertices") where line.fields.first == "vertexes" {
            let f = line.fields
            guard f.count >= 4, let raw = Fixture.cell(f[1]), let n = Int(f[2]), f.count == 4 + n
            else { log.malformed(line); continue }
            let expected = f[3..<(3 + n)].compactMap(Fixture.cell)
            guard expected.count == n else { log.malformed(line); continue }
            guard Fixture.resolution(ofCellHex: f[1]) == res else { continue }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            if cell.isPentagon { pentagons += 1 }
            let actual = cell.vertices.map(\.rawValue)
            if actual != expected {
                log.record(line, "vertices of \(cell): expected \(show(.success(expected))), got \(show(.success(actual)))")
            }
            for (i, want) in expected.enumerated() {
                let one = Result { () throws(H3Error) in try cell.vertex(number: i).rawValue }
                if one != .success(want) {
                    log.record(line, "vertex(number: \(i)) of \(cell): expected \(hex(want)), got \(show(one))")
                }
                if Vertex(rawValue: want) == nil {
                    log.record(line, "Vertex(rawValue: 0x\(hex(want))) is nil, but H3 says it is valid")
                }
            }
        }
        log.finish(cases: cases, atLeast: res <= 1 ? 100 : 40)
        #expect(pentagons == 12, "all 12 pentagons at resolution \(res)")
    }

    /// `vertex CELL NUM error:vertexNumberDomain`.
    @Test("cellToVertex with a vertex number out of range is vertexNumberDomain")
    func vertexNumberDomain() throws {
        var log = MismatchLog(fixture: "vertices.txt")
        var cases = 0
        for line in try Fixture.lines("vertices") where line.fields.first == "vertex" {
            let f = line.fields
            guard f.count == 4, let raw = Fixture.cell(f[1]), let n = Int(f[2]),
                  let expected = Fixture.outcome(f[3], Fixture.cell)
            else { log.malformed(line); continue }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            let actual = Result { () throws(H3Error) in try cell.vertex(number: n).rawValue }
            if actual != expected {
                log.record(line, "vertex(number: \(n)) of \(cell): expected \(show(expected)), got \(show(actual))")
            }
        }
        log.finish(cases: cases, atLeast: 250)
    }

    /// `latlng V LAT LNG`: vertexToLatLng.
    @Test("vertexToLatLng matches H3 4.5.0")
    func vertexToLatLng() throws {
        var log = MismatchLog(fixture: "vertices.txt")
        var cases = 0
        var resolutions: Set<Int> = []
        for line in try Fixture.lines("vertices") where line.fields.first == "latlng" {
            let f = line.fields
            guard f.count == 4, let raw = Fixture.cell(f[1]), let lat = Double(f[2]), let lng = Double(f[3])
            else { log.malformed(line); continue }
            cases += 1
            guard let vertex = Vertex(rawValue: raw) else {
                log.record(line, "Vertex(rawValue: 0x\(hex(raw))) is nil, but H3 says it is valid")
                continue
            }
            resolutions.insert(vertex.owner.resolution.rawValue)
            if vertex.description != f[1] { log.record(line, "description: expected \(f[1]), got \(vertex)") }
            let p = vertex.latLng
            if !sameBits(p.latitude, lat) || !sameBits(p.longitude, lng) {
                log.record(line, "latLng of \(vertex): expected (\(show(lat)), \(show(lng))), "
                    + "got (\(show(p.latitude)), \(show(p.longitude)))")
            }
        }
        log.finish(cases: cases, atLeast: 5_000)
        #expect(resolutions == Set(0...15), "every resolution: \(resolutions.sorted())")
    }

    /// `valid HEX 0|1 RULE`: isValidVertex, and the rule a built-to-fail value breaks.
    @Test("isValidVertex matches H3 4.5.0, with the broken rule")
    func validity() throws {
        var log = MismatchLog(fixture: "vertices.txt")
        var cases = 0
        var rules: [Substring: Int] = [:]
        for line in try Fixture.lines("vertices") where line.fields.first == "valid" {
            let f = line.fields
            guard f.count == 4, let raw = Fixture.cell(f[1]), f[2] == "0" || f[2] == "1" else { log.malformed(line); continue }
            cases += 1
            let valid = f[2] == "1"
            rules[f[3], default: 0] += 1
            if Vertex.isValid(raw) != valid || (Vertex(rawValue: raw) != nil) != valid {
                log.record(line, "isValid(0x\(hex(raw))): expected \(valid)")
            }
            let result = Result { () throws(H3Error) in try Vertex(validating: raw) }
            switch (result, f[3]) {
            case (.success, "-") where valid: break
            case (.failure(.invalidVertex(raw, _)), "-") where !valid: break
            case (.failure(.invalidVertex(raw, let rule)), let name) where "\(rule)" == ruleDescription(name): break
            default: log.record(line, "Vertex(validating: 0x\(hex(raw))): expected \(valid ? "a vertex" : "rule \(f[3])"), got \(result)")
            }
        }
        log.finish(cases: cases, atLeast: 500)
        for rule in ["mode", "ownerCell", "vertexNumber", "notCanonical"] {
            #expect(rules[Substring(rule), default: 0] >= 10, "too few cases of rule \(rule): \(rules)")
        }
    }

    private func ruleDescription(_ name: Substring) -> String? {
        let rule: Vertex.Rule? = switch name {
        case "mode": .mode
        case "ownerCell": .ownerCell
        case "vertexNumber": .vertexNumber
        case "notCanonical": .notCanonical
        default: nil
        }
        return rule.map { "\($0)" }
    }

    // MARK: Bad input gives the typed error

    static let hexagon = try! H3Cell(string: "85283473fffffff")
    static let pentagon = try! H3Cell(string: "8009fffffffffff")

    @Test("a cell or an edge is not a vertex: wrong mode bits")
    func wrongMode() {
        let cell = Self.hexagon.rawValue
        #expect(throws: H3Error.invalidVertex(cell, .mode)) { try Vertex(validating: cell) }
        let edge = Self.hexagon.directedEdges[0].rawValue
        #expect(throws: H3Error.invalidVertex(edge, .mode)) { try Vertex(validating: edge) }
    }

    @Test("vertex numbers past the last corner", arguments: [-1, 6, 7, 100])
    func numberOutOfRange(number: Int) {
        #expect(throws: H3Error.vertexNumberDomain) { try Self.hexagon.vertex(number: number) }
    }

    @Test("a pentagon has 5 corners, at every resolution", arguments: 0...15)
    func pentagonCorners(res: Int) throws {
        let pentagon = try Self.pentagon.centerChild(at: H3Resolution(res))
        #expect(pentagon.vertices.count == 5)
        #expect(throws: H3Error.vertexNumberDomain) { try pentagon.vertex(number: 5) }
        let raw = H3IndexBits.setReservedBits(H3IndexBits.setMode(pentagon.rawValue, H3IndexBits.vertexMode), 5)
        #expect(throws: H3Error.invalidVertex(raw, .vertexNumber)) { try Vertex(validating: raw) }
    }

    @Test("a corner named from a cell that does not own it is not canonical")
    func notCanonical() throws {
        var found = 0
        for cell in try Self.hexagon.gridDisk(k: 1) {
            for (n, vertex) in cell.vertices.enumerated() where vertex.owner != cell {
                let raw = H3IndexBits.setReservedBits(H3IndexBits.setMode(cell.rawValue, H3IndexBits.vertexMode), n)
                #expect(throws: H3Error.invalidVertex(raw, .notCanonical)) { try Vertex(validating: raw) }
                found += 1
            }
        }
        #expect(found > 0)
    }

    @Test("strings: hex parses and validates; description is lower-case hex")
    func strings() throws {
        let vertex = Self.hexagon.vertices[4]
        #expect(try Vertex(string: vertex.description) == vertex)
        #expect(Vertex(vertex.description.uppercased()) == vertex)
        #expect(throws: H3Error.invalidString) { try Vertex(string: "") }
        #expect(throws: H3Error.invalidVertex(Self.hexagon.rawValue, .mode)) { try Vertex(string: Self.hexagon.description) }
    }

    // MARK: Properties

    @Test("corners are shared: each vertex of a cell is a vertex of the neighbours at that corner, at its point", arguments: 0...15)
    func shared(res: Int) throws {
        let resolution = try #require(H3Resolution(rawValue: res))
        var rng = SplitMix64(seed: 4_242 + UInt64(res))
        for _ in 0..<30 {
            let point = LatLng(latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let cell = try H3Cell(point, resolution: resolution)
            let vertices = cell.vertices
            #expect(Set(vertices).count == vertices.count)
            // each corner is named the same by every cell that shares it: 3 cells, 2 for some pentagon corners
            let neighbourVertices = Set(try cell.gridDisk(k: 1).flatMap(\.vertices))
            for v in vertices {
                #expect(neighbourVertices.contains(v))
                #expect(Vertex(rawValue: v.rawValue) == v)
            }
            // and the corners are the boundary's points when no edge crosses an icosahedron edge
            let boundary = cell.boundary
            if boundary.count == vertices.count {
                for (v, b) in zip(vertices, boundary) {
                    #expect(abs(v.latLng.latitude - b.latitude) < 1e-9 && abs(v.latLng.longitude - b.longitude) < 1e-9,
                            "\(v) of \(cell)")
                }
            }
        }
    }
}
