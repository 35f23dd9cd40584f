import Foundation
import GeoBridge
import TestSupport
import Testing

@testable import GeoLookup

@Suite("PostalIndex: nearest GeoNames centroid by WGS84 geodesic")
struct PostalIndexTests {
    static let index: PostalIndex = {
        do { return try PostalIndex(path: TestData.data("postal_ca.bin")) } catch { fatalError("\(error)") }
    }()

    @Test("the EQWorks seed fixes get the seed's FSAs")
    func seedPoints() throws {
        // ../shared/seeds/eqworks-ios-sdk.md: these fixes carry fsa R3C and R2H
        let a = try #require(Self.index.nearest(latitude: 49.888171, longitude: -97.131112, maxDistance: 20_000))
        #expect(a.fsa == "R3C")
        let b = try #require(Self.index.nearest(latitude: 49.880312, longitude: -97.112786, maxDistance: 20_000))
        #expect(b.fsa == "R2H")
    }

    @Test("agrees with pyproj's brute force on 4,000 reference points (postal_reference.txt)")
    func reference() throws {
        var cases = 0, mismatches = 0, answered = 0
        for line in try TestData.fixture("postal_reference.txt") {
            let f = line.split(separator: " ")
            let lat = try #require(Double(f[0])), lng = try #require(Double(f[1]))
            let got = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: 20_000)
            let want: (String, Double)? = f[2] == "-" ? nil : (f[2].replacingOccurrences(of: "_", with: " "), Double(f[3])!)
            cases += 1
            if want != nil { answered += 1 }
            let same = (got == nil && want == nil) || (got?.code.formatted == want?.0 && got?.distanceMetres == want?.1)
            if !same {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record("\(lat) \(lng): expected \(want.map { "\($0.0) \($0.1)" } ?? "none"), got \(got.map { "\($0.code) \($0.distanceMetres)" } ?? "none")")
                }
            }
        }
        #expect(cases == 4000)
        #expect(answered > 2000)
        #expect(mismatches == 0)
    }

    @Test("search hints change where a search starts, never its answer: pyproj's reference, cold and warm")
    func hintsKeepAnswers() throws {
        let hints = PostalSearchHints()
        var points: [(Double, Double, String)] = []
        for line in try TestData.fixture("postal_reference.txt") {
            let f = line.split(separator: " ")
            let want = f[2] == "-" ? "-" : "\(f[2].replacingOccurrences(of: "_", with: " ")) \(try #require(Double(f[3])))"
            points.append((try #require(Double(f[0])), try #require(Double(f[1])), want))
        }
        // twice: the first pass fills the hints (cold), the second starts from them (warm)
        var mismatches = 0
        for pass in 0..<2 {
            for (lat, lng, want) in points {
                let got = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: 20_000, hints: hints)
                let text = got.map { "\($0.code.formatted) \($0.distanceMetres)" } ?? "-"
                if text != want {
                    mismatches += 1
                    if mismatches <= 10 { Issue.record("pass \(pass), \(lat) \(lng): expected \(want), got \(text)") }
                }
            }
        }
        #expect(points.count == 4000)
        #expect(mismatches == 0)
        // points in lakes, parks and the countryside (empty cells, far answers), in random order:
        // with hints as without. Half of them fall in a box of 60 × 80 cells astride Toronto's
        // shore, several per cell, where the hints send a search to the cell of another point's
        // answer first
        let seed = testSeed("PostalIndexTests.hintsKeepAnswers")
        var rng = SplitMix64(seed: seed)
        var differ = 0
        for i in 0..<20_000 {
            let lat = i % 2 == 0 ? Double.random(in: 43.3...44.3, using: &rng) : Double.random(in: 43.40...43.70, using: &rng)
            let lng = i % 2 == 0 ? Double.random(in: -80.2 ... -78.6, using: &rng) : Double.random(in: -79.60 ... -79.20, using: &rng)
            let maxDistance = [20_000.0, 1_500, 300][Int.random(in: 0..<3, using: &rng)]
            let plain = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: maxDistance)
            let hinted = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: maxDistance, hints: hints)
            if plain != hinted {
                differ += 1
                if differ <= 10 { Issue.record("\(lat) \(lng) within \(maxDistance) m: \(String(describing: plain)) without hints, \(String(describing: hinted)) with (seed 0x\(String(seed, radix: 16)))") }
            }
        }
        #expect(differ == 0)
    }

    /// The nearest centroid by a scan of every centroid, independent of the module's own
    /// arithmetic: a haversine distance on a sphere of radius R to every centroid (libm), then
    /// PROJ's geodesic for every centroid the sphere cannot rule out, ties to 1e-6 m going to
    /// the smallest code. The ellipsoid's metric is M²dφ² + N²cos²φ dλ², the sphere's R² times
    /// the same form, and M, N lie in [6,335,439 m, 6,399,594 m], so the geodesic g and the
    /// haversine h satisfy h · 6,335,439/R ≤ g ≤ h · 6,399,594/R: a centroid whose h exceeds the
    /// smallest h by more than the factor 6,399,594/6,335,439 cannot be the nearest.
    static func bruteForce(latitude lat: Double, longitude lng: Double) -> (code: PostalCode, metres: Double)? {
        let r = 6_371_008.8, rad = Double.pi / 180
        func haversine(_ plat: Double, _ plng: Double) -> Double {
            let a = pow(sin((plat - lat) * rad / 2), 2) + cos(lat * rad) * cos(plat * rad) * pow(sin((plng - lng) * rad / 2), 2)
            return 2 * r * asin(min(1, a.squareRoot()))
        }
        var smallest = Double.infinity
        var all: [(Int, Double)] = []
        all.reserveCapacity(index.count)
        index.forEachCentroid { k, plat, plng, _ in
            let h = haversine(plat, plng)
            all.append((k, h))
            smallest = min(smallest, h)
        }
        // (1e-9 relative and a millimetre for libm's rounding, far below the factor's 1 %)
        let reach = smallest * (6_399_594.0 / 6_335_439.0) * (1 + 1e-9) + 1e-3
        var winner: (key: Int64, code: PostalCode, metres: Double)? = nil
        for (k, h) in all where h <= reach {
            let c = index.centroid(k)
            let m = Geodesic.wgs84.distance(from: GeoPoint(latitude: lat, longitude: lng), to: GeoPoint(latitude: c.latitude, longitude: c.longitude))
            let key = pythonRoundedDigits(m, places: 6)
            if let w = winner, (w.key, w.code) <= (key, c.code) { continue }
            winner = (key, c.code, m)
        }
        return winner.map { ($0.code, $0.metres) }
    }

    /// Python's `round(x, places)` for x ≥ 0 as the integer x · 10^places, by the C library's
    /// `%.*f`, which prints the decimal nearest the double's exact binary value, exact ties to
    /// even, as Python's `round` does (both rely on correctly rounded conversion, not on x · 10ⁿ).
    static func pythonRoundedDigits(_ x: Double, places: Int) -> Int64 {
        Int64(String(format: "%.\(places)f", x).replacingOccurrences(of: ".", with: ""))!
    }

    /// Python's `round(x, 1)`, the contract's rounding of postal distances, independently of
    /// GeoLookup's `DecimalRounding`.
    static func pythonRoundedTenths(_ x: Double) -> Double {
        Double(String(format: "%.1f", x))!
    }

    @Test("the independent rounding is Python's round(x, 1) and round(x, 6)")
    func independentRounding() {
        // values from CPython 3.11: round(19.75, 1) = 19.8 and round(0.25, 1) = 0.2 (exact binary
        // ties, to even); round(19.65, 1) = 19.6 and round(0.35, 1) = 0.3 (just below the tie in
        // binary); round(0.05, 1) = 0.1 (just above); round(2.675, 2) = 2.67
        #expect([19.75, 0.25, 19.65, 0.35, 0.05, 0, 19.7].map(Self.pythonRoundedTenths) == [19.8, 0.2, 19.6, 0.3, 0.1, 0, 19.7])
        #expect(Self.pythonRoundedDigits(2.675, places: 2) == 267)
        #expect(Self.pythonRoundedDigits(19.7000005, places: 6) == 19_700_001)  // 19.70000050000000158: just above
        #expect(Self.pythonRoundedDigits(0.0000005, places: 6) == 0)  // 4.99999999999999977e-07
    }

    @Test("the grid search finds what a scan of every centroid finds")
    func bruteForce() throws {
        let seed = testSeed("PostalIndexTests.bruteForce")
        var rng = SplitMix64(seed: seed)
        for i in 0..<24 {
            let lat = i % 2 == 0 ? Double.random(in: 43.5...43.8, using: &rng) : Double.random(in: 45...55, using: &rng)
            let lng = i % 2 == 0 ? Double.random(in: -79.6 ... -79.2, using: &rng) : Double.random(in: -120 ... -70, using: &rng)
            let winner = Self.bruteForce(latitude: lat, longitude: lng)
            let got = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: 1e7)
            #expect(got?.code == winner?.code, "\(lat) \(lng) (seed 0x\(String(seed, radix: 16)))")
            #expect(got?.distanceMetres == winner.map { Self.pythonRoundedTenths($0.metres) }, "\(lat) \(lng) (seed 0x\(String(seed, radix: 16)))")
        }
    }

    @Test("points a metre from a grid cell's edge or corner get the answer of a scan of every centroid")
    func cellEdges() throws {
        // the search reads the query's cell, then only the neighbours its best distance reaches
        // (cells of the file's grid, points sorted by latitude in each): here the nearest centroid often
        // lies across the edge, in the cell beside, above, below or across the corner
        let seed = testSeed("PostalIndexTests.cellEdges")
        var rng = SplitMix64(seed: seed)
        let cellsPerDegree = Self.index.gridCellsPerDegree, metre = 1 / 111_000.0
        var differing = 0
        for i in 0..<48 {
            var lat = Double.random(in: 43.60...43.75, using: &rng), lng = Double.random(in: -79.55 ... -79.30, using: &rng)
            let side = Double.random(in: -3...3, using: &rng) * metre
            if i % 3 != 1 { lat = (lat * cellsPerDegree).rounded() / cellsPerDegree + side }
            if i % 3 != 0 { lng = (lng * cellsPerDegree).rounded() / cellsPerDegree + side }
            let winner = Self.bruteForce(latitude: lat, longitude: lng)
            let got = Self.index.nearest(latitude: lat, longitude: lng, maxDistance: 20_000)
            if got?.code != winner?.code || got?.distanceMetres != winner.map({ Self.pythonRoundedTenths($0.metres) }) {
                differing += 1
                Issue.record("\(lat) \(lng): brute force \(winner.map { "\($0.code) \($0.metres)" } ?? "none"), search \(got.map { "\($0.code) \($0.distanceMetres)" } ?? "none") (seed 0x\(String(seed, radix: 16)))")
            }
        }
        #expect(differing == 0)
    }

    @Test("nothing within the maximum distance gives nil; the limit is inclusive of what it covers")
    func maxDistance() throws {
        // the middle of Hudson Bay: no postal code within 20 km
        #expect(Self.index.nearest(latitude: 60.0, longitude: -86.0, maxDistance: 20_000) == nil)
        let near = try #require(Self.index.nearest(latitude: 49.888171, longitude: -97.131112, maxDistance: 20_000))
        #expect(Self.index.nearest(latitude: 49.888171, longitude: -97.131112, maxDistance: near.distanceMetres - 0.2) == nil
            || near.distanceMetres < 0.2)
        #expect(Self.index.nearest(latitude: .nan, longitude: 0, maxDistance: 20_000) == nil)
    }

    @Test("a truncated file is an error that names it")
    func truncated() throws {
        let path = try TestData.alteredCopy(of: "postal_ca.bin") { $0 = $0.prefix($0.count / 2) }
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            let e = error as? DataFileError
            return e?.path == path && "\(e!)".contains(path) && "\(e!)".contains("truncated")
        }
    }

    @Test("a payload size near 2^64 in the header is an error, not an overflow")
    func hugePayloadSize() throws {
        // the size field's top byte, as a damaged header might hold it
        let path = try TestData.alteredCopy(of: "postal_ca.bin") { $0[$0.startIndex + 23] ^= 0x80 }
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            guard let e = error as? DataFileError, case .truncated = e.reason else { return false }
            return "\(e)".contains(path)
        }
    }

    @Test("a flipped byte is caught by the checksum")
    func corrupted() throws {
        let path = try TestData.alteredCopy(of: "postal_ca.bin") { $0[$0.count - 1000] ^= 0x10 }
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            guard let e = error as? DataFileError, case .checksumMismatch = e.reason else { return false }
            return "\(e)".contains(path)
        }
    }

    /// A little-endian integer of the file's bytes at `at`.
    static func word<T: FixedWidthInteger>(_ d: Data, _ at: Int, _: T.Type) -> T {
        d.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
    }

    /// Where a postal file's sections lie: its cell offsets and its points (byte offsets), and
    /// how many there are.
    struct PostalLayout {
        let cellStart: Int, points: Int, cellCount: Int, pointCount: Int
    }

    /// A copy of `postal_ca.bin` changed by `change`, its checksum made good: what a faulty
    /// builder could write, which only the structure checks catch.
    static func alteredPostalIndex(_ change: (inout Data, PostalLayout) -> Void) throws -> String {
        try TestData.alteredCopy(of: "postal_ca.bin") { d in
            let header = DataFile.headerSize
            let n = Int(word(d, 32, UInt64.self)), c = Int(word(d, 40, UInt64.self))
            let blocks = Int(word(d, header, UInt32.self)), rows = Int(word(d, header + 4, UInt32.self))
            let hashBits = Int(word(d, header + 8, UInt32.self))
            func padded(_ bytes: Int) -> Int { (bytes + 7) & ~7 }
            let cellStart = header + 32 + 8 << hashBits + 16 * blocks + 16 * rows
            let points = cellStart + padded(4 * (c + 1))
            #expect(points + 8 * n == d.count)
            change(&d, PostalLayout(cellStart: cellStart, points: points, cellCount: c, pointCount: n))
            let sum = d.withUnsafeBytes { DataFile.checksum(UnsafeRawBufferPointer(rebasing: $0[header...])) }
            withUnsafeBytes(of: sum.littleEndian) { d.replaceSubrange(24..<32, with: $0) }
        }
    }

    /// The latitude offset (the word's low byte) to 255 units, five cells north of its own, or
    /// to 0, one unit south of its cell's edge; the longitude offset (the next three bytes) to
    /// 0, west of its cell's edge, or to its largest, far east.
    @Test("a point moved out of its cell, checksum made good, is refused by the structure checks",
          arguments: [(0, [UInt8(0xFF)]), (0, [0x00]), (1, [0x00, 0x00, 0x00]), (1, [0xFF, 0xFF, 0xFF])])
    func misfiledPoint(offset: Int, bytes: [UInt8]) throws {
        // what a faulty builder could write: the checksum is right, the index is not
        let path = try Self.alteredPostalIndex { d, layout in
            let p = layout.points + 8 * (layout.pointCount / 2)
            for (k, b) in bytes.enumerated() { d[p + offset + k] = b }
        }
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            guard let e = error as? DataFileError, case .corrupt(let why) = e.reason else { return false }
            return "\(e)".contains(path) && why.contains("outside its cell")
        }
    }

    /// Every point's code (its word's high half) made the largest 32-bit value, beyond any
    /// postal code: the first point is named, whether or not its cell has a point on an edge
    /// (cells are checked whole first, point by point only when one fails).
    @Test("codes beyond the largest postal code, checksum made good, are refused from the first point")
    func codesOutOfRange() throws {
        let path = try Self.alteredPostalIndex { d, layout in
            for p in 0..<layout.pointCount {
                let at = layout.points + 8 * p + 4
                d.replaceSubrange(at ..< at + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            }
        }
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            guard let e = error as? DataFileError, case .corrupt(let why) = e.reason else { return false }
            return why.contains("point 0 lies outside its cell") && why.contains("code is out of range")
        }
    }

    @Test("a cell out of latitude order, checksum made good, is refused by the structure checks")
    func unsortedCell() throws {
        // the search stops sweeping a cell where the latitude difference alone passes its best
        // distance, so a cell out of order could hide a nearer centroid: the reader refuses it
        var swapped = false
        let path = try Self.alteredPostalIndex { d, layout in
            // the first cell whose first two points differ in latitude: swap them
            for cell in 0..<layout.cellCount {
                let p = Int(Self.word(d, layout.cellStart + 4 * cell, UInt32.self))
                let end = Int(Self.word(d, layout.cellStart + 4 * cell + 4, UInt32.self))
                guard end - p >= 2 else { continue }
                let at = layout.points + 8 * p
                let a = Self.word(d, at, UInt64.self), b = Self.word(d, at + 8, UInt64.self)
                guard a & 0xFF < b & 0xFF else { continue }
                withUnsafeBytes(of: b.littleEndian) { d.replaceSubrange(at ..< at + 8, with: $0) }
                withUnsafeBytes(of: a.littleEndian) { d.replaceSubrange(at + 8 ..< at + 16, with: $0) }
                swapped = true
                break
            }
        }
        #expect(swapped)
        #expect {
            _ = try PostalIndex(path: path)
        } throws: { error in
            guard let e = error as? DataFileError, case .corrupt(let why) = e.reason else { return false }
            return "\(e)".contains(path) && why.contains("sorted by latitude")
        }
    }

    @Test("a file of another kind or a missing file is an error")
    func wrongFile() throws {
        let path = try TestData.alteredCopy(of: "postal_ca.bin") { $0[0] = UInt8(ascii: "X") }
        #expect(throws: DataFileError.self) { try PostalIndex(path: path) }
        #expect(throws: DataFileError.self) { try PostalIndex(path: "/nonexistent/postal_ca.bin") }
    }
}

