import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import H3Core

/// Properties of the H3 API that hold for every cell, and its error handling. Exactness
/// against H3 4.5.0 itself is in GoldenVectorTests (fixtures from PyPI h3) and in the CI
/// differential check.
struct H3CellTests {
    static func randomPoints(_ n: Int, seed: UInt64) -> [LatLng] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in
            let z = Double.random(in: -1...1, using: &rng)
            return LatLng(latitude: asinDegrees(z), longitude: Double.random(in: -180...180, using: &rng))
        }
    }

    static func asinDegrees(_ z: Double) -> Double { asin(z) * 180 / .pi }

    @Test("the EQWorks seed payload's h3Index")
    func seedPayloads() throws {
        // ../shared/seeds/eqworks-ios-sdk.md gives these three fixes with their h3Index
        let cases: [(Double, Double, UInt64)] = [
            (49.888171, -97.131112, 0x8f2_71c9_73aa_4594),
            (49.880312, -97.112786, 0x8f2_71c9_468b_2c5c),
            (23.456755, -12.651229, 0x8f5_5022_b0c0_538c),
        ]
        for (lat, lng, expected) in cases {
            let cell = try H3Cell(LatLng(latitude: lat, longitude: lng), resolution: .finest)
            #expect(cell.rawValue == expected)
        }
    }

    @Test("non-finite coordinates are an error, not a crash")
    func nonFinite() {
        for (lat, lng) in [(Double.nan, 0.0), (0, .nan), (.infinity, 0), (0, -.infinity)] {
            #expect(throws: H3Error.latLngDomain) {
                try H3Cell(LatLng(latitude: lat, longitude: lng), resolution: .finest)
            }
        }
    }

    @Test("resolutions outside 0...15 are rejected")
    func resolutionDomain() {
        #expect(H3Resolution(rawValue: -1) == nil)
        #expect(H3Resolution(rawValue: 16) == nil)
        #expect(throws: H3Error.resolutionDomain) { try H3Resolution(16) }
        #expect(H3Resolution.allCases.count == 16)
        #expect(H3Resolution(rawValue: 9)?.isClassIII == true)
    }

    @Test("strings: hex with optional 0x, either case; anything else is an error")
    func strings() throws {
        let cell = try H3Cell(string: "8f271c973aa4594")
        #expect(cell.description == "8f271c973aa4594")
        #expect(try H3Cell(string: "0x8F271C973AA4594") == cell)
        #expect(H3Cell("8f271c973aa4594") == cell)
        for bad in ["", "0x", "xyz", "8f271c973aa4594z", "18f271c973aa45940", "-8f271c973aa4594", " 8f2"] {
            #expect(throws: H3Error.invalidString, "\(bad)") { try H3Cell(string: bad) }
        }
        // hexadecimal but not a cell: a digit 7 inside the resolution
        #expect(throws: H3Error.invalidCell) { try H3Cell(string: "8f271c973aa4597") }
        #expect(H3Cell(rawValue: 0) == nil)
    }

    static let seedCell: UInt64 = 0x8f2_71c9_73aa_4594
    static let invalidIndexSamples: [UInt64] = [
        0,
        UInt64.max,
        seedCell | (1 << 63),  // high bit set
        (seedCell & ~(UInt64(15) << 59)) | (UInt64(2) << 59),  // mode 2 (directed edge)
        seedCell | (UInt64(1) << 56),  // a reserved bit
        0x80f_ffff_ffff_ffff | (UInt64(122) << 45),  // base cell 122
        (seedCell & ~UInt64(7)) | 7,  // digit 15 is 7 at resolution 15
        0x892_71c9_73bb_fffe,  // an unused digit past resolution 9 is not 7
    ]

    @Test("invalid indexes are rejected", arguments: invalidIndexSamples)
    func invalidIndexes(index: UInt64) {
        #expect(!H3Cell.isValid(index))
        #expect(throws: H3Error.invalidCell) { try H3Cell(validating: index) }
    }

    @Test("a pentagon's deleted k sub-sequence is not a cell")
    func deletedSubsequence() throws {
        // base cell 4 is a pentagon; its resolution-1 child in direction 1 does not exist
        let pentagon = try #require(H3Cell(rawValue: 0x800_9fff_ffff_ffff))
        #expect(pentagon.isPentagon)
        let k = H3IndexBits.setDigit(H3IndexBits.setResolution(pentagon.rawValue, 1), 1, .kAxes)
        #expect(!H3Cell.isValid(k))
        let j = H3IndexBits.setDigit(H3IndexBits.setResolution(pentagon.rawValue, 1), 1, .jAxes)
        #expect(H3Cell.isValid(j))
    }

    @Test("a cell's centre lies in the cell; resolution and base cell agree", arguments: H3Resolution.allCases)
    func centerRoundTrip(resolution: H3Resolution) throws {
        for p in Self.randomPoints(500, seed: UInt64(resolution.rawValue) + 1) {
            let cell = try H3Cell(p, resolution: resolution)
            #expect(cell.resolution == resolution)
            #expect(H3Cell.isValid(cell.rawValue))
            #expect((0..<122).contains(cell.baseCellNumber))
            #expect(try H3Cell(cell.center, resolution: resolution) == cell)
            let b = cell.boundary
            #expect((5...10).contains(b.count))
            #expect(b.allSatisfy { $0.isFinite && abs($0.latitude) <= 90 && abs($0.longitude) <= 180 })
        }
    }

    @Test("parents contain their children", arguments: H3Resolution.allCases.dropFirst())
    func hierarchy(resolution: H3Resolution) throws {
        let coarser = H3Resolution(rawValue: resolution.rawValue - 1)!
        for p in Self.randomPoints(200, seed: 100 + UInt64(resolution.rawValue)) {
            let cell = try H3Cell(p, resolution: resolution)
            let parent = try cell.parent(at: coarser)
            let children = try parent.children(at: resolution)
            #expect(children.contains(cell))
            #expect(Int64(children.count) == (try parent.childrenCount(at: resolution)))
            #expect(children == children.sorted())
            #expect(try children.allSatisfy { try $0.parent(at: coarser) == parent })
            #expect(try parent.centerChild(at: resolution) == children[0])
            #expect(try cell.parent(at: resolution) == cell)
        }
    }

    @Test("the 12 pentagons of each resolution")
    func pentagons() throws {
        var bases: [H3Cell] = []
        for bc in 0..<122 {
            let raw = H3IndexBits.setBaseCell(H3IndexBits.initial, bc)
            bases.append(try H3Cell(validating: raw))
        }
        let pentagons = bases.filter(\.isPentagon)
        #expect(pentagons.count == 12)
        for res in H3Resolution.allCases {
            for p in pentagons {
                let c = try p.centerChild(at: res)
                #expect(c.isPentagon)
                #expect(c.boundary.count == (res.isClassIII ? 10 : 5))
                #expect(try c.gridDisk(k: 1).count == 6)
                if res.rawValue < 15 {
                    let next = H3Resolution(rawValue: res.rawValue + 1)!
                    #expect(try c.childrenCount(at: next) == 6)
                }
            }
        }
    }

    @Test("gridDisk: 1 + 3k(k+1) distinct cells away from pentagons, the origin first")
    func gridDiskSizes() throws {
        for p in Self.randomPoints(200, seed: 77) {
            let cell = try H3Cell(p, resolution: H3Resolution(rawValue: 9)!)
            for k in 0...3 {
                let disk = try cell.gridDisk(k: k)
                #expect(disk.first == cell)
                #expect(Set(disk).count == disk.count)
                // no pentagon lies within 3 cells of a random point at resolution 9 (the odds are ~1e-9)
                #expect(disk.count == 1 + 3 * k * (k + 1))
            }
        }
        let cell = try H3Cell(string: "8f271c973aa4594")
        #expect(throws: H3Error.kDomain) { try cell.gridDisk(k: -1) }
        #expect(throws: H3Error.kDomain) { try cell.gridDisk(k: H3Cell.maxGridDiskK + 1) }
    }

    @Test("resolution errors of parent and children")
    func hierarchyErrors() throws {
        let cell = try H3Cell(string: "89271c973bbffff")  // resolution 9
        #expect(throws: H3Error.resolutionMismatch) { try cell.parent(at: .finest) }
        #expect(throws: H3Error.resolutionDomain) { try cell.children(at: .coarsest) }
        #expect(throws: H3Error.resolutionDomain) { try cell.centerChild(at: .coarsest) }
        #expect(throws: H3Error.resolutionDomain) { try cell.childrenCount(at: .coarsest) }
    }

    @Test("longitudes outside [-180, 180] wrap like their sines and cosines")
    func longitudeWrap() throws {
        let res = H3Resolution(rawValue: 7)!
        for p in Self.randomPoints(200, seed: 5) {
            let base = try H3Cell(p, resolution: res)
            let wrapped = try H3Cell(LatLng(latitude: p.latitude, longitude: p.longitude + 360), resolution: res)
            // p + 360 is not exactly p after rounding, but lands in the same cell unless on an edge
            #expect(wrapped == base || wrapped.gridDiskContains(base))
        }
    }

    /// compactCells' radix sort sorts as `sort()` does: cells of one resolution (the bits it
    /// sorts on) in sets from 33 to 70,000 (both pass widths), spread over the globe or
    /// clustered under one parent (few varying bits, one pass).
    @Test("the radix sort of cell indexes sorts")
    func radixSortSorts() throws {
        var rng = SplitMix64(seed: 11)
        for (count, spread) in [(33, true), (1_000, true), (1_000, false), (70_000, true), (70_000, false)] {
            for res in [1, 5, 9, 15] {
                let r = try H3Resolution(res)
                let parent = try H3Cell(LatLng(latitude: 45.5, longitude: -73.6), resolution: H3Resolution(max(0, res - 4)))
                var values = (0..<count).map { _ -> UInt64 in
                    if spread { return try! H3Cell(Self.randomPoints(1, seed: rng.next())[0], resolution: r).rawValue }
                    var h = H3IndexBits.setResolution(parent.rawValue, res)
                    for d in (parent.resolution.rawValue + 1)..<(res + 1) {
                        h = H3IndexBits.setDigit(h, d, Direction(unchecked: UInt8(rng.next() % 7)))
                    }
                    return h
                }
                let expected = values.sorted()
                IndexRadixSort.sort(&values, bits: H3IndexBits.digitOffset(res)..<(H3IndexBits.baseCellOffset + 7))
                #expect(values == expected, "\(count) cells, res \(res), spread \(spread)")
            }
        }
    }
}

extension H3Cell {
    func gridDiskContains(_ other: H3Cell) -> Bool { ((try? gridDisk(k: 1)) ?? []).contains(other) }
}
