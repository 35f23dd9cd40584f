/// The binary layout of `data/countries.bin` (written by `scripts/data/build_country_data.py`, whose
/// docstring is the reference): the only place that knows offsets, sizes and entry bits.
///
/// The container header (``DataFile``) has magic `GECNTRY1`, version 1 and the counts
/// `[R records, N quadtree nodes, W candidate-list words, 1 tile per degree]`. The payload holds,
/// in order and each starting 8-byte aligned:
///
/// | section | size | content |
/// |---------|------|---------|
/// | records | R × 48 | per shapefile record: code (2 ASCII bytes, or 0,0 for none), 6 zero bytes, WKB offset (`UInt32`, into the WKB section, 8-aligned), WKB length (`UInt32`), bounding box minX, minY, maxX, maxY (`Double`: longitudes and latitudes) |
/// | tiles | 180 × 360 × 4 | one entry (`UInt32`) per 1° tile, row-major; row = ⌊lat⌋ + 90 and col = ⌊lng⌋ + 180, clamped to the grid |
/// | WKB | the rest | each record's geometry as little-endian 2D WKB (Polygon or MultiPolygon) |
/// | nodes | N × 16 | four child entries per subdivided box, child = (north << 1) \| east |
/// | lists | W × 4 | candidate lists: a count, then that many record indices, ascending |
///
/// An entry describes a closed box: `0xFFFFFFFF` no record intersects it; a value below
/// `0x40000000` is the record of every point in it; `0x40000000 | n` splits it into the four
/// children of node n (a point goes north when its latitude is at least the box's middle, east
/// when its longitude is); `0x80000000 | m` is the candidate list at word m, whose first record
/// to intersect a point holds it.
enum CountryFileLayout {
    /// The magic of a countries file.
    static let magic = "GECNTRY1"
    /// The format version this reader understands.
    static let version: UInt32 = 1

    /// Bytes per record.
    static let recordSize = 48
    /// Offset of the two code bytes in a record.
    static let recordCodeOffset = 0
    /// Offset of the zero bytes after the code, and how many.
    static let recordReservedOffset = 2, recordReservedSize = 6
    /// Offset of the WKB offset (`UInt32`) in a record.
    static let recordWKBOffsetOffset = 8
    /// Offset of the WKB length (`UInt32`) in a record.
    static let recordWKBLengthOffset = 12
    /// Offset of the bounding box (four `Double`: minX, minY, maxX, maxY) in a record.
    static let recordBoundingBoxOffset = 16

    /// Rows (1° of latitude each, from −90) and columns (1° of longitude each, from −180) of tiles.
    static let tileRows = TileQuadtree.tileRows, tileColumns = TileQuadtree.tileColumns
    /// Tiles per degree, the fourth count of the header (the only value this reader knows).
    static let tilesPerDegree: UInt64 = 1
    /// Entries per quadtree node.
    static let childrenPerNode = TileQuadtree.childrenPerNode

    /// The entry of a box that no record intersects.
    static let emptyEntry: UInt32 = 0xFFFF_FFFF
    /// The two top bits of an entry say what it is.
    static let kindMask = TileQuadtree.kindMask
    /// Kind of an entry whose value is the record of the whole box.
    static let kindRecord: UInt32 = 0x0000_0000
    /// Kind of an entry whose value is a node index.
    static let kindNode = TileQuadtree.kindNode
    /// Kind of an entry whose value is the word offset of a candidate list.
    static let kindList: UInt32 = 0x8000_0000
    /// The value bits of an entry.
    static let valueMask = TileQuadtree.valueMask
    /// The north bit of a child index.
    static let northChild = TileQuadtree.northChild
    /// The east bit of a child index.
    static let eastChild = TileQuadtree.eastChild

    /// The deepest quadtree level the reader accepts: box corners stay exact in `Double`
    /// (a multiple of 2⁻ᵈ below 180 needs 8 + d bits of the 53) well beyond it.
    static let maxDepth = 40

    /// Byte size of `count` values of `T` padded to 8, as sections are.
    static func padded<T>(_ type: T.Type, count: Int) -> Int {
        (MemoryLayout<T>.stride * count + 7) & ~7
    }
}

/// A decoded tile or node entry.
enum CountryEntry: Equatable {
    /// No record intersects the box.
    case none
    /// Every point of the box belongs to this record.
    case record(Int)
    /// The box is split into the children of this node.
    case node(Int)
    /// The records intersecting the box are listed at this word offset.
    case list(Int)

    /// Decodes an entry; `nil` for the unused values with both top bits set (other than empty).
    init?(_ raw: UInt32) {
        let value = Int(raw & CountryFileLayout.valueMask)
        switch raw & CountryFileLayout.kindMask {
        case CountryFileLayout.kindRecord: self = .record(value)
        case CountryFileLayout.kindNode: self = .node(value)
        case CountryFileLayout.kindList: self = .list(value)
        default:
            guard raw == CountryFileLayout.emptyEntry else { return nil }
            self = .none
        }
    }
}
