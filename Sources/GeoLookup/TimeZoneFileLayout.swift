import H3Core

/// The binary layout of `data/timezones.bin` (written by `scripts/data/build_timezone_data.py`,
/// whose docstring is the reference): the only place that knows its constants and entry bits.
///
/// The container header (``DataFile``) has magic `GETZONE1`, version 1 and the counts
/// `[Z zones, P boundary polygons, H holes, G rings]`. The payload holds, in order and each
/// starting 8-byte aligned: `params` (16 × `UInt32`), the zone names, the polygons' zones, boxes
/// and holes, the holes' rings and boxes, each ring's groups of blocks, the groups, the rings'
/// block references, the blocks' headers and edge bytes,
/// the shortcut slot of every resolution-4 cell, the candidate lists, the 1° tiles and the
/// quadtree nodes. Coordinates are 1e-7° integers (`Int32`), as timezonefinder's, but for a
/// block's first vertex and its varint steps, in 1e-6° (the source has six decimals).
enum TimeZoneFileLayout {
    /// The magic of a time-zone file.
    static let magic = "GETZONE1"
    /// The format version this reader understands.
    static let version: UInt32 = 1
    /// Number of `UInt32` parameters at the start of the payload.
    static let parameterCount = 16

    /// Indices of the parameters.
    enum Parameter {
        static let zones = 0, polygons = 1, holes = 2, rings = 3, blocks = 4, ringBlocks = 5, edgeBytes = 6
        static let lists = 7, listEntries = 8, nodes = 9, nameBytes = 10, slots = 11, resolution = 12
        static let tilesPerDegree = 13, maxDepth = 14, groups = 15
    }

    /// The H3 resolution of the shortcut cells (timezonefinder's `SHORTCUT_H3_RES`).
    static let resolution = H3Resolution(rawValue: 4)!
    /// Number of resolution-4 cells (every one has a shortcut).
    static let cellCount = 288_122
    /// Slots of the shortcut table: base cell · 7⁴ + the index digits 1...4 in base 7.
    static let slotCount = 122 * 2401
    /// A slot no cell has (the pentagons' deleted sub-sequences).
    static let slotEmpty: UInt16 = 0xFFFF
    /// The bit of a slot that names a candidate list (the rest is the list's number).
    static let slotList: UInt16 = 0x8000

    /// Int32 fields per block: yMin, yMax, xMin, xMax (1e-7°), x0, y0 (1e-6°), dataStart, dataEnd.
    static let blockFields = 8
    static let blockYMin = 0, blockYMax = 1, blockXMin = 2, blockXMax = 3, blockX0 = 4, blockY0 = 5
    static let blockDataStart = 6, blockDataEnd = 7
    /// Int32 fields per group of a ring's blocks: yMin, yMax, xMax (the union of its blocks'),
    /// first (its blocks are `ringBlocks[first ..< the next group's first]`).
    static let groupFields = 4
    static let groupYMin = 0, groupYMax = 1, groupXMax = 2, groupFirst = 3

    /// A block vertex's unit (1e-6°) in query units (1e-7°).
    static let vertexScale: Int64 = 10

    /// Degrees → query integers: `trunc(degrees × 1e7)` (timezonefinder's `coord2int`).
    static let coordinateFactor = 1e7

    /// Rows (1° of latitude each, from −90) and columns (1° of longitude each, from −180) of tiles.
    static let tileRows = TileQuadtree.tileRows, tileColumns = TileQuadtree.tileColumns
    /// Entries per quadtree node.
    static let childrenPerNode = TileQuadtree.childrenPerNode
    /// The two top bits of a tile or node entry say what it is.
    static let kindMask = TileQuadtree.kindMask
    /// Kind of an entry whose value is a node index.
    static let kindNode = TileQuadtree.kindNode
    /// The value bits of an entry.
    static let valueMask = TileQuadtree.valueMask
    /// The entry of a box whose points need their H3 cell looked up.
    static let entryCell: UInt32 = 0xFFFF_FFFF
    /// The north and east bits of a child index.
    static let northChild = TileQuadtree.northChild, eastChild = TileQuadtree.eastChild
    /// The deepest quadtree level the reader accepts (box corners stay exact in `Double`).
    static let maxDepth = 40

    /// Four `Int32` per polygon or hole box: xmin, xmax, ymin, ymax; per hole union: x0, x1, y0, y1.
    static let boxFields = 4
}
