import ArgumentParser
import H3Core

/// `geo-enrich h3 <C name>` for H3's traversal and local IJ functions: one output line per input
/// line, the function's arguments on the line in the C function's order and its scalar
/// parameters as options (issue 20's conventions). Sets whose order H3 leaves unspecified (rings,
/// disks) are written ascending; `gridPathCells` in H3's order.
extension H3Command {
    /// The tools of this file, in the order `--help` lists them.
    static let gridTools: [ParsableCommand.Type] = [
        CellToLocalIj.self, LocalIjToCell.self, GridDistance.self, GridPathCellsSize.self, GridPathCells.self,
        GridRing.self, GridRingUnsafe.self, GridDiskUnsafe.self, GridDiskDistances.self, GridDiskDistancesSafe.self,
        GridDiskDistancesUnsafe.self, GridDisksUnsafe.self, MaxGridDiskSize.self, MaxGridRingSize.self,
    ]

    struct CellToLocalIj: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToLocalIj",
            abstract: "A cell → `I J`, its local IJ coordinates anchored at --origin (H3's experimental mode 0).",
            discussion: """
                Example: `geo-enrich h3 cellToLocalIj --origin 8928308280fffff` with the line \
                8928308280bffff → `1120 617` (the origin's own are `1119 616`). The cell must have the origin's resolution; cells \
                too far away (beyond the neighbouring base cells) or across a pentagon give \
                `error: ...`. Coordinates from different origins are not comparable.
                """)
        @Option(parsing: .unconditional, help: "The anchoring cell, in hex.")
        var origin: String
        func validate() throws { _ = try H3Options.origin(origin) }
        func run() throws {
            let anchor = try H3Options.origin(origin)
            try H3LineTool.runCells { cell in
                try H3Options.sameResolution(anchor, cell)
                return try cell.localIJ(origin: anchor).description
            }
        }
    }

    struct LocalIjToCell: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "localIjToCell",
            abstract: "`I J` (32-bit integers) → the cell at those local IJ coordinates anchored at --origin.",
            discussion: """
                Example: `geo-enrich h3 localIjToCell --origin 8928308280fffff` with the line \
                `1120 617` → 8928308280bffff. The cell has the origin's resolution; coordinates \
                too far from the origin, or in a pentagon's missing sub-sequence, give `error: ...`.
                """)
        @Option(parsing: .unconditional, help: "The anchoring cell, in hex.")
        var origin: String
        func validate() throws { _ = try H3Options.origin(origin) }
        func run() throws {
            let anchor = try H3Options.origin(origin)
            try H3LineTool.run { fields in
                guard fields.count == 2 else { throw LineError("expected `I J`, got \(fields.count) fields") }
                let ij = CoordIJ(i: try H3Options.int32(fields[0], "i"), j: try H3Options.int32(fields[1], "j"))
                return try H3Cell(localIJ: ij, origin: anchor).description
            }
        }
    }

    struct GridDistance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDistance",
            abstract: "`ORIGIN CELL` (one resolution) → the number of grid steps between them.",
            discussion: """
                Example: `8928308280fffff 8928308280bffff` → 1. Cells too far apart for H3's \
                local coordinates, or across a pentagon, give `error: ...`.
                """)
        func run() throws {
            try H3LineTool.run { fields in
                let (origin, cell) = try H3Options.twoCells(fields)
                return String(try origin.gridDistance(to: cell))
            }
        }
    }

    struct GridPathCellsSize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridPathCellsSize",
            abstract: "`START END` → how many cells gridPathCells gives (the grid distance + 1).")
        func run() throws {
            try H3LineTool.run { fields in
                let (start, end) = try H3Options.twoCells(fields)
                return String(try start.gridPathCellsCount(to: end))
            }
        }
    }

    struct GridPathCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridPathCells",
            abstract: "`START END` → the cells of a shortest grid path from START to END, both included, in H3's order.",
            discussion: """
                Example: `8928308280fffff 8928308287bffff` → 8928308280fffff 89283082873ffff \
                8928308287bffff. Each cell neighbours the one before. Lines are written up to \
                1,000,000 cells; cells too far apart, or a line across a pentagon, give `error: ...`.
                """)
        func run() throws {
            try H3LineTool.run { fields in
                let (start, end) = try H3Options.twoCells(fields)
                guard try start.gridPathCellsCount(to: end) <= 1_000_000 else {
                    throw LineError("the path has more than 1,000,000 cells")
                }
                return try start.gridPathCells(to: end).map(\.description).joined(separator: " ")
            }
        }
    }

    struct GridRing: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridRing",
            abstract: "A cell → the cells at exactly grid distance --k, ascending (6k cells, fewer beside a pentagon).")
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.ascending(try $0.gridRing(k: k.k)) } }
    }

    struct GridRingUnsafe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridRingUnsafe",
            abstract: "A cell → the cells at exactly grid distance --k, ascending, by H3's fast walk: `error: ...` when a pentagon is within k.")
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.ascending(try $0.gridRingUnsafe(k: k.k)) } }
    }

    struct GridDiskUnsafe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDiskUnsafe",
            abstract: "A cell → the cells within grid distance --k, ascending, by H3's fast spiral: `error: ...` when a pentagon is within k.")
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.ascending(try $0.gridDiskUnsafe(k: k.k)) } }
    }

    struct GridDiskDistances: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDiskDistances",
            abstract: "A cell → `CELL DISTANCE CELL DISTANCE ...`: the cells within grid distance --k, each followed by its distance, ascending by cell.",
            discussion: """
                Example: --k 1 with the line 8928308280fffff → 89283082803ffff 1 89283082807ffff 1 \
                8928308280bffff 1 8928308280fffff 0 ... (7 pairs). As gridDisk: H3's fast spiral, or its search \
                where a pentagon is within k.
                """)
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.pairs(try $0.gridDiskDistances(k: k.k)) } }
    }

    struct GridDiskDistancesSafe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDiskDistancesSafe",
            abstract: "As gridDiskDistances (`CELL DISTANCE ...` ascending by cell), always by H3's search that handles pentagons.")
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.pairs(try $0.gridDiskDistancesSafe(k: k.k)) } }
    }

    struct GridDiskDistancesUnsafe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDiskDistancesUnsafe",
            abstract: "As gridDiskDistances (`CELL DISTANCE ...` ascending by cell), by H3's fast spiral: `error: ...` when a pentagon is within k.")
        @OptionGroup var k: H3KOption
        func run() throws { try H3LineTool.runCells { H3Options.pairs(try $0.gridDiskDistancesUnsafe(k: k.k)) } }
    }

    struct GridDisksUnsafe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDisksUnsafe",
            abstract: "A line of cells → their disks of radius --k one after the other, each ascending (3k(k+1)+1 cells each): `error: ...` when a pentagon is within k of any.")
        @OptionGroup var k: H3KOption
        func run() throws {
            try H3LineTool.run { fields in
                try H3Cell.gridDisksUnsafe(fields.map(H3LineTool.cell), k: k.k).map(H3Options.ascending).joined(separator: " ")
            }
        }
    }

    struct MaxGridDiskSize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "maxGridDiskSize",
            abstract: "`K` → the most cells a disk of radius K holds: 3K(K+1)+1, capped at the cell count of resolution 15.")
        func run() throws { try H3LineTool.run { String(try H3Cell.maxGridDiskSize(k: H3Options.onlyK($0))) } }
    }

    struct MaxGridRingSize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "maxGridRingSize", abstract: "`K` → the most cells a ring of radius K holds: 6K, or 1 for K = 0.")
        func run() throws { try H3LineTool.run { String(try H3Cell.maxGridRingSize(k: H3Options.onlyK($0))) } }
    }
}

