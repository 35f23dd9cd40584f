import ArgumentParser
import H3Core

#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif

/// `geo-enrich h3 polygonToCells` and `polygonToCellsExperimental`: one GeoJSON polygon per
/// input line, its cells on the output line, ascending.
extension H3Command {
    static let regionTools: [ParsableCommand.Type] = [
        PolygonToCells.self, PolygonToCellsExperimental.self, MaxPolygonToCellsSize.self, MaxPolygonToCellsSizeExperimental.self,
    ]

    /// What both tools share: the resolution, the size guard, the line loop.
    struct RegionOptions: ParsableArguments {
        @Option(parsing: .unconditional, help: "Resolution of the cells, 0-15.")
        var resolution: Int

        @Option(name: .customLong("max-cells"), parsing: .unconditional,
                help: "Refuse a polygon (an error line) when H3's size estimate for it is above this many cells.")
        var maxCells: Int64 = 10_000_000

        func validate() throws {
            guard (0...15).contains(resolution) else { throw ValidationError("--resolution must be 0-15, not \(resolution)") }
            guard maxCells > 0 else { throw ValidationError("--max-cells must be a positive number of cells, not \(maxCells)") }
        }

        /// Reads each line's polygons and writes the union of `fill` over them, ascending.
        func run(_ fill: @escaping (GeoPolygon, H3Resolution) throws(H3Error) -> [H3Cell]) throws {
            let res = try H3Resolution(resolution)
            try LineTool.runLines(errorLine: { "error: \($0)" }) { line in
                let polygons = try GeoJSONPolygons.parse(line)
                var cells: [H3Cell] = []
                for polygon in polygons {
                    // H3's own estimate, so that a continent at resolution 15 is an error line and
                    // not an hour of work and gigabytes of output; a degenerate box has no estimate
                    // and few cells
                    if let estimate = try? H3Cell.maxPolygonToCellsSize(polygon, resolution: res), estimate > maxCells {
                        throw LineError("the polygon may hold up to \(estimate) cells at resolution \(res), more than --max-cells \(maxCells)")
                    }
                    cells += try fill(polygon, res)
                }
                if polygons.count > 1 { cells = Array(Set(cells)).sorted() }
                return cells.map(\.description).joined(separator: " ")
            }
        }
    }

    struct PolygonToCells: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "polygonToCells",
            abstract: "A GeoJSON Polygon or MultiPolygon a line → the cells whose centres are inside, ascending.",
            discussion: """
                Each line is one GeoJSON geometry object (`Polygon` or `MultiPolygon`, or a \
                `Feature` holding one), coordinates `[longitude, latitude]` in degrees; rings may \
                be closed or open and run either way round. Edges are straight in latitude and \
                longitude, as H3 draws them. Without --containment this is H3's polygonToCells; \
                with it, polygonToCellsExperimental in that mode. A MultiPolygon's cells are the \
                union of its polygons'.
                Example: `geo-enrich h3 polygonToCells --resolution 6` with the line \
                {"type":"Polygon","coordinates":[[[-122.54,37.68],[-122.34,37.68],[-122.34,37.82],[-122.54,37.82],[-122.54,37.68]]]} \
                → 862830807ffffff 862830827ffffff 86283082fffffff 862830877ffffff 862830947ffffff \
                862830957ffffff 86283095fffffff
                """)
        @OptionGroup var options: RegionOptions
        @Option(parsing: .unconditional,
                help: "center, full, overlapping or overlappingBbox: use polygonToCellsExperimental with this containment mode.")
        var containment: Containment?

        func run() throws {
            if let mode = containment?.mode {
                try options.run { (polygon, res) throws(H3Error) in try H3Cell.polygonToCells(polygon, resolution: res, containment: mode) }
            } else {
                try options.run { (polygon, res) throws(H3Error) in try H3Cell.polygonToCells(polygon, resolution: res) }
            }
        }
    }

    struct PolygonToCellsExperimental: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "polygonToCellsExperimental",
            abstract: "A GeoJSON Polygon or MultiPolygon a line → the cells --containment admits, ascending.",
            discussion: """
                H3's hierarchical polygon fill. --containment center: the cell's centre is inside \
                (as polygonToCells); full: the whole cell is inside; overlapping: any part of the \
                cell is; overlappingBbox: any part of H3's box around the cell is (a superset, \
                faster). Input as for polygonToCells.
                Example: `geo-enrich h3 polygonToCellsExperimental --resolution 5 --containment full` \
                with the same San Francisco line as polygonToCells's example.
                """)
        @OptionGroup var options: RegionOptions
        @Option(parsing: .unconditional, help: "center, full, overlapping or overlappingBbox.")
        var containment: Containment = .center

        func run() throws {
            let mode = containment.mode
            try options.run { (polygon, res) throws(H3Error) in try H3Cell.polygonToCells(polygon, resolution: res, containment: mode) }
        }
    }

    struct MaxPolygonToCellsSize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "maxPolygonToCellsSize",
            abstract: "A GeoJSON polygon a line → H3's size estimate for polygonToCells (a MultiPolygon: the sum over its polygons).",
            discussion: """
                H3 fails polygonToCells for a polygon with more cells than this; a polygon whose \
                box has no width or height has no estimate (`error: ...`). Example: the San \
                Francisco line of polygonToCells's help, --resolution 6 → 34.
                """)
        @Option(parsing: .unconditional, help: "Resolution of the cells, 0-15.")
        var resolution: Int
        func validate() throws { guard (0...15).contains(resolution) else { throw ValidationError("--resolution must be 0-15, not \(resolution)") } }
        func run() throws {
            let res = try H3Resolution(resolution)
            try LineTool.runLines(errorLine: { "error: \($0)" }) { line in
                var total: Int64 = 0
                for polygon in try GeoJSONPolygons.parse(line) { total += try H3Cell.maxPolygonToCellsSize(polygon, resolution: res) }
                return String(total)
            }
        }
    }

    struct MaxPolygonToCellsSizeExperimental: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "maxPolygonToCellsSizeExperimental",
            abstract: "A GeoJSON polygon a line → H3's size estimate for polygonToCellsExperimental, any mode (a MultiPolygon: the sum).",
            discussion: """
                An upper bound on polygonToCellsExperimental's count in every containment mode, \
                found by the walk in overlappingBbox mode at a coarser resolution; 0 for an empty \
                polygon. --containment is accepted for the C signature and does not change it.
                """)
        @Option(parsing: .unconditional, help: "Resolution of the cells, 0-15.")
        var resolution: Int
        @Option(parsing: .unconditional, help: "center, full, overlapping or overlappingBbox (the answer is the same).")
        var containment: Containment = .center
        func validate() throws { guard (0...15).contains(resolution) else { throw ValidationError("--resolution must be 0-15, not \(resolution)") } }
        func run() throws {
            let res = try H3Resolution(resolution)
            try LineTool.runLines(errorLine: { "error: \($0)" }) { line in
                String(try GeoJSONPolygons.parse(line).reduce(Int64(0)) { $0 + H3Cell.maxPolygonToCellsSizeExperimental($1, resolution: res) })
            }
        }
    }

    /// The containment modes under the names of h3-js and the issue (`overlappingBbox`).
    enum Containment: String, ExpressibleByArgument, CaseIterable {
        case center, full, overlapping, overlappingBbox

        var mode: ContainmentMode {
            switch self {
            case .center: return .center
            case .full: return .full
            case .overlapping: return .overlapping
            case .overlappingBbox: return .overlappingBoundingBox
            }
        }
    }
}

