import ArgumentParser
import H3Core

/// `geo-enrich h3 <name>` for H3's directed edge and vertex functions, one tool per C function,
/// named as in H3. Arguments come in the C function's order on each input line.
extension H3Command {
    /// The tools of this file, for `H3Command`'s list of subcommands.
    static let edgeAndVertexCommands: [ParsableCommand.Type] = [
        AreNeighborCells.self, CellsToDirectedEdge.self, IsValidDirectedEdge.self,
        GetDirectedEdgeOrigin.self, GetDirectedEdgeDestination.self, DirectedEdgeToCells.self,
        OriginToDirectedEdges.self, DirectedEdgeToBoundary.self, ReverseDirectedEdge.self, EdgeLength.self,
        CellToVertex.self, CellToVertexes.self, VertexToLatLng.self, IsValidVertex.self,
    ]

    struct AreNeighborCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "areNeighborCells",
            abstract: "`ORIGIN DESTINATION` (two cells) → `true` when they share an edge, else `false`.",
            discussion: """
                A cell is not its own neighbour. Cells of different resolutions give `error: …` \
                (H3's E_RES_MISMATCH; h3-py says False there).
                Example: echo '85283473fffffff 85283477fffffff' | geo-enrich h3 areNeighborCells  →  true
                """)
        func run() throws {
            try H3LineTool.run { fields in
                try H3LineTool.expect(fields, 2, "ORIGIN DESTINATION")
                let origin = try H3LineTool.cell(fields[0]), destination = try H3LineTool.cell(fields[1])
                do { return try origin.isNeighbor(of: destination).description } catch H3Error.resolutionMismatch {
                    throw LineError("the cells' resolutions differ (\(origin.resolution) and \(destination.resolution)): "
                        + "neighbours have the same resolution")
                }
            }
        }
    }

    struct CellsToDirectedEdge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellsToDirectedEdge",
            abstract: "`ORIGIN DESTINATION` (neighbouring cells) → the directed edge from ORIGIN to DESTINATION.",
            discussion: """
                Cells that are not neighbours give `error: …`.
                Example: echo '85283473fffffff 85283477fffffff' | geo-enrich h3 cellsToDirectedEdge  →  115283473fffffff
                """)
        func run() throws {
            try H3LineTool.run { fields in
                try H3LineTool.expect(fields, 2, "ORIGIN DESTINATION")
                return try H3LineTool.cell(fields[0]).directedEdge(to: H3LineTool.cell(fields[1])).description
            }
        }
    }

    struct IsValidDirectedEdge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "isValidDirectedEdge",
            abstract: "A 64-bit value in hex → `true` when it is a valid directed edge index, else `false`.",
            discussion: """
                Text that is not a hexadecimal 64-bit number gives `error: …`.
                Example: echo 115283473fffffff | geo-enrich h3 isValidDirectedEdge  →  true
                """)
        func run() throws {
            try H3LineTool.run { fields in
                try H3LineTool.expect(fields, 1, "EDGE")
                do {
                    _ = try DirectedEdge(string: fields[0])
                    return "true"
                } catch H3Error.invalidString {
                    throw H3LineTool.notHex(fields[0])
                } catch {
                    return "false"
                }
            }
        }
    }

    struct GetDirectedEdgeOrigin: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getDirectedEdgeOrigin",
            abstract: "A directed edge → the cell it starts at.",
            discussion: "Example: echo 115283473fffffff | geo-enrich h3 getDirectedEdgeOrigin  →  85283473fffffff")
        func run() throws {
            try H3LineTool.runEdges { $0.origin.description }
        }
    }

    struct GetDirectedEdgeDestination: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "getDirectedEdgeDestination",
            abstract: "A directed edge → the cell it leads to.",
            discussion: "Example: echo 115283473fffffff | geo-enrich h3 getDirectedEdgeDestination  →  85283477fffffff")
        func run() throws {
            try H3LineTool.runEdges { $0.destination.description }
        }
    }

    struct DirectedEdgeToCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "directedEdgeToCells",
            abstract: "A directed edge → `ORIGIN DESTINATION`, in that order (H3's).",
            discussion: "Example: echo 115283473fffffff | geo-enrich h3 directedEdgeToCells  →  85283473fffffff 85283477fffffff")
        func run() throws {
            try H3LineTool.runEdges { edge in
                let (origin, destination) = edge.cells
                return "\(origin) \(destination)"
            }
        }
    }

    struct OriginToDirectedEdges: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "originToDirectedEdges",
            abstract: "A cell → its directed edges, ascending, separated by single spaces (6, or 5 for a pentagon).",
            discussion: """
                A pentagon has no edge in its deleted direction; it is left out, as h3-py does.
                Example: echo 85283473fffffff | geo-enrich h3 originToDirectedEdges  →  115283473fffffff 125283473fffffff … 165283473fffffff
                """)
        func run() throws {
            try H3LineTool.runCells { $0.directedEdges.map(\.description).joined(separator: " ") }
        }
    }

    struct DirectedEdgeToBoundary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "directedEdgeToBoundary",
            abstract: "A directed edge → its line, `LAT LNG,LAT LNG` in degrees (three points where it crosses an icosahedron edge).",
            discussion: """
                Points are written as `h3 boundary` writes them: the shortest decimals that read back \
                as H3's doubles, at least 9 decimals.
                Example: echo 115283473fffffff | geo-enrich h3 directedEdgeToBoundary
                  →  37.42012867767779 -122.03773496427027,37.337556084353 -122.090428929044
                """)
        func run() throws {
            try H3LineTool.runEdges { H3LineTool.points($0.boundary) }
        }
    }

    struct ReverseDirectedEdge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reverseDirectedEdge",
            abstract: "A directed edge → the edge from its destination back to its origin.",
            discussion: "Example: echo 115283473fffffff | geo-enrich h3 reverseDirectedEdge  →  165283477fffffff")
        func run() throws {
            try H3LineTool.runEdges { $0.reversed.description }
        }
    }

    /// The units of `edgeLength`: H3's `edgeLengthM`, `edgeLengthKm` and `edgeLengthRads`.
    enum LengthUnit: String, ExpressibleByArgument, CaseIterable {
        case m, km, rads
    }

    struct EdgeLength: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edgeLength",
            abstract: "A directed edge → its length in --unit (H3's edgeLengthM, edgeLengthKm, edgeLengthRads).",
            discussion: """
                The great-circle length along the edge's line on H3's sphere (radius 6371.007180918475 km), \
                as the shortest decimal that reads back as H3's double.
                Example: echo 115283473fffffff | geo-enrich h3 edgeLength --unit m  →  10294.736086198918
                """)
        @Option(help: "Unit of the length: m (metres), km (kilometres) or rads (radians on the unit sphere).")
        var unit: LengthUnit
        func run() throws {
            try H3LineTool.runEdges { edge in
                let length = switch unit {
                case .m: edge.lengthMeters
                case .km: edge.lengthKilometers
                case .rads: edge.lengthRadians
                }
                return DecimalFormat.degrees(length, minimumFractionDigits: 1)
            }
        }
    }

    struct CellToVertex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToVertex",
            abstract: "`CELL VERTEXNUM` (VERTEXNUM 0-5, 0-4 for a pentagon) → the vertex index of that corner.",
            discussion: "Example: echo '85283473fffffff 0' | geo-enrich h3 cellToVertex  →  22528340bfffffff")
        func run() throws {
            try H3LineTool.run { fields in
                try H3LineTool.expect(fields, 2, "CELL VERTEXNUM")
                let cell = try H3LineTool.cell(fields[0])
                return try cell.vertex(number: H3Options.integer(fields[1], "vertex number")).description
            }
        }
    }

    struct CellToVertexes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellToVertexes",
            abstract: "A cell → its vertex indexes in H3's order (corner 0 first, counter-clockwise), separated by single spaces.",
            discussion: """
                6 for a hexagon, 5 for a pentagon (its missing sixth is left out, as h3-py does).
                Example: echo 85283473fffffff | geo-enrich h3 cellToVertexes
                  →  22528340bfffffff 235283447fffffff 205283463fffffff 255283463fffffff 22528340ffffffff 23528340bfffffff
                """)
        func run() throws {
            try H3LineTool.runCells { $0.vertices.map(\.description).joined(separator: " ") }
        }
    }

    struct VertexToLatLng: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vertexToLatLng",
            abstract: "A vertex index → `LAT LNG` of the corner in degrees, as `h3 center` writes points.",
            discussion: "Example: echo 22528340bfffffff | geo-enrich h3 vertexToLatLng  →  37.2713558667319 -121.91508032705622")
        func run() throws {
            try H3LineTool.runVertices { H3LineTool.point($0.latLng) }
        }
    }

    struct IsValidVertex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "isValidVertex",
            abstract: "A 64-bit value in hex → `true` when it is a valid (canonical) vertex index, else `false`.",
            discussion: """
                Text that is not a hexadecimal 64-bit number gives `error: …`.
                Example: echo 22528340bfffffff | geo-enrich h3 isValidVertex  →  true
                """)
        func run() throws {
            try H3LineTool.run { fields in
                try H3LineTool.expect(fields, 1, "VERTEX")
                do {
                    _ = try Vertex(string: fields[0])
                    return "true"
                } catch H3Error.invalidString {
                    throw H3LineTool.notHex(fields[0])
                } catch {
                    return "false"
                }
            }
        }
    }
}

