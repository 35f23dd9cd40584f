import GeoBridge
import ThreadSharing

/// Reads a fence file (contract rule 11): a GeoJSON FeatureCollection, or one GeoJSON Feature a
/// line. Every feature is checked before any is used; the first problem refuses the file.
enum GeofenceFile {
    /// The fences of a file's bytes, in file order.
    ///
    /// A FeatureCollection's features are read and checked in parts (``ForkJoin/parts(for:least:)``; see
    /// ``inParts(_:path:)``); a file that is anything else, or that has a problem, is read again
    /// from the start, feature after feature, and refused at its first problem (a duplicate id
    /// as soon as its second feature is reached), so the error is the same however the file
    /// was first read.
    ///
    /// - Returns: the fences, and their places in ascending order of id (``Geofence/idOrder(_:)``).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String, context: GEOSContext) throws(GeofenceFileError) -> (fences: [Geofence], order: [Int]) {
        if let fences = inParts(bytes, path: path) {
            // every feature is valid: a repeated id is the only problem left, and the order of
            // ids puts the fences that share one side by side, in file order
            let order = Geofence.idOrder(fences)
            if let (earlier, later) = firstRepeat(fences, order: order) {
                throw GeofenceFileError(path: path, feature: "feature \(quoted(fences[later].id))",
                                        reason: "duplicate id: feature \(earlier) has it too")
            }
            return (fences, order)
        }
        // (reading in order is the rare path: a file of one feature a line, or one refused)
        let features = try rawFeatures(Array(bytes), path: path)
        var fences: [Geofence] = []
        fences.reserveCapacity(features.count)
        var ids = IDs(capacity: features.count)
        for (index, raw) in features.enumerated() {
            let fence = try check(raw.feature, index: index, line: raw.line, path: path, context: context)
            try ids.add(fence, index: index, path: path)
            fences.append(fence)
        }
        return (fences, Geofence.idOrder(fences))
    }

    /// The first feature in file order whose id an earlier one has, with that earlier one
    /// (what reading the file in order refuses first); `nil` when the ids are unique.
    private static func firstRepeat(_ fences: [Geofence], order: [Int]) -> (earlier: Int, later: Int)? {
        var first: (earlier: Int, later: Int)?
        var k = 0
        while k < order.count {
            // a run of one id: its places ascend, so its first two are the pair to report
            var j = k + 1
            while j < order.count && Geofence.compareBytes(fences[order[j]].id, fences[order[k]].id) == 0 { j += 1 }
            if j - k > 1 && order[k + 1] < (first?.later ?? .max) { first = (order[k], order[k + 1]) }
            k = j
        }
        return first
    }

    /// The ids met so far, keyed by their bytes (not Swift's canonical equality), with the
    /// feature that had each first.
    private struct IDs {
        var first: [[UInt8]: Int] = [:]

        init(capacity: Int) { first.reserveCapacity(capacity) }

        /// Refuses the file when `fence`'s id was met before.
        mutating func add(_ fence: Geofence, index: Int, path: String) throws(GeofenceFileError) {
            if let earlier = first.updateValue(index, forKey: Array(fence.id.utf8)) {
                throw GeofenceFileError(path: path, feature: "feature \(GeofenceFile.quoted(fence.id))",
                                        reason: "duplicate id: feature \(earlier) has it too")
            }
        }
    }

    /// Features read and checked by one part of a FeatureCollection: each of its chunks'
    /// (the chunk's number and its fences), or `nil` at the first problem.
    private typealias Part = [(chunk: Int, fences: [Geofence])]?

    /// Features a part takes at a time (``inParts(_:path:)``).
    static let chunk = 256

    /// The fences of a FeatureCollection, its features read and checked on ``ForkJoin``'s
    /// threads (each with its own GEOS context): `nil` when the file is not plainly a
    /// FeatureCollection (``FenceJSON/collectionLayout(_:)``) or any part of it has a problem,
    /// which the caller then finds and names reading the file in order.
    ///
    /// The parts take ``chunk`` features at a time until none are left, rather than a share
    /// each fixed in advance: a part runs beside the data files' loading (``LocationLookup``),
    /// which slows one more than the other, and with halves a perf timeline of `lookup
    /// --geofences` with 20,000 fences often showed one processor's worth of work for the last
    /// 10-15 ms of the reading. Taken in chunks, and with the grid's table filled in parts,
    /// `lookup --geofences` on no input took 0.938 of the time (paired medians, 40 runs each way).
    ///
    /// On this project's 2-vCPU machine the parts gain less than their number: 100,000 fences
    /// loaded in about 1.0 s of wall time against 1.07 s in one part, for 30 % more CPU time
    /// (the two vCPUs share much of one core); the work is independent, so real cores scale.
    static func inParts(_ buffer: UnsafeBufferPointer<UInt8>, path: String) -> [Geofence]? {
        guard let layout = FenceJSON.collectionLayout(buffer),
              case .string("FeatureCollection")? = try? FenceJSON.parse(buffer, range: layout.type, depth: 1),
              layout.others.allSatisfy({ (try? FenceJSON.parse(buffer, range: $0, depth: 1)) != nil })
        else { return nil }
        let features = layout.features
        let chunks = (features.count + chunk - 1) / chunk
        let next = Monitor(0)  // the next chunk to take
        let shared = SharedBytes(buffer.baseAddress!), count = buffer.count
        let results: [Part] = ForkJoin.map(parts: ForkJoin.parts(for: features.count, least: 1_000)) { _ -> Part in
            let buffer = shared.bytes(start: 0, count: count)
            guard let context = try? GEOSContext() else { return nil }
            var taken: [(chunk: Int, fences: [Geofence])] = []
            while true {
                let c = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard c < chunks else { return taken }
                let share = (c * chunk)..<min(features.count, (c + 1) * chunk)
                var fences: [Geofence] = []
                fences.reserveCapacity(share.count)
                for index in share {
                    // a feature is two levels deep: in the top object's array
                    // read straight into the check's fields, or, for a feature of another shape, as a tree
                    guard let raw = FenceJSON.feature(buffer, range: features[index], depth: 2)
                              ?? (try? FenceJSON.parse(buffer, range: features[index], depth: 2)).map(RawFeature.init),
                          let fence = try? check(raw, index: index, line: nil, path: path, context: context)
                    else {
                        next.withLock { $0 = chunks }  // the others stop too: the file is read again in order
                        return nil
                    }
                    fences.append(fence)
                }
                taken.append((c, fences))
            }
        }
        var byChunk = [[Geofence]](repeating: [], count: chunks)
        for part in results {
            guard let part else { return nil }
            for (c, fences) in part { byChunk[c] = fences }
        }
        var fences: [Geofence] = []
        fences.reserveCapacity(features.count)
        for chunk in byChunk { fences += chunk }
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
        let whole: Result<FenceJSONValue, FenceJSON.Failure>
        do { whole = .success(try FenceJSON.parse(bytes)) } catch { whole = .failure(error) }
        switch whole {
        case .success(let top):
            guard case .object = top else {
                throw GeofenceFileError(path: path, feature: nil, reason: "not a GeoJSON FeatureCollection or Feature (not a JSON object)")
            }
            switch top["type"]?.string {
            case "FeatureCollection":
                guard let features = top["features"]?.elements else {
                    throw GeofenceFileError(path: path, feature: nil, reason: "a FeatureCollection without a \"features\" array")
                }
                return features.map { Located(feature: RawFeature($0), line: nil) }
            case "Feature":
                return [Located(feature: RawFeature(top), line: nil)]
            default:
                throw GeofenceFileError(path: path, feature: nil, reason:
                    "not a GeoJSON FeatureCollection or Feature (its \"type\" is \(top["type"]?.string.map { quoted($0) } ?? "missing"))")
            }
        case .failure(let error):
            // one Feature a line: the first line must be a JSON object by itself
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let firstLine = lines.firstIndex { !isBlank($0) }
            guard let firstLine, lines.count > 1, case .object? = try? FenceJSON.parse(Array(lines[firstLine])) else {
                throw GeofenceFileError(path: path, feature: nil, reason: "not JSON: \(error.message)")
            }
            var out: [Located] = []
            for (n, line) in lines.enumerated() where !isBlank(line) {
                do {
                    out.append(Located(feature: RawFeature(try FenceJSON.parse(Array(line))), line: n + 1))
                } catch {
                    throw GeofenceFileError(path: path, feature: "feature \(out.count) (line \(n + 1))",
                                            reason: "not JSON: \(error.message)")
                }
            }
            return out
        }
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// A feature as read, every field kept whatever its type, so that the check below can name
    /// the feature and say what is wrong.
    struct RawFeature {
        enum Identifier { case missing, text(String), integer(Int64), unusable }
        var type: String?
        var isObject = true
        var id: Identifier = .missing
        var propertiesID: Identifier = .missing
        var radius: Double?
        var radiusPresent = false
        var geometryType: String?
        var geometryPresent = false
        var polygons: [[RawRing]]?
        var point: [Double]?

        init(_ value: FenceJSONValue) {
            guard case .object = value else {
                isObject = false
                return
            }
            type = value["type"]?.string
            id = Self.identifier(value["id"])
            if let p = value["properties"] { readProperties(p) }
            if let g = value["geometry"], case .object = g {
                geometryPresent = true
                geometryType = g["type"]?.string
                let coordinates = g["coordinates"]
                switch geometryType {
                case "Polygon": polygons = coordinates.flatMap(Self.rings).map { [$0] }
                case "MultiPolygon":
                    polygons = coordinates?.elements.flatMap { polygons in
                        var out: [[RawRing]] = []
                        for polygon in polygons {
                            guard let rings = Self.rings(polygon) else { return nil }
                            out.append(rings)
                        }
                        return out
                    }
                case "Point": if case .numbers(let n)? = coordinates { point = n }
                default: break
                }
            }
        }

        /// A polygon's rings of positions, or `nil` when the value is not arrays of arrays of numbers.
        private static func rings(_ value: FenceJSONValue) -> [RawRing]? {
            guard let rings = value.elements else { return nil }
            var out: [RawRing] = []
            out.reserveCapacity(rings.count)
            for ring in rings {
                if case .pairs(let pairs) = ring {  // the usual ring: [longitude, latitude] positions
                    out.append(RawRing(pairs: pairs, count: pairs.count / 2))
                    continue
                }
                guard let positions = ring.elements else { return nil }
                var raw = RawRing(pairs: [], count: positions.count)
                raw.pairs.reserveCapacity(2 * positions.count)
                for (index, position) in positions.enumerated() {
                    // every element must still be a number array (else the coordinates are refused
                    // as a whole, which comes first), so the scan goes on past a misfit
                    guard case .numbers(let n) = position else { return nil }
                    if raw.misfit != nil { continue }
                    if GeofenceFile.isPosition(n) {
                        raw.pairs.append(n[0])
                        raw.pairs.append(n[1])
                    } else {
                        raw.misfit = (index, n.count)
                    }
                }
                out.append(raw)
            }
            return out
        }

        /// An empty feature, filled member by member (``FenceJSON/feature(_:range:depth:)``).
        init() {}

        /// Takes the `"properties"` value's id and radius, replacing an earlier one's.
        mutating func readProperties(_ p: FenceJSONValue) {
            propertiesID = .missing
            radius = nil
            radiusPresent = false
            guard case .object = p else { return }
            propertiesID = Self.identifier(p["id"])
            if let r = p["radius_m"], !r.isNull {
                radiusPresent = true
                if case .number(let v, _) = r { radius = v }
            }
        }

        static func identifier(_ value: FenceJSONValue?) -> Identifier {
            switch value {
            case nil, .null?: .missing
            case .string(let s)?: .text(s)
            case .number(_, let integer?)?: .integer(integer)
            default: .unusable
            }
        }
    }

    /// A ring's positions as read: their longitudes and latitudes in pairs, how many positions
    /// there are, and the first one that is not 2 or 3 numbers (the check refuses it there; the
    /// pairs stop short of it).
    struct RawRing {
        var pairs: [Double]
        var count: Int
        var misfit: (index: Int, width: Int)? = nil
    }

    // MARK: checking a feature

    private static func check(_ raw: RawFeature, index: Int, line: Int?, path: String,
                              context: GEOSContext) throws(GeofenceFileError) -> Geofence {
        // the feature's name for a message, made only for one: by its place until its id is
        // known (making it for every feature was about 1,000 instructions a fence, callgrind)
        var knownID: String? = nil
        func refuse(_ reason: String) -> GeofenceFileError {
            let name = knownID.map { "feature \(quoted($0))" } ?? "feature \(index)" + (line.map { " (line \($0))" } ?? "")
            return GeofenceFileError(path: path, feature: name, reason: reason)
        }

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
        knownID = id

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
                    // named only for a message: made for every ring, it was a string interpolated for nothing
                    func whereRing() -> String { coordinates.count > 1 ? "polygon \(p), ring \(r)" : "ring \(r)" }
                    guard ring.count >= 4 else {
                        throw refuse("\(whereRing()) has \(ring.count) positions; a ring needs at least 4 (3 corners and the first again)")
                    }
                    var points: [GeoPoint] = []
                    points.reserveCapacity(ring.count)
                    for i in 0..<ring.count {
                        if let misfit = ring.misfit, misfit.index == i {
                            throw refuse("\(whereRing()), position \(i): \(GeofenceFile.misfit(misfit.width))")
                        }
                        points.append(try Self.position(longitude: ring.pairs[2 * i], latitude: ring.pairs[2 * i + 1],
                                                        where: "\(whereRing()), position \(i)", refuse))
                    }
                    guard points.first == points.last else {
                        throw refuse("\(whereRing()) is not closed: its last position differs from its first")
                    }
                    polygon.append(points)
                }
                polygons.append(polygon)
            }
            // a simple ring is proven valid here; anything else is GEOS's to decide and name
            if SimpleRing.isSurelyValid(polygons) { return Geofence(id: id, shape: .polygons(polygons)) }
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
            guard Self.isPosition(position) else { throw refuse("the Point: \(Self.misfit(position.count))") }
            let center = try Self.position(longitude: position[0], latitude: position[1], where: "the Point", refuse)
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

    /// Whether `numbers` is a position: a longitude and a latitude, and an altitude after them
    /// (allowed and ignored).
    static func isPosition(_ numbers: [Double]) -> Bool { numbers.count == 2 || numbers.count == 3 }

    /// What is wrong with a position of `count` numbers.
    static func misfit(_ count: Int) -> String { "a position is [longitude, latitude], not \(count) numbers" }

    /// A position's longitude and latitude, within range.
    /// (`place` is made only for a message, not a string for every position as before.)
    private static func position(longitude lng: Double, latitude lat: Double, where place: @autoclosure () -> String,
                                 _ refuse: (String) -> GeofenceFileError) throws(GeofenceFileError) -> GeoPoint {
        guard lng.isFinite, lat.isFinite, (-180...180).contains(lng), (-90...90).contains(lat) else {
            throw refuse("\(place()): coordinate out of range: [\(lng), \(lat)] (longitude -180 to 180, latitude -90 to 90)")
        }
        return GeoPoint(latitude: lat, longitude: lng)
    }
}
