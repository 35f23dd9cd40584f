#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import GeoBridge

/// Reads a fence file (contract rule 11): a GeoJSON FeatureCollection, or one GeoJSON Feature a
/// line. Every feature is checked before any is used; the first problem refuses the file.
enum GeofenceFile {
    /// The fences of a file's bytes, in file order.
    static func parse(_ bytes: [UInt8], path: String, context: GEOSContext) throws(GeofenceFileError) -> [Geofence] {
        let features = try rawFeatures(bytes, path: path)
        var fences: [Geofence] = []
        fences.reserveCapacity(features.count)
        var seen: [[UInt8]: Int] = [:]  // keyed by the id's bytes, not Swift's canonical equality
        for (index, raw) in features.enumerated() {
            let fence = try check(raw.feature, index: index, line: raw.line, path: path, context: context)
            if let first = seen[Array(fence.id.utf8)] {
                throw GeofenceFileError(path: path, feature: "feature \(Self.quoted(fence.id))",
                                        reason: "duplicate id: feature \(first) has it too")
            }
            seen[Array(fence.id.utf8)] = index
            fences.append(fence)
        }
        return fences
    }

    static func quoted(_ id: String) -> String {
        "\"" + (id.count > 80 ? id.prefix(80) + "…" : id[...]) + "\""
    }

    // MARK: reading the JSON

    private struct Located {
        let feature: RawFeature
        let line: Int?
    }

    private static func rawFeatures(_ bytes: [UInt8], path: String) throws(GeofenceFileError) -> [Located] {
        let decoder = JSONDecoder()
        let data = Data(bytes)
        let whole: Result<TopLevel, Error> = Result { try decoder.decode(TopLevel.self, from: data) }
        switch whole {
        case .success(let top):
            switch top.type {
            case "FeatureCollection":
                guard let features = top.features else {
                    throw GeofenceFileError(path: path, feature: nil, reason: "a FeatureCollection without a \"features\" array")
                }
                return features.map { Located(feature: $0, line: nil) }
            case "Feature":
                return [Located(feature: try single(data, decoder: decoder, path: path, line: 1), line: nil)]
            default:
                throw GeofenceFileError(path: path, feature: nil, reason:
                    "not a GeoJSON FeatureCollection or Feature (its \"type\" is \(top.type.map { quoted($0) } ?? "missing"))")
            }
        case .failure(let error):
            // one Feature a line: the first line must be a JSON object by itself
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let firstLine = lines.firstIndex { !isBlank($0) }
            guard let firstLine, lines.count > 1,
                  (try? decoder.decode(TopLevel.self, from: Data(lines[firstLine]))) != nil else {
                throw GeofenceFileError(path: path, feature: nil, reason: "not JSON: \(describe(error))")
            }
            var out: [Located] = []
            for (n, line) in lines.enumerated() where !isBlank(line) {
                out.append(Located(feature: try single(Data(line), decoder: decoder, path: path, line: n + 1, index: out.count), line: n + 1))
            }
            return out
        }
    }

