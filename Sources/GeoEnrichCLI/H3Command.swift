import ArgumentParser
import H3Core

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geo-enrich h3 …`: H3 inspection tools over standard input, one output line per input line.
struct H3Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "h3",
        abstract: "H3 v4 tools (bit-exact with H3 4.5.0): one output line per input line.",
        discussion: """
            Each tool reads standard input line by line and writes exactly one line per input \
            line. A line that cannot be answered gives `error: <reason>` and the run goes on; \
            the exit status is then 1. The tools are named after H3's C functions \
            (`geo-enrich h3 latLngToCell`); the short names of earlier versions (`cell`, \
            `center`, `boundary`, `parent`, `children`, `disk`) still work.
            """,
        subcommands: [Cell.self, Center.self, Boundary.self, Parent.self, Children.self, Disk.self, Info.self]
            + inspectionTools + edgeAndVertexCommands + gridTools + regionTools + multiPolygonTools)

    /// `LAT LNG RES` → the cell.
    struct Cell: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "latLngToCell",
            abstract: "Point to cell: `LAT LNG RES` (degrees, degrees, 0-15) → the cell in lower-case hex.", aliases: ["cell"])
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count == 3 else { throw LineError("expected 3 fields `LAT LNG RES`, got \(fields.count)") }
                let lat = try H3LineTool.number(fields[0], "latitude")
                let lng = try H3LineTool.number(fields[1], "longitude")
                let res = try H3LineTool.resolution(fields[2])
                return try H3Cell(LatLng(latitude: lat, longitude: lng), resolution: res).description
            }
        }
    }

    /// A cell → `LAT LNG` of its centre.
    struct Center: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToLatLng",
            abstract: "Cell to its centre: a cell → `LAT LNG` in degrees (shortest exact decimals, at least 9).", aliases: ["center"])
        func run() throws {
            try H3LineTool.runCells { H3LineTool.point($0.center) }
        }
    }

    /// A cell → its boundary.
    struct Boundary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToBoundary",
            abstract: "Cell to its boundary: a cell → `LAT LNG,LAT LNG,...` in degrees, counter-clockwise.", aliases: ["boundary"])
        func run() throws {
            try H3LineTool.runCells { H3LineTool.points($0.boundary) }
        }
    }

    struct Parent: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToParent", abstract: "A cell → its parent at --resolution.", aliases: ["parent"])
        @Option(parsing: .unconditional, help: "Resolution of the parent, 0-15, no finer than the cell's.")
        var resolution: Int
        func validate() throws { guard (0...15).contains(resolution) else { throw ValidationError("--resolution must be 0-15, not \(resolution)") } }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { cell in
                guard res.rawValue <= cell.resolution.rawValue else {
                    throw LineError("--resolution \(res) is finer than the cell's \(cell.resolution): a parent is at the cell's resolution or coarser")
                }
                return try cell.parent(at: res).description
            }
        }
    }

    struct Children: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToChildren",
            abstract: "A cell → its children at --resolution, in ascending order, separated by single spaces.", aliases: ["children"])
        @Option(parsing: .unconditional, help: "Resolution of the children, 0-15, no coarser than the cell's (at most 7 finer).")
        var resolution: Int
        func validate() throws { guard (0...15).contains(resolution) else { throw ValidationError("--resolution must be 0-15, not \(resolution)") } }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { cell in
                guard res.rawValue >= cell.resolution.rawValue else {
                    throw LineError("--resolution \(res) is coarser than the cell's \(cell.resolution): children are at the cell's resolution or finer")
                }
                // 7^8 = 5.7 million cells on one line is no longer an inspection tool's job
                guard res.rawValue - cell.resolution.rawValue <= 7 else {
                    throw LineError("--resolution \(res) is more than 7 levels below the cell's \(cell.resolution)")
                }
                return try cell.children(at: res).map(\.description).joined(separator: " ")
            }
        }
    }

    struct Disk: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gridDisk",
            abstract: "A cell → the cells within grid distance --k, the cell first, separated by single spaces.",
            discussion: """
                3k(k+1)+1 cells a line. Within k of a pentagon, H3's fallback (kept for its exact \
                order) visits cells many times over: on this project's 2-core test machine k = 100 \
                took 0.13 s a line, k = 200 0.7 s, and k = 1000 over a minute. Keep k small there, \
                or bound the run with `timeout`.
                """, aliases: ["disk"])
        @Option(parsing: .unconditional, help: "Grid distance in cells, 0-\(H3Cell.maxGridDiskK).")
        var k: Int
        func validate() throws {
            guard k >= 0 else { throw ValidationError("--k must be 0 or more, not \(k)") }
            guard k <= H3Cell.maxGridDiskK else { throw ValidationError("--k must be at most \(H3Cell.maxGridDiskK), not \(k)") }
        }
        func run() throws {
            try H3LineTool.runCells { try $0.gridDisk(k: k).map(\.description).joined(separator: " ") }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: #"An index → {"valid":true,"resolution":9,"base_cell":20,"pentagon":false} or {"valid":false}."#)
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count == 1 else { throw LineError("expected one H3 index per line, got \(fields.count) fields") }
                guard let cell = try? H3Cell(string: fields[0]) else { return #"{"valid":false}"# }
                return #"{"valid":true,"resolution":\#(cell.resolution),"base_cell":\#(cell.baseCellNumber),"pentagon":\#(cell.isPentagon)}"#
            }
        }
    }
}

/// The H3 tools' line handling: `error: <reason>` for a line without an answer.
enum H3LineTool {
    static func run(_ answer: ([Substring]) throws -> String) throws {
        try LineTool.run(errorLine: { "error: \($0)" }, answer)
    }

    static func runCells(_ answer: (H3Cell) throws -> String) throws {
        try run { fields in
            guard fields.count == 1 else { throw LineError("expected one H3 cell per line, got \(fields.count) fields") }
            return try answer(cell(fields[0]))
        }
    }

    /// A cell; the line error quotes the field.
    static func cell(_ s: Substring) throws -> H3Cell {
        do { return try H3Cell(string: s) } catch { throw LineError("\(error): '\(s.prefix(40))'") }
    }

    /// `LAT LNG`, degrees as shortest exact decimals of at least 9 places (how `cellToLatLng` writes a point).
    static func point(_ p: LatLng) -> String {
        DecimalFormat.degrees(p.latitude) + " " + DecimalFormat.degrees(p.longitude)
    }

    /// `LAT LNG,LAT LNG,…`, as `cellToBoundary` writes a line of points.
    static func points(_ ps: [LatLng]) -> String {
        ps.map(point).joined(separator: ",")
    }

    static func number(_ s: Substring, _ name: String) throws -> Double {
        guard let v = CoordinateText.decimal(s) else { throw LineError("\(name) is not a number: '\(s.prefix(40))'") }
        guard v.isFinite else { throw LineError("\(name) must be finite: '\(s.prefix(40))'") }
        return v
    }

    static func resolution(_ s: Substring) throws -> H3Resolution {
        guard let v = Int(s), let r = H3Resolution(rawValue: v) else {
            throw LineError("resolution must be an integer from 0 to 15: '\(s.prefix(40))'")
        }
        return r
    }
}
