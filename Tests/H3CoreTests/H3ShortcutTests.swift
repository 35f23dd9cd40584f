import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import H3Core

// H3Core's shortcuts, each against the long way it replaces (which the golden vectors and the
// CI's differential check hold to h3-py): the kernels of the cell geometry, and polygonToCells'
// and gridRing's steps inside one base cell.

/// The two shortcuts under every cell-to-coordinates function: they must give H3's own values
/// bit for bit (the golden vectors and the CI's differential check then hold them to h3-py).
struct CellGeometryKernelTests {
    @Test("sinCos gives the C library's sin and cos bit for bit, over the angles H3's geometry takes")
    func sinCosIsSinAndCos() {
        let seed = testSeed("CellGeometryKernelTests.sinCosIsSinAndCos")
        var rng = SplitMix64(seed: seed)
        // glibc's sincos reduces the argument by range; cover each range and the boundaries of
        // its fast paths (|x| < 2⁻²⁷, 0.855469, 2.426265, 105414350), as well as every angle of
        // H3's geometry (within ±4π)
        let ranges: [ClosedRange<Double>] = [
            -1e-9...1e-9, -0.9...0.9, 0.85...0.86, 2.42...2.43, -4 * .pi...4 * .pi, -2e8...2e8,
        ]
        var mismatches = 0
        for range in ranges {
            for _ in 0..<200_000 {
                let x = Double.random(in: range, using: &rng)
                let (s, c) = sinCos(x)
                if s.bitPattern != sin(x).bitPattern || c.bitPattern != cos(x).bitPattern { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "seed 0x\(String(seed, radix: 16))")
    }

    @Test("the bounded round-by-seven of the index walk is the rounded quotient over its whole range")
    func boundedRoundDiv7() {
        let seed = testSeed("CellGeometryKernelTests.boundedRoundDiv7")
        var rng = SplitMix64(seed: seed)
        let limit = 1 << 29
        // every n near zero, the ends of the range, and random n across it
        var samples = Array(-(1 << 16)...(1 << 16))
        samples += [-(limit - 1), -(limit - 2), limit - 1, limit - 2, limit - 7, -(limit - 7)]
        for _ in 0..<500_000 { samples.append(Int.random(in: -(limit - 1)...(limit - 1), using: &rng)) }
        var mismatches = 0
        for n in samples {
            // the quotient rounded half away from zero (never a half: 7 is odd), and the general form
            let rounded = Int((Double(n) / 7).rounded(.toNearestOrAwayFromZero))
            let bounded = CoordIJK.roundDiv7Bounded(n)
            if bounded != rounded || bounded != CoordIJK.roundDiv7(n) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("n \(n): \(bounded), expected \(rounded); seed 0x\(String(seed, radix: 16))") }
            }
        }
        #expect(mismatches == 0, "seed 0x\(String(seed, radix: 16))")
    }

    @Test("the tabled digit walk gives the coordinates of H3's walk one resolution at a time")
    func digitWalkIsTheStepByStepWalk() {
        let seed = testSeed("CellGeometryKernelTests.digitWalkIsTheStepByStepWalk")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200_000 {
            let res = Int.random(in: 0...15, using: &rng)
            // any digits 0...7 (7 moves nowhere, as H3's _neighbor) and any home coordinates
            var h: UInt64 = 0
            for r in 1...15 {
                h = H3IndexBits.setDigit(h, r, Direction(unchecked: UInt8.random(in: 0...7, using: &rng)))
            }
            let home = CoordIJK(Int.random(in: 0...2, using: &rng), Int.random(in: 0...2, using: &rng),
                                Int.random(in: 0...2, using: &rng)).normalized
            var expected = home
            for r in stride(from: 1, through: res, by: 1) {
                if FaceIJK.isClassIII(r) { expected.downAp7() } else { expected.downAp7r() }
                expected.move(H3IndexBits.digit(h, r))
            }
            let walked = DigitWalk.center(of: h, resolution: res, home: home)
            #expect(walked == expected, "seed 0x\(String(seed, radix: 16)), h \(String(h, radix: 16)), res \(res)")
            if walked != expected { return }
        }
    }
}

/// `polygonToCells`'s interior blocks (``InteriorBlocks``): a block counts only when every
/// descendant's centre lies in H3's box around the block's descendants, which H3 found by
/// exhaustive tests; here on random blocks of every resolution and their descendants two and
/// three levels down, on the sphere and by the pentagons.
struct InteriorBlocksTests {
    @Test("every descendant's centre lies in H3's box around a block's descendants")
    func descendantsCentresAreInTheBox() throws {
        let seed = testSeed("InteriorBlocksTests.descendantsCentresAreInTheBox")
        var rng = SplitMix64(seed: seed)
        var blocks = try H3CellTests.randomPoints(400, seed: rng.next()).map { point in
            try H3Cell(point, resolution: H3Resolution(unchecked: Int.random(in: 0...12, using: &rng)))
        }
        for res in 0...12 { blocks += H3Cell.pentagons(at: H3Resolution(unchecked: res)) }
        var checked = 0
        for block in blocks {
            let box = HierarchicalFill.box(of: block, coveringChildren: true)
            for levels in [InteriorBlocks.levels, InteriorBlocks.levels + 1] {
                for child in try block.children(at: H3Resolution(unchecked: block.resolution.rawValue + levels)) {
                    checked += 1
                    let centre = child.centerRadians
                    #expect(box.contains(centre), "seed 0x\(String(seed, radix: 16)): \(child) outside the box of \(block)")
                }
            }
        }
        #expect(checked > 100_000)
    }

