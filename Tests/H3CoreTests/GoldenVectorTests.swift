import Foundation
import Testing
@testable import H3Core

// Every expected value in Fixtures/ was produced by the H3 4.5.0 C library through PyPI
// `h3==4.5.0`; scripts/dev/gen_h3_golden.py wrote them and says how to regenerate them. H3Core
// must match bit for bit, so doubles are compared by bit pattern and cells as UInt64.
//
// Each test reports at most MismatchLog.limit mismatches as issues but counts all of them,
// and fails when its fixture yielded too few cases (an empty or truncated file).
//
// The float fixtures pin glibc's libm (what h3-py's C code called when they were written);
// on another libm (macOS) a last-bit difference in sin/cos/atan2 would show up here first.

/// Golden vectors: H3Core against H3 4.5.0, bit for bit.
@Suite("Golden vectors from H3 4.5.0")
struct GoldenVectorTests {
    // MARK: latLngToCell

    /// `latlng_to_cell.txt`: `KIND LAT LNG C0 … C15`, one column per resolution.
    @Test("latLngToCell matches H3 4.5.0", arguments: 0...15)
    func latLngToCell(resolution res: Int) throws {
        let resolution = try #require(H3Resolution(rawValue: res))
        var log = MismatchLog(fixture: "latlng_to_cell.txt")
        var cases = 0
        for line in try Fixture.lines("latlng_to_cell") {
            guard line.fields.count == 19,
                  let lat = Double(line.fields[1]), let lng = Double(line.fields[2]),
                  let expected = Fixture.outcome(line.fields[3 + res], Fixture.cell)
            else { log.malformed(line); continue }
            cases += 1
            let point = LatLng(latitude: lat, longitude: lng)
            let actual = Result { () throws(H3Error) in try H3Cell(point, resolution: resolution).rawValue }
            if actual != expected {
                log.record(line, "latLngToCell(\(show(lat)), \(show(lng))) [\(line.fields[0])] at res \(res): "
                    + "expected \(show(expected)), got \(show(actual))")
            }
        }
        log.finish(cases: cases, atLeast: 2_000)
    }

    // MARK: cellToLatLng

    /// `cell_to_latlng.txt`: `CELL LAT LNG`.
    @Test("cellToLatLng matches H3 4.5.0", arguments: 0...15)
    func cellToLatLng(resolution res: Int) throws {
        var log = MismatchLog(fixture: "cell_to_latlng.txt")
        var cases = 0
        for line in try Fixture.lines("cell_to_latlng") {
            guard line.fields.count == 3, let raw = Fixture.cell(line.fields[0]),
                  let lat = Double(line.fields[1]), let lng = Double(line.fields[2])
            else { log.malformed(line); continue }
            guard Fixture.resolution(ofCellHex: line.fields[0]) == res else { continue }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            let center = cell.center
            if !sameBits(center.latitude, lat) || !sameBits(center.longitude, lng) {
                log.record(line, "center of \(hex(raw)): expected (\(show(lat)), \(show(lng))), "
                    + "got (\(show(center.latitude)), \(show(center.longitude)))")
            }
        }
        log.finish(cases: cases, atLeast: 100)
    }

    // MARK: cellToBoundary

    /// `cell_to_boundary.txt`: `CELL N LAT1 LNG1 … LATN LNGN`.
    @Test("cellToBoundary matches H3 4.5.0", arguments: 0...15)
    func cellToBoundary(resolution res: Int) throws {
        var log = MismatchLog(fixture: "cell_to_boundary.txt")
        var cases = 0
        for line in try Fixture.lines("cell_to_boundary") {
            guard line.fields.count >= 2, let raw = Fixture.cell(line.fields[0]),
                  let n = Int(line.fields[1]), line.fields.count == 2 + 2 * n
            else { log.malformed(line); continue }
            var expected: [LatLng] = []
            for i in 0..<n {
                guard let lat = Double(line.fields[2 + 2 * i]), let lng = Double(line.fields[3 + 2 * i]) else { break }
                expected.append(LatLng(latitude: lat, longitude: lng))
            }
            guard expected.count == n else { log.malformed(line); continue }
            guard Fixture.resolution(ofCellHex: line.fields[0]) == res else { continue }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            let actual = cell.boundary
            let same = actual.count == expected.count && zip(actual, expected).allSatisfy {
                sameBits($0.latitude, $1.latitude) && sameBits($0.longitude, $1.longitude)
            }
            if !same {
                log.record(line, "boundary of \(hex(raw)): expected \(show(expected)), got \(show(actual))")
            }
        }
        log.finish(cases: cases, atLeast: 60)
    }

    // MARK: Hierarchy

