/// A valid H3 cell index: a hexagon or one of the 12 pentagons at some resolution.
///
/// The type is a validated wrapper over the 64-bit index; every initialiser that takes a raw
/// value checks it once, so the operations below never meet an invalid index.
///
/// | H3 C API            | geo-enrich                        |
/// |---------------------|-----------------------------------|
/// | `latLngToCell`      | ``init(_:resolution:)``           |
/// | `cellToLatLng`      | ``center``                        |
/// | `cellToBoundary`    | ``boundary``                      |
/// | `getResolution`     | ``resolution``                    |
/// | `getBaseCellNumber` | ``baseCellNumber``                |
/// | `getIndexDigit`     | ``indexDigit(at:)``               |
/// | `isValidCell`       | ``isValid(_:)``                   |
/// | `isPentagon`        | ``isPentagon``                    |
/// | `cellToParent`      | ``parent(at:)``                   |
/// | `cellToChildren`    | ``children(at:)``                 |
/// | `cellToChildrenSize`| ``childrenCount(at:)``            |
/// | `cellToCenterChild` | ``centerChild(at:)``              |
/// | `gridDisk`          | ``gridDisk(k:)``                  |
/// | `stringToH3`        | ``init(string:)``                 |
/// | `h3ToString`        | ``description``                   |
/// | `constructCell`     | ``init(resolution:baseCell:digits:)`` |
/// | `isValidIndex`      | ``isValidIndex(_:)``              |
/// | `getRes0Cells`, `res0CellCount` | ``resolution0Cells`` |
/// | `getPentagons`, `pentagonCount` | ``pentagons(at:)`` |
/// | `isResClassIII`     | ``isResolutionClassIII``          |
/// | `maxFaceCount`      | ``maxFaceCount``                  |
/// | `getIcosahedronFaces` | ``icosahedronFaces``            |
/// | `cellToChildPos`    | ``childPosition(in:)``            |
/// | `childPosToCell`    | ``init(childPosition:of:at:)``    |
/// | `compactCells`      | ``compact(_:)``                   |
/// | `uncompactCells`    | ``uncompact(_:to:)``              |
/// | `uncompactCellsSize`| ``uncompactCount(_:to:)``         |
/// | `cellsToMultiPolygon`, `cellsToLinkedMultiPolygon` | ``multiPolygon(of:)`` (``GeoPolygon``s) |
/// | `cellAreaRads2`, `cellAreaKm2`, `cellAreaM2` | ``area(in:)`` |
/// | `greatCircleDistanceRads`, `greatCircleDistanceKm`, `greatCircleDistanceM` | `LatLng.greatCircleDistance(to:in:)` |
/// | `getNumCells`       | `H3Resolution.cellCount`          |
/// | `getHexagonAreaAvgKm2`, `getHexagonAreaAvgM2` | `H3Resolution.averageHexagonArea(in:)` |
/// | `getHexagonEdgeLengthAvgKm`, `getHexagonEdgeLengthAvgM` | `H3Resolution.averageHexagonEdgeLength(in:)` |
/// | `describeH3Error`   | `H3Error.description`             |
/// | `destroyLinkedMultiPolygon`, `destroyGeoMultiPolygon` | not needed: Swift frees the arrays |
/// | `degsToRads`, `radsToDegs` | `LatLng.radians(fromDegrees:)`, `LatLng.degrees(fromRadians:)` |
///
/// Directed edges (``DirectedEdge``) and vertices (``Vertex``):
///
/// | H3 C API                     | geo-enrich                                   |
/// |------------------------------|----------------------------------------------|
/// | `areNeighborCells`           | ``isNeighbor(of:)``                          |
/// | `cellsToDirectedEdge`        | ``directedEdge(to:)``                        |
/// | `isValidDirectedEdge`        | ``DirectedEdge/isValid(_:)``, ``DirectedEdge/init(validating:)`` |
/// | `getDirectedEdgeOrigin`      | ``DirectedEdge/origin``                      |
/// | `getDirectedEdgeDestination` | ``DirectedEdge/destination``                 |
/// | `directedEdgeToCells`        | ``DirectedEdge/cells``                       |
/// | `originToDirectedEdges`      | ``directedEdges``                            |
/// | `directedEdgeToBoundary`     | ``DirectedEdge/boundary``                    |
/// | `reverseDirectedEdge`        | ``DirectedEdge/reversed``                    |
/// | `edgeLengthRads`             | ``DirectedEdge/lengthRadians``               |
/// | `edgeLengthKm`               | ``DirectedEdge/lengthKilometers``            |
/// | `edgeLengthM`                | ``DirectedEdge/lengthMeters``                |
/// | `cellToVertex`               | ``vertex(number:)``                          |
/// | `cellToVertexes`             | ``vertices``                                 |
/// | `vertexToLatLng`             | ``Vertex/latLng``                            |
/// | `isValidVertex`              | ``Vertex/isValid(_:)``, ``Vertex/init(validating:)`` |
/// | `cellToLocalIj`     | ``localIJ(origin:)`` (a ``CoordIJ``) |
/// | `localIjToCell`     | ``init(localIJ:origin:)``         |
/// | `gridDistance`      | ``gridDistance(to:)``             |
/// | `gridPathCells`     | ``gridPathCells(to:)``            |
/// | `gridPathCellsSize` | ``gridPathCellsCount(to:)``       |
/// | `gridRing`          | ``gridRing(k:)``                  |
/// | `gridRingUnsafe`    | ``gridRingUnsafe(k:)``            |
/// | `gridDiskUnsafe`    | ``gridDiskUnsafe(k:)``            |
/// | `gridDiskDistances` | ``gridDiskDistances(k:)``         |
/// | `gridDiskDistancesSafe` | ``gridDiskDistancesSafe(k:)`` |
/// | `gridDiskDistancesUnsafe` | ``gridDiskDistancesUnsafe(k:)`` |
/// | `gridDisksUnsafe`   | ``gridDisksUnsafe(_:k:)``         |
/// | `maxGridDiskSize`   | ``maxGridDiskSize(k:)``           |
/// | `maxGridRingSize`   | ``maxGridRingSize(k:)``           |
///
/// Regions (a ``GeoPolygon`` is an outer ring and holes in degrees):
///
/// | H3 C API                     | geo-enrich                                   |
/// |------------------------------|----------------------------------------------|
/// | `polygonToCells`             | ``polygonToCells(_:resolution:)``            |
/// | `polygonToCellsExperimental` | ``polygonToCells(_:resolution:containment:)`` (a ``ContainmentMode``) |
/// | `maxPolygonToCellsSize`      | ``maxPolygonToCellsSize(_:resolution:)``     |
/// | `maxPolygonToCellsSizeExperimental` | ``maxPolygonToCellsSizeExperimental(_:resolution:)`` |
/// | (the walk's compact cells)   | ``polygonToCompactCells(_:resolution:containment:)`` |
public struct H3Cell: RawRepresentable, Hashable, Comparable, Sendable {
    /// The 64-bit H3 index.
    public let rawValue: UInt64