    private static func single(_ data: Data, decoder: JSONDecoder, path: String, line: Int, index: Int = 0) throws(GeofenceFileError) -> RawFeature {
        do {
            return try decoder.decode(RawFeature.self, from: data)
        } catch {
            throw GeofenceFileError(path: path, feature: "feature \(index) (line \(line))", reason: "not JSON: \(describe(error))")
        }
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    private static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError { return "\(underlying)" }
            return context.debugDescription
        }
        return "\(error)"
    }

    /// The top level: its type, and a FeatureCollection's features.
    private struct TopLevel: Decodable {
        let type: String?
        let features: [RawFeature]?
        enum Key: String, CodingKey { case type, features }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            type = try? c.decode(String.self, forKey: .type)
            features = try c.decodeIfPresent([RawFeature].self, forKey: .features)
        }
    }

    /// A feature as read, every field kept whatever its type, so that the check below can name
    /// the feature and say what is wrong (a decoding error would only give a coding path).
    struct RawFeature: Decodable {
        enum Identifier { case missing, text(String), integer(Int64), unusable }
        var type: String?
        var isObject = true
        var id: Identifier = .missing
        var propertiesID: Identifier = .missing
        var radius: Double?
        var radiusPresent = false
        var geometryType: String?
        var geometryPresent = false
        var polygons: [[[[Double]]]]?
        var point: [Double]?

        enum Key: String, CodingKey { case type, id, properties, geometry, coordinates, radius_m }

        init(from decoder: Decoder) throws {
            guard let c = try? decoder.container(keyedBy: Key.self) else {
                isObject = false
                return
            }
            type = try? c.decode(String.self, forKey: .type)
            id = Self.identifier(c, .id)
            if let p = try? c.nestedContainer(keyedBy: Key.self, forKey: .properties) {
                propertiesID = Self.identifier(p, .id)
                radiusPresent = (try? p.decodeNil(forKey: .radius_m)) == false
                radius = try? p.decode(Double.self, forKey: .radius_m)
            }
            if let g = try? c.nestedContainer(keyedBy: Key.self, forKey: .geometry) {
                geometryPresent = true
                geometryType = try? g.decode(String.self, forKey: .type)
                switch geometryType {
                case "Polygon": polygons = (try? g.decode([[[Double]]].self, forKey: .coordinates)).map { [$0] }
                case "MultiPolygon": polygons = try? g.decode([[[[Double]]]].self, forKey: .coordinates)
                case "Point": point = try? g.decode([Double].self, forKey: .coordinates)
                default: break
                }
            }
        }

        private static func identifier(_ c: KeyedDecodingContainer<Key>, _ key: Key) -> Identifier {
            guard c.contains(key), (try? c.decodeNil(forKey: key)) == false else { return .missing }
            if let s = try? c.decode(String.self, forKey: key) { return .text(s) }
            if let i = try? c.decode(Int64.self, forKey: key) { return .integer(i) }
            return .unusable
        }
    }

    // MARK: checking a feature

    private static func check(_ raw: RawFeature, index: Int, line: Int?, path: String,
                              context: GEOSContext) throws(GeofenceFileError) -> Geofence {
        var name = "feature \(index)" + (line.map { " (line \($0))" } ?? "")
        func refuse(_ reason: String) -> GeofenceFileError { GeofenceFileError(path: path, feature: name, reason: reason) }

        guard raw.isObject else { throw refuse("not a JSON object") }
        guard raw.type == "Feature" else {
            throw refuse("not a GeoJSON Feature (its \"type\" is \(raw.type.map { quoted($0) } ?? "missing"))")
        }
        let id: String
        switch (raw.id, raw.propertiesID) {
        case (.text(let s), _), (.missing, .text(let s)): id = s
        case (.integer(let i), _), (.missing, .integer(let i)): id = String(i)
        case (.unusable, _), (.missing, .unusable):
            throw refuse("its id must be a string or an integer")
        case (.missing, .missing):
            throw refuse("has no id (neither \"id\" nor \"properties.id\")")
        }
        guard !id.isEmpty else { throw refuse("its id is empty") }
        name = "feature \(quoted(id))"

        guard raw.geometryPresent else { throw refuse("has no geometry") }
        switch raw.geometryType {
        case "Polygon", "MultiPolygon":
            guard let coordinates = raw.polygons, !coordinates.isEmpty else {
                throw refuse("the \(raw.geometryType!)'s coordinates are not arrays of [longitude, latitude] positions")
            }
            var polygons: [[[GeoPoint]]] = []
            for (p, rings) in coordinates.enumerated() {
                guard !rings.isEmpty else { throw refuse("polygon \(p) has no rings") }
                var polygon: [[GeoPoint]] = []
                for (r, ring) in rings.enumerated() {
                    let whereRing = coordinates.count > 1 ? "polygon \(p), ring \(r)" : "ring \(r)"
                    guard ring.count >= 4 else {
                        throw refuse("\(whereRing) has \(ring.count) positions; a ring needs at least 4 (3 corners and the first again)")
                    }
                    var points: [GeoPoint] = []
                    points.reserveCapacity(ring.count)
                    for (i, position) in ring.enumerated() {
                        points.append(try Self.position(position, where: "\(whereRing), position \(i)", refuse))
                    }
                    guard points.first == points.last else {
                        throw refuse("\(whereRing) is not closed: its last position differs from its first")
                    }
                    polygon.append(points)
                }
                polygons.append(polygon)
            }
            do {
                let geometry = try Geometry(polygons: polygons, context: context)
                if let problem = try geometry.validityProblem() {
                    let place = problem.location.map { " at [\($0.longitude), \($0.latitude)]" } ?? ""
                    throw refuse("invalid \(raw.geometryType!): \(problem.reason)\(place)")
                }
            } catch let error as GEOSError {
                throw refuse("invalid \(raw.geometryType!): \(error.message)")
            } catch let error as GeofenceFileError {
                throw error
            } catch {
                throw refuse("invalid \(raw.geometryType!): \(error)")
            }
            return Geofence(id: id, shape: .polygons(polygons))
        case "Point":
            guard let position = raw.point else { throw refuse("the Point's coordinates are not a [longitude, latitude] position") }
            let center = try Self.position(position, where: "the Point", refuse)
            guard raw.radiusPresent else { throw refuse("a Point fence needs properties.radius_m (metres)") }
            guard let radius = raw.radius else { throw refuse("properties.radius_m must be a number of metres") }
            guard radius.isFinite, radius > 0 else { throw refuse("properties.radius_m must be a finite number > 0, not \(radius)") }
            return Geofence(id: id, shape: .circle(center: center, radiusMetres: radius))
        case nil:
            throw refuse("its geometry has no \"type\"")
        case let other?:
            throw refuse("a \(quoted(other)) geometry is not a fence: Polygon, MultiPolygon, or Point with properties.radius_m")
        }
    }

    /// A `[longitude, latitude]` (an altitude after them is allowed and ignored) within range.
    private static func position(_ p: [Double], where place: String, _ refuse: (String) -> GeofenceFileError) throws(GeofenceFileError) -> GeoPoint {
        guard p.count == 2 || p.count == 3 else {
            throw refuse("\(place): a position is [longitude, latitude], not \(p.count) numbers")
        }
        let lng = p[0], lat = p[1]
        guard lng.isFinite, lat.isFinite, (-180...180).contains(lng), (-90...90).contains(lat) else {
            throw refuse("\(place): coordinate out of range: [\(lng), \(lat)] (longitude -180 to 180, latitude -90 to 90)")
        }
        return GeoPoint(latitude: lat, longitude: lng)
    }
}