    /// `hierarchy.txt`: `parent …`, `children …` and `childlist …` lines (see the file header).
    @Test("parent, children, childrenCount and centerChild match H3 4.5.0")
    func hierarchy() throws {
        var log = MismatchLog(fixture: "hierarchy.txt")
        var cases = 0
        var kinds: Set<Substring> = []
        for line in try Fixture.lines("hierarchy") {
            let f = line.fields
            guard f.count >= 4, let raw = Fixture.cell(f[1]), let r = Int(f[2]),
                  let resolution = H3Resolution(rawValue: r)
            else { log.malformed(line); continue }
            kinds.insert(f[0])
            switch f[0] {
            case "parent":
                guard f.count == 4, let expected = Fixture.outcome(f[3], Fixture.cell)
                else { log.malformed(line); continue }
                cases += 1
                guard let cell = log.validCell(raw, line) else { continue }
                let actual = Result { () throws(H3Error) in try cell.parent(at: resolution).rawValue }
                if actual != expected {
                    log.record(line, "parent(at: \(r)) of \(hex(raw)): expected \(show(expected)), got \(show(actual))")
                }
            case "children":
                guard f.count == 5,
                      let expectedCount = Fixture.outcome(f[3], { Int64($0) }),
                      let expectedCenter = Fixture.outcome(f[4], Fixture.cell)
                else { log.malformed(line); continue }
                cases += 1
                guard let cell = log.validCell(raw, line) else { continue }
                let count = Result { () throws(H3Error) in try cell.childrenCount(at: resolution) }
                if count != expectedCount {
                    log.record(line, "childrenCount(at: \(r)) of \(hex(raw)): "
                        + "expected \(show(expectedCount)), got \(show(count))")
                }
                let center = Result { () throws(H3Error) in try cell.centerChild(at: resolution).rawValue }
                if center != expectedCenter {
                    log.record(line, "centerChild(at: \(r)) of \(hex(raw)): "
                        + "expected \(show(expectedCenter)), got \(show(center))")
                }
            case "childlist":
                guard let n = Int(f[3]), f.count == 4 + n else { log.malformed(line); continue }
                let expected = f[4...].compactMap(Fixture.cell)
                guard expected.count == n else { log.malformed(line); continue }
                cases += 1
                guard let cell = log.validCell(raw, line) else { continue }
                let actual = Result { () throws(H3Error) in try cell.children(at: resolution).map(\.rawValue) }
                if actual != .success(expected) {
                    log.record(line, "children(at: \(r)) of \(hex(raw)) (ascending): "
                        + "expected \(show(Result<[UInt64], H3Error>.success(expected))), got \(show(actual))")
                }
            default:
                log.malformed(line)
            }
        }
        #expect(kinds == ["parent", "children", "childlist"], "hierarchy.txt lacks a kind of line")
        log.finish(cases: cases, atLeast: 3_000)
    }

    // MARK: gridDisk

    /// `grid_disk.txt`: `CELL K N C1 … CN` (sorted) or `CELL K error:kDomain`.
    @Test("gridDisk matches H3 4.5.0 as a set")
    func gridDisk() throws {
        var log = MismatchLog(fixture: "grid_disk.txt")
        var cases = 0
        var pentagonCases = 0
        for line in try Fixture.lines("grid_disk") {
            let f = line.fields
            guard f.count >= 3, let raw = Fixture.cell(f[0]), let k = Int(f[1]) else { log.malformed(line); continue }
            let expected: Result<[UInt64], H3Error>
            if let error = Fixture.error(f[2]), f.count == 3 {
                expected = .failure(error)
            } else {
                guard let n = Int(f[2]), f.count == 3 + n else { log.malformed(line); continue }
                let cells = f[3...].compactMap(Fixture.cell)
                guard cells.count == n else { log.malformed(line); continue }
                expected = .success(cells)
            }
            cases += 1
            guard let cell = log.validCell(raw, line) else { continue }
            if cell.isPentagon { pentagonCases += 1 }
            // h3 leaves the order of gridDisk unspecified: compare sorted.
            let actual = Result { () throws(H3Error) in try cell.gridDisk(k: k).map(\.rawValue).sorted() }
            if actual != expected {
                var message = "gridDisk(k: \(k)) of \(hex(raw)): expected \(show(expected)), got \(show(actual))"
                if case .success(let want) = expected, case .success(let got) = actual {
                    let missing = Set(want).subtracting(got).sorted().map(hex)
                    let extra = Set(got).subtracting(want).sorted().map(hex)
                    message += "; missing \(missing), extra \(extra), duplicates \(got.count - Set(got).count)"
                }
                log.record(line, message)
            }
        }
        #expect(pentagonCases > 20, "grid_disk.txt should centre disks on pentagons")
        log.finish(cases: cases, atLeast: 400)
    }

    // MARK: Validity and inspection