/// `--k K`, the grid distance of the ring and disk tools.
struct H3KOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Grid distance in cells, 0-\(H3Cell.maxGridDiskK).")
    var k: Int
    func validate() throws {
        guard k >= 0 else { throw ValidationError("--k must be 0 or more, not \(k)") }
        guard k <= H3Cell.maxGridDiskK else { throw ValidationError("--k must be at most \(H3Cell.maxGridDiskK), not \(k)") }
    }
}

extension H3Options {
    /// The `--origin` cell, or a usage error.
    static func origin(_ s: String) throws -> H3Cell {
        do { return try H3Cell(string: s) } catch { throw ValidationError("--origin: \(error): '\(s.prefix(40))'") }
    }

    static func int32(_ s: Substring, _ name: String) throws -> Int32 {
        guard let v = Int32(s) else { throw LineError("\(name) is not a 32-bit integer: '\(s.prefix(40))'") }
        return v
    }

    /// The two cells of a line, which must share a resolution.
    static func twoCells(_ fields: [Substring]) throws -> (H3Cell, H3Cell) {
        guard fields.count == 2 else { throw LineError("expected two cells, got \(fields.count) fields") }
        let (a, b) = (try H3LineTool.cell(fields[0]), try H3LineTool.cell(fields[1]))
        try sameResolution(a, b)
        return (a, b)
    }

    /// A line error that names both resolutions (H3's `E_RES_MISMATCH` says less).
    static func sameResolution(_ a: H3Cell, _ b: H3Cell) throws {
        guard a.resolution == b.resolution else {
            throw LineError("the cells have different resolutions, \(a.resolution) and \(b.resolution); they must share one")
        }
    }

    static func onlyK(_ fields: [Substring]) throws -> Int {
        guard fields.count == 1 else { throw LineError("expected one k per line, got \(fields.count) fields") }
        let k = try integer(fields[0], "k")
        // H3 takes k as a C int
        guard (0...Int(Int32.max)).contains(k) else { throw LineError("k must be an integer from 0 to \(Int32.max), not \(k)") }
        return k
    }

    static func ascending(_ cells: [H3Cell]) -> String { cells.sorted().map(\.description).joined(separator: " ") }

    static func pairs(_ entries: [(cell: H3Cell, distance: Int)]) -> String {
        entries.sorted { $0.cell < $1.cell }.map { "\($0.cell) \($0.distance)" }.joined(separator: " ")
    }
}
