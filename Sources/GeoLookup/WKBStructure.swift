/// A structural check of little-endian 2D WKB polygons, made when a data file is opened so that
/// GEOS never meets bytes it would reject when a lookup reads them later.
///
/// It follows GEOS's own reading rules for the two types the files hold: a Polygon (type 3) is a
/// ring count then rings; a MultiPolygon (type 6) is a polygon count then complete WKB Polygons;
/// a ring is a point count then x, y doubles, and must be empty or have at least 4 points with
/// the last equal to the first. Coordinates must be degrees, longitude (x) within ±180 and
/// latitude (y) within ±90, as every Natural Earth coordinate is (a lookup computes grid cells
/// from them), and the geometry must fill the bytes exactly.
enum WKBStructure {
    private static let littleEndian: UInt8 = 1
    private static let polygonType: UInt32 = 3
    private static let multiPolygonType: UInt32 = 6

    /// What is wrong with `bytes` as one WKB Polygon or MultiPolygon, or `nil` if nothing is.
    ///
    /// - Complexity: O(n) in the number of bytes (every coordinate is checked to be in range).
    static func problem(in bytes: UnsafeRawBufferPointer) -> String? {
        var reader = Reader(bytes: bytes)
        do throws(Problem) {
            switch try reader.header() {
            case polygonType:
                try reader.polygonBody()
            case multiPolygonType:
                let parts = try reader.uint32()
                for _ in 0..<parts {
                    guard try reader.header() == polygonType else { throw Problem("a part is not a Polygon") }
                    try reader.polygonBody()
                }
            case let other:
                throw Problem("geometry type \(other) is neither Polygon (3) nor MultiPolygon (6)")
            }
            guard reader.offset == bytes.count else {
                throw Problem("\(bytes.count - reader.offset) bytes after the geometry")
            }
            return nil
        } catch {
            return "\(error.message) (at byte \(reader.offset) of \(bytes.count))"
        }
    }

    /// One Polygon of a WKB Polygon or MultiPolygon: its bytes, a complete WKB Polygon, and the
    /// envelope of all its rings (x is longitude, y latitude, in degrees).
    struct Polygon {
        let bytes: Range<Int>
        let west: Double, south: Double, east: Double, north: Double
        /// Points in all its rings.
        let pointCount: Int
    }

    /// The Polygons of bytes that ``problem(in:)`` accepted: the one Polygon, or each part of a
    /// MultiPolygon, in order. A point intersects the whole exactly when it intersects one of them.
    ///
    /// - Complexity: O(n) in the number of points.
    static func polygons(in bytes: UnsafeRawBufferPointer) -> [Polygon] {
        var reader = Reader(bytes: bytes)
        do throws(Problem) {
            switch try reader.header() {
            case polygonType:
                reader.offset = 0
                return [try reader.polygon()]
            case multiPolygonType:
                let parts = try reader.uint32()
                return try (0..<parts).map { _ throws(Problem) in try reader.polygon() }
            case let other:
                throw Problem("geometry type \(other)")
            }
        } catch {
            preconditionFailure("polygons(in:) on WKB that does not pass problem(in:): \(error.message)")
        }
    }

    private struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func need(_ count: Int) throws(Problem) {
            guard count >= 0, bytes.count - offset >= count else { throw Problem("truncated") }
        }

        mutating func uint32() throws(Problem) -> UInt32 {
            try need(4)
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        func double(at o: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)))
        }

        /// The byte order (which must be little-endian) and the geometry type.
        mutating func header() throws(Problem) -> UInt32 {
            try need(1)
            guard bytes[offset] == WKBStructure.littleEndian else {
                throw Problem("byte order \(bytes[offset]) is not little-endian (1)")
            }
            offset += 1
            return try uint32()
        }

        /// A complete Polygon (header and body) from the current offset, with its envelope;
        /// for bytes already checked.
        mutating func polygon() throws(Problem) -> Polygon {
            let start = offset
            guard try header() == polygonType else { throw Problem("a part is not a Polygon") }
            var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
            var pointCount = 0
            for _ in 0..<(try uint32()) {
                let points = Int(try uint32())
                try need(16 * points)
                for k in 0..<points {
                    let x = double(at: offset + 16 * k), y = double(at: offset + 16 * k + 8)
                    west = Swift.min(west, x)
                    east = Swift.max(east, x)
                    south = Swift.min(south, y)
                    north = Swift.max(north, y)
                }
                offset += 16 * points
                pointCount += points
            }
            return Polygon(bytes: start..<offset, west: west, south: south, east: east, north: north, pointCount: pointCount)
        }

        mutating func polygonBody() throws(Problem) {
            let rings = try uint32()
            for _ in 0..<rings {
                let points = Int(try uint32())
                guard points == 0 || points >= 4 else { throw Problem("a ring of \(points) points") }
                try need(16 * points)
                for k in 0..<points {
                    // (a NaN fails both comparisons)
                    guard abs(double(at: offset + 16 * k)) <= 180, abs(double(at: offset + 16 * k + 8)) <= 90 else {
                        throw Problem("a coordinate is not in degrees within ±180 longitude and ±90 latitude")
                    }
                }
                if points > 0 {
                    let last = offset + 16 * (points - 1)
                    guard double(at: offset) == double(at: last), double(at: offset + 8) == double(at: last + 8) else {
                        throw Problem("a ring is not closed")
                    }
                }
                offset += 16 * points
            }
        }
    }
}
