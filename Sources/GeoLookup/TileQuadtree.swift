/// The 1° tile grid refined by a quadtree that both `countries.bin` and `timezones.bin` carry to
/// answer most points without geometry: one 32-bit entry per tile (`tileRows` × `tileColumns`,
/// row 0 at −90°, column 0 at −180°), and nodes of four entries whose children halve the box
/// (north bit 2, east bit 1). An entry's two top bits say what it is; ``kindNode`` points at a
/// node, every other kind is the file's own answer for the whole box.
///
/// One descent for both files (the country file's layout came first; the time-zone file took
/// the same grid and encoding).
enum TileQuadtree {
    /// Rows (1° of latitude each, from −90) and columns (1° of longitude each, from −180) of tiles.
    static let tileRows = 180, tileColumns = 360
    /// Entries per quadtree node.
    static let childrenPerNode = 4
    /// The two top bits of an entry say what it is.
    static let kindMask: UInt32 = 0xC000_0000
    /// Kind of an entry whose value is a node index.
    static let kindNode: UInt32 = 0x4000_0000
    /// The value bits of an entry.
    static let valueMask: UInt32 = 0x3FFF_FFFF
    /// The north and east bits of a child index.
    static let northChild = 2, eastChild = 1

    /// The first entry that is not a node on the way from the point's tile down to its box.
    ///
    /// - Precondition: −90 ≤ `latitude` ≤ 90 and −180 ≤ `longitude` ≤ 180; the file validated so
    ///   that node numbers grow along any descent (so it ends) and every index is in range.
    /// - Complexity: O(depth of the tree at the point).
    @inline(__always)
    static func leaf(latitude: Double, longitude: Double, tiles: UnsafeBufferPointer<UInt32>,
                     nodes: UnsafeBufferPointer<UInt32>) -> UInt32 {
        // ⌊lat⌋ + 90 rather than ⌊lat + 90⌋: the sum can round up to the next integer (lat = −1e-20
        // gives 90.0) and put the point in a tile that does not hold it. ⌊x⌋ of a double is exact,
        // and so is every box's middle below it.
        let row = Swift.min(floorToInt(latitude) &+ 90, tileRows - 1)
        let column = Swift.min(floorToInt(longitude) &+ 180, tileColumns - 1)
        var entry = tiles[row &* tileColumns &+ column]
        var south = Double(row &- 90), west = Double(column &- 180), size = 1.0
        while entry & kindMask == kindNode {
            size *= 0.5
            let middleLatitude = south + size, middleLongitude = west + size
            var child = 0
            if latitude >= middleLatitude {
                child |= northChild
                south = middleLatitude
            }
            if longitude >= middleLongitude {
                child |= eastChild
                west = middleLongitude
            }
            entry = nodes[childrenPerNode &* Int(entry & valueMask) &+ child]
        }
        return entry
    }
}