@Suite("PostalCode")
struct PostalCodeTests {
    @Test func formats() throws {
        let c = try #require(PostalCode("R3C 4L9"))
        #expect(c.formatted == "R3C 4L9")
        #expect(c.compact == "R3C4L9")
        #expect(c.fsa == "R3C")
        #expect(PostalCode("R3C4L9") == c)
        #expect(PostalCode("r3c 4l9") == nil)
        #expect(PostalCode("R3C 4L") == nil)
        #expect(PostalCode("33C 4L9") == nil)
        #expect(PostalCode("A0A 0A0")! < PostalCode("A0A 0A1")!)
    }
}

@Suite("Python-compatible decimal rounding")
struct DecimalRoundingTests {
    @Test func tenths() {
        // 19.75 and 0.25 are exact binary ties: half to even. 19.65 and 0.35 lie just below the
        // tie in binary, 0.05 just above.
        #expect(DecimalRounding.tenths(19.75) == 19.8)
        #expect(DecimalRounding.tenths(0.25) == 0.2)
        #expect(DecimalRounding.tenths(19.65) == 19.6)
        #expect(DecimalRounding.tenths(0.35) == 0.3)
        #expect(DecimalRounding.tenths(0.05) == 0.1)
        #expect(DecimalRounding.tenths(0) == 0)
        #expect(DecimalRounding.tenths(19.7) == 19.7)
    }
}