/// Reading indexes and writing points for the edge and vertex tools.
extension H3LineTool {
    /// Fails the line unless it has exactly `count` fields, naming them.
    static func expect(_ fields: [Substring], _ count: Int, _ names: String) throws {
        guard fields.count == count else {
            throw LineError("expected \(count) field\(count == 1 ? "" : "s") `\(names)`, got \(fields.count)")
        }
    }

    /// The line error for a field that is not a hexadecimal 64-bit number.
    static func notHex(_ s: Substring) -> LineError {
        LineError("\(H3Error.invalidString): '\(s.prefix(40))'")
    }

    /// An edge; the error names the rule an index breaks (and the index, so it is not repeated).
    static func edge(_ s: Substring) throws -> DirectedEdge {
        do { return try DirectedEdge(string: s) } catch H3Error.invalidString { throw notHex(s) }
    }

    static func vertex(_ s: Substring) throws -> Vertex {
        do { return try Vertex(string: s) } catch H3Error.invalidString { throw notHex(s) }
    }

    static func runEdges(_ answer: (DirectedEdge) throws -> String) throws {
        try run { fields in
            try expect(fields, 1, "EDGE")
            return try answer(edge(fields[0]))
        }
    }

    static func runVertices(_ answer: (Vertex) throws -> String) throws {
        try run { fields in
            try expect(fields, 1, "VERTEX")
            return try answer(vertex(fields[0]))
        }
    }
}
