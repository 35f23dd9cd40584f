import ArgumentParser
import H3Core

/// `geo-enrich h3 <C name>` for H3's inspection, hierarchy and measure functions: one output
/// line per input line, the function's arguments on the line in the C function's order and its
/// scalar parameters as options (issue 20's conventions). Unordered sets are written ascending,
/// numbers as the shortest decimal that reads back as the same double.
extension H3Command {
    /// The tools of this file, in the order `--help` lists them.
    static let inspectionTools: [ParsableCommand.Type] = [
        GetResolution.self, GetBaseCellNumber.self, GetIndexDigit.self, ConstructCell.self, IsValidCell.self,
        IsValidIndex.self,
        IsPentagon.self, IsResClassIII.self, MaxFaceCount.self, GetIcosahedronFaces.self,
        CellToChildrenSize.self, CellToCenterChild.self, CellToChildPos.self, ChildPosToCell.self,
        CompactCells.self, UncompactCells.self, UncompactCellsSize.self,
        GetRes0Cells.self, Res0CellCount.self, GetPentagons.self, PentagonCount.self, GetNumCells.self,
        CellArea.self, GreatCircleDistance.self, GetHexagonAreaAvg.self, GetHexagonEdgeLengthAvg.self,
        DegsToRads.self, RadsToDegs.self,
    ]