    @Test("a block counts only when it is inside the polygon with room to spare")
    func blocksCountOnlyInside() throws {
        // a 0.2° square around Montréal at resolution 11: the blocks (resolution 9) at its centre
        // count, those across its edge or outside do not
        let square = GeoPolygon(outer: [
            LatLng(latitude: 45.4, longitude: -73.7), LatLng(latitude: 45.4, longitude: -73.5),
            LatLng(latitude: 45.6, longitude: -73.5), LatLng(latitude: 45.6, longitude: -73.7),
        ])
        var blocks = InteriorBlocks(RadianPolygon(square), resolution: 11)
        let centre = try H3Cell(LatLng(latitude: 45.5, longitude: -73.6), resolution: H3Resolution(unchecked: 11))
        let edge = try H3Cell(LatLng(latitude: 45.4, longitude: -73.6), resolution: H3Resolution(unchecked: 11))
        let outside = try H3Cell(LatLng(latitude: 45.3, longitude: -73.6), resolution: H3Resolution(unchecked: 11))
        let answers = [centre, edge, outside, centre, edge].map { blocks.surelyContainsCenter(of: $0.rawValue) }
        // asked again, the same (from the blocks decided)
        #expect(answers == [true, false, false, true, false])
    }
}

/// The flood's one-ring (``GridTraversal/oneRingInsideBaseCell(_:into:)``) against gridDisk's
/// spiral, which the CI's differential check holds to h3-py.
struct OneRingTests {
    @Test("the one-ring inside a base cell is the spiral's ring, in its order")
    func oneRingIsTheSpiral() throws {
        let seed = testSeed("OneRingTests.oneRingIsTheSpiral")
        var rng = SplitMix64(seed: seed)
        var answered = 0
        var ring: [UInt64] = []
        let points = H3CellTests.randomPoints(100_000, seed: rng.next())
        for point in points {
            let cell = try H3Cell(point, resolution: H3Resolution(unchecked: Int.random(in: 0...15, using: &rng)))
            guard GridTraversal.oneRingInsideBaseCell(cell.rawValue, into: &ring) else { continue }
            answered += 1
            var spiral: [UInt64] = []
            try GridTraversal.spiral(cell.rawValue, k: 1) { spiral.append($0) }
            #expect(ring == spiral, "seed 0x\(String(seed, radix: 16)): \(cell)")
            if ring != spiral { return }
        }
        // most cells of resolution 2 and finer have their ring in their base cell
        #expect(answered > points.count / 2)
    }
}

/// The rim of an interior block (``InteriorBlocks/rim``) against the cells' own rings: a cell
/// off the rim has all six neighbours in its block, a cell on it has one outside.
struct InteriorBlockRimTests {
    @Test("a cell is on its block's rim exactly when its ring leaves the block")
    func rimIsWhereTheRingLeaves() throws {
        let seed = testSeed("InteriorBlockRimTests.rimIsWhereTheRingLeaves")
        var rng = SplitMix64(seed: seed)
        var ring: [UInt64] = []
        var checked = (rim: 0, inner: 0)
        for point in H3CellTests.randomPoints(50_000, seed: rng.next()) {
            let res = Int.random(in: 2...15, using: &rng)
            let cell = try H3Cell(point, resolution: H3Resolution(unchecked: res)).rawValue
            guard GridTraversal.oneRingInsideBaseCell(cell, into: &ring) else { continue }
            let block = H3IndexBits.truncated(cell, toResolution: res - 2)
            let leaves = ring.contains { H3IndexBits.truncated($0, toResolution: res - 2) != block }
            let d1 = Int(H3IndexBits.digit(cell, res - 1).rawValue), d2 = Int(H3IndexBits.digit(cell, res).rawValue)
            let onRim = InteriorBlocks.rim[(res & 1) * 49 + d1 * 7 + d2]
            #expect(onRim == leaves, "seed 0x\(String(seed, radix: 16)): \(String(cell, radix: 16))")
            if onRim { checked.rim += 1 } else { checked.inner += 1 }
        }
        #expect(checked.rim > 1000 && checked.inner > 1000)
    }

    @Test("a block's cells are its 49 descendants two resolutions down")
    func blockCellsAreItsDescendants() throws {
        let cell = try H3Cell(LatLng(latitude: 45.5, longitude: -73.6), resolution: H3Resolution(unchecked: 11))
        let block = H3IndexBits.truncated(cell.rawValue, toResolution: 9)
        var cells: [UInt64] = []
        InteriorBlocks.forEachCell(of: block, resolution: 11) { c, _ in cells.append(c) }
        let children = try H3Cell(unchecked: block).children(at: H3Resolution(unchecked: 11)).map(\.rawValue)
        #expect(cells.sorted() == children.sorted())
    }
}

extension InteriorBlocks {
    /// ``verdict(for:)`` as a yes or no: whether the centre of `cell` is surely inside.
    mutating func surelyContainsCenter(of cell: UInt64) -> Bool {
        if case .notKnown = verdict(for: cell) { return false }
        return true
    }
}