    /// - Returns: `nil` when `rawValue` is not a valid cell index.
    @inlinable
    public init?(rawValue: UInt64) {
        guard H3Cell.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// - Throws: ``H3Error/invalidCell`` when `index` is not a valid cell index.
    @inlinable
    public init(validating index: UInt64) throws(H3Error) {
        guard H3Cell.isValid(index) else { throw .invalidCell }
        rawValue = index
    }

    @usableFromInline
    init(unchecked index: UInt64) { rawValue = index }

    @inlinable
    public static func < (a: H3Cell, b: H3Cell) -> Bool { a.rawValue < b.rawValue }

    /// The cell's resolution.
    @inlinable
    public var resolution: H3Resolution {
        H3Resolution(unchecked: Int((rawValue >> 52) & 15))
    }

    /// The base cell (0...121) this cell descends from.
    public var baseCellNumber: Int { H3IndexBits.baseCell(rawValue) }

    /// The cell's indexing digit at `resolution` (H3's `getIndexDigit`): 0...6, the direction of
    /// the cell's ancestor at that resolution from the centre of its own parent; 7 past the cell's
    /// resolution. With ``baseCellNumber``, the digits 1...r name a cell of resolution r, so
    /// they index tables of one resolution's cells directly (base cell · 7ʳ + the digits in base 7).
    ///
    /// - Parameter resolution: 1...15.
    /// - Throws: ``H3Error/resolutionDomain`` for resolution 0, which has no digit (the base cell
    ///   stands there).
    public func indexDigit(at resolution: H3Resolution) throws(H3Error) -> Int {
        guard resolution > .coarsest else { throw .resolutionDomain }
        return Int(H3IndexBits.digit(rawValue, resolution.rawValue).rawValue)
    }

    /// Whether the cell is one of the 12 pentagons of its resolution.
    public var isPentagon: Bool {
        BaseCells.isPentagon(H3IndexBits.baseCell(rawValue)) && H3IndexBits.leadingNonZeroDigit(rawValue) == .center
    }

    /// Whether a 64-bit value is a valid H3 cell index (the rules of H3's `isValidCell`).
    ///
    /// - Complexity: O(1), a handful of bit operations.
    public static func isValid(_ h: UInt64) -> Bool {
        // high bit 0, mode 1, reserved 0
        guard h >> 56 == H3IndexBits.cellTopByte else { return false }
        let res = H3IndexBits.resolution(h)
        let bc = H3IndexBits.baseCell(h)
        guard bc < BaseCells.count else { return false }
        // no digit 1...res may be 7: a carry trick finds the lowest 7 among the used digits
        let mhi: UInt64 = 0b100_100_100_100_100_100_100_100_100_100_100_100_100_100_100
        let mlo = mhi >> 2
        let shift = UInt64(3 * (15 - res))
        let used = (h >> shift) << shift
        if used & mhi & (~used &- mlo) != 0 { return false }
        // every digit after res must be 7
        if res < 15 {
            let s = UInt64(19 + 3 * res)
            if (~h << s) >> s != 0 { return false }
        }
        // a pentagon's first non-zero digit cannot be 1 (the deleted k sub-sequence)
        if BaseCells.isPentagon(bc) {
            let digits = h & H3IndexBits.allDigitsMask
            if digits != 0 && (63 - digits.leadingZeroBitCount) % 3 == 0 { return false }
        }
        return true
    }
}

extension H3Cell: CustomStringConvertible, LosslessStringConvertible {
    /// The index in lower-case hexadecimal without a prefix, as H3's `h3ToString`.
    public var description: String { String(rawValue, radix: 16) }