/// A GeoJSON `Polygon`, `MultiPolygon` or a `Feature` holding one, as ``GeoPolygon``s
/// (`[longitude, latitude]` positions become ``LatLng``s; a third number, altitude, is ignored).
enum GeoJSONPolygons {
    static func parse(_ line: String) throws -> [GeoPolygon] {
        let object: Geometry
        do {
            object = try JSONDecoder().decode(Geometry.self, from: Data(line.utf8))
        } catch let error as LineError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            throw LineError("not a JSON object: \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LineError("not a GeoJSON Polygon or MultiPolygon: \(path(context)) has the wrong type")
        } catch let DecodingError.keyNotFound(key, context) {
            throw LineError("not a GeoJSON Polygon or MultiPolygon: no \"\(key.stringValue)\"\(context.codingPath.isEmpty ? "" : " in \(path(context))")")
        } catch let DecodingError.valueNotFound(_, context) {
            throw LineError("not a GeoJSON Polygon or MultiPolygon: \(path(context)) is null")
        } catch {
            throw LineError("not a GeoJSON Polygon or MultiPolygon: \(error)")
        }
        return object.polygons
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    private struct Geometry: Decodable {
        let polygons: [GeoPolygon]

        enum Key: String, CodingKey { case type, coordinates, geometry }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let type = try c.decode(String.self, forKey: .type)
            switch type {
            case "Feature":
                polygons = try c.decode(Geometry.self, forKey: .geometry).polygons
            case "Polygon":
                polygons = [try Self.polygon(c.decode([[[Double]]].self, forKey: .coordinates))]
            case "MultiPolygon":
                polygons = try c.decode([[[[Double]]]].self, forKey: .coordinates).map(Self.polygon)
            default:
                throw LineError("a \"\(type.prefix(40))\" geometry: polygonToCells takes a Polygon or a MultiPolygon")
            }
        }

        /// Rings of `[longitude, latitude]`; the first is the outer ring.
        static func polygon(_ rings: [[[Double]]]) throws -> GeoPolygon {
            let loops = try rings.enumerated().map { (r, ring) in
                // h3-py's LatLngPoly refuses these too: a ring of one or two points has no inside
                guard ring.count == 0 || ring.count >= 3 else {
                    throw LineError("ring \(r) has \(ring.count) positions: a ring needs at least 3 (or none)")
                }
                return try ring.enumerated().map { (i, position) throws -> LatLng in
                    guard position.count == 2 || position.count == 3 else {
                        throw LineError("ring \(r), position \(i): a position is [longitude, latitude], not \(position.count) numbers")
                    }
                    guard position[0].isFinite && position[1].isFinite else {
                        throw LineError("ring \(r), position \(i): coordinates must be finite")
                    }
                    return LatLng(latitude: position[1], longitude: position[0])
                }
            }
            guard let outer = loops.first else { return GeoPolygon(outer: []) }
            return GeoPolygon(outer: outer, holes: Array(loops.dropFirst()))
        }
    }
}