    struct GetResolution: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "getResolution",
                                                        abstract: "A cell → its resolution, 0-15. Example: 8928308280fffff → 9.")
        func run() throws { try H3LineTool.runCells { String($0.resolution.rawValue) } }
    }

    struct GetBaseCellNumber: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "getBaseCellNumber",
                                                        abstract: "A cell → its base cell, 0-121. Example: 8928308280fffff → 20.")
        func run() throws { try H3LineTool.runCells { String($0.baseCellNumber) } }
    }

    struct GetIndexDigit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getIndexDigit",
            abstract: "A cell → its indexing digit at --resolution (1-15): 0-6, or 7 past the cell's resolution. Example: --resolution 1 8928308280fffff → 0.")
        @Option(parsing: .unconditional, help: "The resolution whose digit is read, 1-15.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution, in: 1...15) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { String(try $0.indexDigit(at: res)) }
        }
    }

    struct ConstructCell: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "constructCell",
            abstract: "`RES BASE_CELL D1 ... Dres` (one digit 0-6 per resolution) → the cell. Example: `1 20 0` → 81283ffffffffff.")
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count >= 2 else { throw LineError("expected `RES BASE_CELL DIGITS...`, got \(fields.count) fields") }
                let res = try H3LineTool.resolution(fields[0])
                let baseCell = try H3Options.integer(fields[1], "base cell")
                let digits = try fields.dropFirst(2).map { try H3Options.integer($0, "digit") }
                return try H3Cell(resolution: res, baseCell: baseCell, digits: digits).description
            }
        }
    }

    struct IsValidCell: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "isValidCell", abstract: "A 64-bit index in hex → true or false. Example: 8928308280fffff → true.")
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count == 1 else { throw LineError("expected one H3 index per line, got \(fields.count) fields") }
                return String((try? H3Cell(string: fields[0])) != nil)
            }
        }
    }

    struct IsValidIndex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "isValidIndex",
            abstract: "A 64-bit index in hex → true when it is a valid cell, directed edge or vertex. Example: 115283473fffffff → true.")
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count == 1 else { throw LineError("expected one H3 index per line, got \(fields.count) fields") }
                let hex = fields[0].hasPrefix("0x") || fields[0].hasPrefix("0X") ? fields[0].dropFirst(2) : fields[0]
                guard hex.first != "+", let value = UInt64(hex, radix: 16) else { return "false" }
                return String(H3Cell.isValidIndex(value))
            }
        }
    }

    struct IsPentagon: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "isPentagon",
                                                        abstract: "A cell → true when it is one of the 12 pentagons of its resolution.")
        func run() throws { try H3LineTool.runCells { String($0.isPentagon) } }
    }

    struct IsResClassIII: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "isResClassIII",
                                                        abstract: "A cell → true when its resolution is Class III (odd).")
        func run() throws { try H3LineTool.runCells { String($0.isResolutionClassIII) } }
    }

    struct MaxFaceCount: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "maxFaceCount",
                                                        abstract: "A cell → the most icosahedron faces it can touch: 5 for a pentagon, 2 for a hexagon.")
        func run() throws { try H3LineTool.runCells { String($0.maxFaceCount) } }
    }

    struct GetIcosahedronFaces: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getIcosahedronFaces",
            abstract: "A cell → the icosahedron faces (0-19) it touches, ascending. Example: 8928308280fffff → 7.")
        func run() throws { try H3LineTool.runCells { $0.icosahedronFaces.map(String.init).joined(separator: " ") } }
    }

    struct CellToChildrenSize: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cellToChildrenSize",
                                                        abstract: "A cell → how many children it has at --resolution.")
        @Option(parsing: .unconditional, help: "Resolution of the children, 0-15, no coarser than the cell's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { String(try H3Options.finer(res, than: $0) { try $0.childrenCount(at: res) }) }
        }
    }

    struct CellToCenterChild: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cellToCenterChild",
                                                        abstract: "A cell → its centre child at --resolution.")
        @Option(parsing: .unconditional, help: "Resolution of the child, 0-15, no coarser than the cell's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { try H3Options.finer(res, than: $0) { try $0.centerChild(at: res).description } }
        }
    }

    struct CellToChildPos: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToChildPos",
            abstract: "A cell → its position among the children of its ancestor at --resolution (ascending order, from 0).")
        @Option(parsing: .unconditional, help: "Resolution of the ancestor, 0-15, no finer than the cell's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.runCells { cell in
                guard res <= cell.resolution else {
                    throw LineError("--resolution \(res) is finer than the cell's \(cell.resolution): the ancestor is at the cell's resolution or coarser")
                }
                return String(try cell.childPosition(in: res))
            }
        }
    }

    struct ChildPosToCell: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "childPosToCell",
            abstract: "`POSITION PARENT` → the parent's child at --resolution with that position (from 0, ascending order).")
        @Option(parsing: .unconditional, help: "Resolution of the child, 0-15, no coarser than the parent's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.run { fields in
                guard fields.count == 2 else { throw LineError("expected `POSITION PARENT`, got \(fields.count) fields") }
                guard let position = Int64(fields[0]) else { throw LineError("position is not an integer: '\(fields[0].prefix(40))'") }
                let parent = try H3LineTool.cell(fields[1])
                return try H3Options.finer(res, than: parent) {
                    do {
                        return try H3Cell(childPosition: position, of: $0, at: res).description
                    } catch H3Error.domain {
                        throw LineError("position \(position) is outside 0..<\(try $0.childrenCount(at: res))")
                    }
                }
            }
        }
    }

    struct CompactCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compactCells",
            abstract: "A line of cells of one resolution → the compacted set, ascending (each complete set of siblings replaced by its parent, repeatedly).")
        func run() throws {
            try H3LineTool.run { fields in
                try H3Cell.compact(fields.map(H3LineTool.cell)).map(\.description).joined(separator: " ")
            }
        }
    }

    struct UncompactCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uncompactCells",
            abstract: "A line of cells → all their descendants at --resolution, cell by cell, each cell's ascending.")
        @Option(parsing: .unconditional, help: "Resolution of the result, 0-15, no coarser than any cell's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.run { fields in
                let cells = try fields.map(H3LineTool.cell)
                guard try H3Cell.uncompactCount(cells, to: res) <= 1_000_000 else {
                    throw LineError("more than 1,000,000 cells at --resolution \(res)")
                }
                return try H3Cell.uncompact(cells, to: res).map(\.description).joined(separator: " ")
            }
        }
    }

    struct UncompactCellsSize: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "uncompactCellsSize",
                                                        abstract: "A line of cells → how many cells uncompactCells gives at --resolution.")
        @Option(parsing: .unconditional, help: "Resolution of the result, 0-15, no coarser than any cell's.")
        var resolution: Int
        func validate() throws { try H3Options.check(resolution: resolution) }
        func run() throws {
            let res = try H3Resolution(resolution)
            try H3LineTool.run { fields in String(try H3Cell.uncompactCount(fields.map(H3LineTool.cell), to: res)) }
        }
    }

    struct GetRes0Cells: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "getRes0Cells",
                                                        abstract: "An empty line → the 122 cells of resolution 0, ascending.")
        func run() throws {
            try H3LineTool.run { fields in
                try H3Options.noArguments(fields)
                return H3Cell.resolution0Cells.map(\.description).joined(separator: " ")
            }
        }
    }

    struct Res0CellCount: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "res0CellCount", abstract: "An empty line → 122.")
        func run() throws { try H3LineTool.run { try H3Options.noArguments($0); return String(H3Cell.resolution0Cells.count) } }
    }

    struct GetPentagons: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "getPentagons",
                                                        abstract: "`RES` → the 12 pentagons of that resolution, ascending.")
        func run() throws {
            try H3LineTool.run { fields in
                H3Cell.pentagons(at: try H3Options.onlyResolution(fields)).map(\.description).joined(separator: " ")
            }
        }
    }

    struct PentagonCount: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pentagonCount", abstract: "An empty line → 12.")
        func run() throws { try H3LineTool.run { try H3Options.noArguments($0); return String(H3Cell.pentagons(at: .coarsest).count) } }
    }

    struct GetNumCells: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "getNumCells",
                                                        abstract: "`RES` → how many cells the resolution has (2 + 120 · 7^RES).")
        func run() throws { try H3LineTool.run { String(try H3Options.onlyResolution($0).cellCount) } }
    }

    struct CellArea: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellArea",
            abstract: "A cell → its exact area on H3's sphere in --unit (H3's cellAreaRads2, cellAreaKm2, cellAreaM2).")
        @Option(help: "rads2, km2 or m2.")
        var unit: H3AreaUnit = .km2
        func run() throws { try H3LineTool.runCells { $0.area(in: unit).description } }
    }

    struct GreatCircleDistance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "greatCircleDistance",
            abstract: "`LAT1 LNG1 LAT2 LNG2` (degrees) → the haversine distance on H3's sphere in --unit (greatCircleDistanceRads, …Km, …M).")
        @Option(help: "rads, km or m.")
        var unit: H3LengthUnit = .km
        func run() throws {
            try H3LineTool.run { fields in
                guard fields.count == 4 else { throw LineError("expected `LAT1 LNG1 LAT2 LNG2`, got \(fields.count) fields") }
                let v = try zip(fields, ["latitude 1", "longitude 1", "latitude 2", "longitude 2"]).map {
                    try H3LineTool.number($0, $1)
                }
                return LatLng(latitude: v[0], longitude: v[1])
                    .greatCircleDistance(to: LatLng(latitude: v[2], longitude: v[3]), in: unit).description
            }
        }
    }

    struct GetHexagonAreaAvg: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getHexagonAreaAvg",
            abstract: "`RES` → H3's published average hexagon area in --unit (getHexagonAreaAvgKm2, …M2).")
        @Option(help: "km2 or m2.")
        var unit: H3AreaUnit = .km2
        func validate() throws { guard unit != .rads2 else { throw ValidationError("--unit must be km2 or m2: H3 publishes no average in rads2") } }
        func run() throws { try H3LineTool.run { try H3Options.onlyResolution($0).averageHexagonArea(in: unit).description } }
    }

    struct GetHexagonEdgeLengthAvg: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getHexagonEdgeLengthAvg",
            abstract: "`RES` → H3's published average hexagon edge length in --unit (getHexagonEdgeLengthAvgKm, …M).")
        @Option(help: "km or m.")
        var unit: H3LengthUnit = .km
        func validate() throws { guard unit != .rads else { throw ValidationError("--unit must be km or m: H3 publishes no average in rads") } }
        func run() throws { try H3LineTool.run { try H3Options.onlyResolution($0).averageHexagonEdgeLength(in: unit).description } }
    }

    struct DegsToRads: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "degsToRads", abstract: "Degrees → radians (× π/180, as H3).")
        func run() throws { try H3LineTool.run { fields in try H3Options.oneNumber(fields) { LatLng.radians(fromDegrees: $0) } } }
    }

    struct RadsToDegs: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "radsToDegs", abstract: "Radians → degrees (× 180/π, as H3).")
        func run() throws { try H3LineTool.run { fields in try H3Options.oneNumber(fields) { LatLng.degrees(fromRadians: $0) } } }
    }
}

