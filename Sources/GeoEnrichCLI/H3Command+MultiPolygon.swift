import ArgumentParser
import H3Core

/// `geo-enrich h3 cellsToMultiPolygon`: the outline of a set of cells as GeoJSON (H3's
/// `cellsToMultiPolygon`, through ``H3Cell/multiPolygon(of:)``).
extension H3Command {
    /// The tools of this file, for `H3Command`'s list of subcommands.
    static let multiPolygonTools: [ParsableCommand.Type] = [CellsToMultiPolygon.self]

    struct CellsToMultiPolygon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cellsToMultiPolygon",
            abstract: "A line of cells (one resolution, each once) → their outline as a GeoJSON MultiPolygon geometry, on one line.",
            discussion: """
                The cells are separated by spaces. The answer is compact JSON: \
                {"type":"MultiPolygon","coordinates":[...]} with [longitude, latitude] pairs in \
                degrees and closed rings (the first point repeated at the end), each outer ring \
                counter-clockwise and each hole clockwise; polygons, rings and points in H3 4.5.0's \
                order, numbers the shortest decimals that read back as H3's doubles (as h3-py's \
                cells_to_geo(cells, tight=False)). An empty line gives no polygons; cells of \
                different resolutions, a cell given twice or a value that is no cell give \
                `error: ...`.
                Example: echo 85283473fffffff | geo-enrich h3 cellsToMultiPolygon  →  \
                {"type":"MultiPolygon","coordinates":[[[[-122.03773496427027,37.42012867767779],\
                [-122.090428929044,37.337556084353],...,[-122.03773496427027,37.42012867767779]]]]} \
                (one hexagon: 6 points and the first again).
                """,
            aliases: ["cellsToLinkedMultiPolygon"])
        func run() throws {
            try H3LineTool.run { fields in
                let cells = try fields.map(H3LineTool.cell)
                do {
                    return GeoJSONText.multiPolygon(try H3Cell.multiPolygon(of: cells))
                } catch H3Error.resolutionMismatch {
                    let resolutions = Set(cells.map(\.resolution.rawValue)).sorted().map(String.init)
                    throw LineError("the cells have different resolutions (\(resolutions.joined(separator: ", "))); "
                        + "they must share one")
                } catch H3Error.duplicateInput {
                    var seen: Set<H3Cell> = []
                    let twice = cells.first { !seen.insert($0).inserted }.map { " (\($0))" } ?? ""
                    throw LineError("a cell is given twice\(twice); each must appear once")
                }
            }
        }
    }
}

/// GeoJSON geometry text for the H3 tools: compact, `[longitude, latitude]` positions, numbers
/// as the shortest decimal that reads back as the same double (``DecimalFormat``, without its
/// padding: a JSON reader needs no fixed decimals).
enum GeoJSONText {
    /// `{"type":"MultiPolygon","coordinates":[...]}` of `polygons`, each ring closed (GeoJSON's
    /// rule; ``GeoPolygon`` keeps them open).
    ///
    /// - Complexity: O(n) in the points.
    static func multiPolygon(_ polygons: [GeoPolygon]) -> String {
        let body = polygons.map { polygon in
            let rings = ([polygon.outer] + polygon.holes).map { ring in
                "[" + (ring + ring.prefix(1)).map(position).joined(separator: ",") + "]"
            }
            return "[" + rings.joined(separator: ",") + "]"
        }
        return #"{"type":"MultiPolygon","coordinates":["# + body.joined(separator: ",") + "]}"
    }

    /// `[longitude,latitude]`.
    static func position(_ p: LatLng) -> String {
        "[" + DecimalFormat.degrees(p.longitude, minimumFractionDigits: 0) + ","
            + DecimalFormat.degrees(p.latitude, minimumFractionDigits: 0) + "]"
    }
}