    /// Parses a hexadecimal index (an optional `0x` prefix, either case) and validates it.
    ///
    /// - Throws: ``H3Error/invalidString`` when the text is not hexadecimal,
    ///   ``H3Error/invalidCell`` when the number is not a valid cell.
    public init(string: some StringProtocol) throws(H3Error) {
        try self.init(validating: H3IndexText.parse(string))
    }

    /// Parses a hexadecimal index; `nil` when it is not a valid cell.
    public init?(_ description: String) {
        guard let c = try? H3Cell(string: description) else { return nil }
        self = c
    }
}

/// The text form of every kind of H3 index (cell, directed edge, vertex).
enum H3IndexText {
    /// The 64-bit value of a hexadecimal index: an optional `0x` prefix, then hex digits in either
    /// case (no sign); leading zeros are fine, values past 64 bits are not.
    ///
    /// - Throws: ``H3Error/invalidString`` when the text is not such a number.
    static func parse(_ string: some StringProtocol) throws(H3Error) -> UInt64 {
        var s = Substring(string)
        if s.hasPrefix("0x") || s.hasPrefix("0X") { s = s.dropFirst(2) }
        guard !s.isEmpty, s.utf8.allSatisfy(\.isASCIIHexDigit), let v = UInt64(s, radix: 16) else {
            throw .invalidString
        }
        return v
    }
}

extension UInt8 {
    var isASCIIHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