extension H3AreaUnit: ExpressibleByArgument {}
extension H3LengthUnit: ExpressibleByArgument {}

/// Argument and line checks shared by the H3 tools.
enum H3Options {
    static func check(resolution: Int, in range: ClosedRange<Int> = 0...15) throws {
        guard range.contains(resolution) else {
            throw ValidationError("--resolution must be \(range.lowerBound)-\(range.upperBound), not \(resolution)")
        }
    }

    static func integer(_ s: Substring, _ name: String) throws -> Int {
        guard let v = Int(s) else { throw LineError("\(name) is not an integer: '\(s.prefix(40))'") }
        return v
    }

    /// `answer` for `cell` when `resolution` is the cell's or finer; else a line error that says so.
    static func finer<T>(_ resolution: H3Resolution, than cell: H3Cell, _ answer: (H3Cell) throws -> T) throws -> T {
        guard resolution >= cell.resolution else {
            throw LineError("--resolution \(resolution) is coarser than the cell's \(cell.resolution): children are at the cell's resolution or finer")
        }
        return try answer(cell)
    }

    static func noArguments(_ fields: [Substring]) throws {
        guard fields.isEmpty else { throw LineError("expected an empty line, got \(fields.count) fields") }
    }

    static func onlyResolution(_ fields: [Substring]) throws -> H3Resolution {
        guard fields.count == 1 else { throw LineError("expected one resolution per line, got \(fields.count) fields") }
        return try H3LineTool.resolution(fields[0])
    }

    static func oneNumber(_ fields: [Substring], _ f: (Double) -> Double) throws -> String {
        guard fields.count == 1 else { throw LineError("expected one number per line, got \(fields.count) fields") }
        return f(try H3LineTool.number(fields[0], "value")).description
    }
}