    /// `validity.txt`: `HEX VALID RES BASE_CELL PENTAGON KIND`.
    @Test("isValid, resolution, baseCellNumber, isPentagon and description match H3 4.5.0")
    func validity() throws {
        var log = MismatchLog(fixture: "validity.txt")
        var cases = 0
        var invalidCases = 0
        for line in try Fixture.lines("validity") {
            let f = line.fields
            guard f.count == 6, let raw = UInt64(f[0], radix: 16), f[1] == "0" || f[1] == "1"
            else { log.malformed(line); continue }
            let valid = f[1] == "1"
            let kind = f[5]
            cases += 1
            if H3Cell.isValid(raw) != valid {
                log.record(line, "isValid(0x\(hex(raw))) [\(kind)]: expected \(valid), got \(!valid)")
            }
            let maybeCell = H3Cell(rawValue: raw)
            if (maybeCell != nil) != valid {
                log.record(line, "H3Cell(rawValue: 0x\(hex(raw))) [\(kind)]: expected \(valid ? "a cell" : "nil")")
            }
            let validating = Result { () throws(H3Error) in try H3Cell(validating: raw).rawValue }
            if validating != (valid ? .success(raw) : .failure(.invalidCell)) {
                log.record(line, "H3Cell(validating: 0x\(hex(raw))) [\(kind)]: expected "
                    + "\(valid ? hex(raw) : "error invalidCell"), got \(show(validating))")
            }
            guard valid else {
                invalidCases += 1
                continue
            }
            guard let res = Int(f[2]), let base = Int(f[3]), let pentagon = Int(f[4]) else { log.malformed(line); continue }
            guard let cell = maybeCell else { continue }
            if cell.resolution.rawValue != res || cell.baseCellNumber != base || cell.isPentagon != (pentagon == 1) {
                log.record(line, "\(hex(raw)) [\(kind)]: expected res \(res), base cell \(base), "
                    + "pentagon \(pentagon == 1); got res \(cell.resolution.rawValue), "
                    + "base cell \(cell.baseCellNumber), pentagon \(cell.isPentagon)")
            }
            if cell.description != f[0] {
                log.record(line, "description: expected \(f[0]), got \(cell.description)")
            }
        }
        #expect(invalidCases > 500, "validity.txt should hold many invalid values")
        log.finish(cases: cases, atLeast: 2_000)
    }

    // MARK: Strings

    /// `strings.txt`: `EXPECTED<TAB>INPUT`, EXPECTED a cell or `-` for "must throw".
    @Test("H3Cell(string:) and description match h3.str_to_int and h3.int_to_str")
    func strings() throws {
        var log = MismatchLog(fixture: "strings.txt")
        var cases = 0
        for line in try Fixture.lines("strings", separator: "\t") {
            guard line.fields.count == 2 else { log.malformed(line); continue }
            let want = line.fields[0]
            let input = String(line.fields[1])
            let expected: UInt64?
            if want == "-" {
                expected = nil
            } else {
                guard let raw = Fixture.cell(want) else { log.malformed(line); continue }
                expected = raw
            }
            cases += 1
            let actual = Result { () throws(H3Error) in try H3Cell(string: input) }
            let matches = switch actual {
            case .success(let cell): cell.rawValue == expected
            case .failure: expected == nil
            }
            if !matches {
                log.record(line, "H3Cell(string: \(input.debugDescription)): expected "
                    + "\(expected.map(hex) ?? "an error"), got \(show(actual.map(\.rawValue)))")
            }
            if let expected, case .success(let cell) = actual, cell.description != want {
                log.record(line, "description of \(hex(expected)): expected \(want), got \(cell.description)")
            }
        }
        log.finish(cases: cases, atLeast: 200)
    }
}

// MARK: - Fixture reading

/// One data line of a fixture: its 1-based line number in the file and its fields.
struct FixtureLine {
    let number: Int
    let fields: [Substring]
    let text: Substring
}

/// Reads the text fixtures written by `scripts/dev/gen_h3_golden.py` (and, for directed edges and
/// vertices, `scripts/dev/gen_h3_edges_golden.py`); shared by the golden tests of each type.
enum Fixture {
    /// The data lines of `Fixtures/<name>.txt`, skipping `#` comments and blank lines.
    static func lines(_ name: String, separator: Character = " ") throws -> [FixtureLine] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures"),
            "missing fixture \(name).txt; run scripts/dev/gen_h3_golden.py")
        let text = try String(contentsOf: url, encoding: .utf8)
        var out: [FixtureLine] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields: [Substring]
            if separator == "\t" {
                // Only the first tab separates: the rest of the line is one field, possibly empty.
                guard let tab = line.firstIndex(of: "\t") else {
                    out.append(FixtureLine(number: index + 1, fields: [line], text: line))
                    continue
                }
                fields = [line[..<tab], line[line.index(after: tab)...]]
            } else {
                fields = line.split(separator: separator, omittingEmptySubsequences: false)
            }
            out.append(FixtureLine(number: index + 1, fields: fields, text: line))
        }
        return out
    }

    /// A cell written as lower-case hex.
    static func cell(_ field: Substring) -> UInt64? {
        UInt64(field, radix: 16)
    }

    /// The resolution of a cell written in hex: a cell's first hex digit holds the high bit
    /// and the mode (always 0x8), and its second is the 4-bit resolution.
    static func resolution(ofCellHex field: Substring) -> Int? {
        guard field.count == 15, let digit = field.dropFirst().first else { return nil }
        return digit.hexDigitValue
    }

    /// The fixtures name H3Error cases after `error:`.
    static func error(_ field: Substring) -> H3Error? {
        guard field.hasPrefix("error:") else { return nil }
        switch field.dropFirst("error:".count) {
        case "latLngDomain": return .latLngDomain
        case "resolutionDomain": return .resolutionDomain
        case "invalidCell": return .invalidCell
        case "resolutionMismatch": return .resolutionMismatch
        case "invalidString": return .invalidString
        case "kDomain": return .kDomain
        case "notNeighbors": return .notNeighbors
        case "vertexNumberDomain": return .vertexNumberDomain
        default: return nil
        }
    }

    /// A field that is either a value or `error:<H3Error case>`.
    static func outcome<Value>(_ field: Substring, _ parse: (Substring) -> Value?) -> Result<Value, H3Error>? {
        if field.hasPrefix("error:") { return error(field).map { .failure($0) } }
        return parse(field).map { .success($0) }
    }
}

/// Counts mismatches and records the first ``limit`` as issues naming the fixture line and
/// both values, so a broken implementation gives a readable report, not thousands of issues.
struct MismatchLog {
    static let limit = 20
    let fixture: String
    private(set) var count = 0

    init(fixture: String) {
        self.fixture = fixture
    }

    mutating func record(_ line: FixtureLine, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        count += 1
        if count <= Self.limit {
            Issue.record("\(fixture):\(line.number): \(message)", sourceLocation: sourceLocation)
        }
    }

    /// A line the test cannot read is a broken fixture, which must fail too.
    mutating func malformed(_ line: FixtureLine, sourceLocation: SourceLocation = #_sourceLocation) {
        record(line, "malformed fixture line: \(line.text.prefix(200))", sourceLocation: sourceLocation)
    }

    /// The cell for a value the fixture says is valid, or nil after recording a mismatch.
    mutating func validCell(_ raw: UInt64, _ line: FixtureLine,
                            sourceLocation: SourceLocation = #_sourceLocation) -> H3Cell? {
        if let cell = H3Cell(rawValue: raw) { return cell }
        record(line, "H3Cell(rawValue: 0x\(hex(raw))) is nil, but H3 says it is a valid cell",
               sourceLocation: sourceLocation)
        return nil
    }

    func finish(cases: Int, atLeast minimum: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let reported = count > Self.limit ? " (the first \(Self.limit) are reported)" : ""
        #expect(count == 0, "\(count) of \(cases) cases in \(fixture) differ from H3 4.5.0\(reported)",
                sourceLocation: sourceLocation)
        #expect(cases >= minimum, "\(fixture) yielded only \(cases) cases; regenerate it",
                sourceLocation: sourceLocation)
    }
}

// MARK: - Comparing and showing values

/// Bit-exact comparison: H3Core must reproduce H3's doubles to the last bit (and sign of zero).
func sameBits(_ a: Double, _ b: Double) -> Bool {
    a.bitPattern == b.bitPattern
}

func hex(_ raw: UInt64) -> String {
    String(raw, radix: 16)
}

/// A double with its bit pattern, so last-bit differences are visible.
func show(_ x: Double) -> String {
    "\(x) [0x\(String(x.bitPattern, radix: 16))]"
}

func show(_ points: [LatLng]) -> String {
    "\(points.count) vertices [" + points.map { "(\(show($0.latitude)), \(show($0.longitude)))" }.joined(separator: ", ") + "]"
}

func show(_ result: Result<UInt64, H3Error>) -> String {
    switch result {
    case .success(let raw): hex(raw)
    case .failure(let error): "error \(error)"
    }
}

func show(_ result: Result<Int64, H3Error>) -> String {
    switch result {
    case .success(let n): "\(n)"
    case .failure(let error): "error \(error)"
    }
}

func show(_ result: Result<[UInt64], H3Error>) -> String {
    switch result {
    case .success(let cells): "\(cells.count) cells [\(cells.map(hex).joined(separator: " "))]"
    case .failure(let error): "error \(error)"
    }
}
