/// The bit layout of a 64-bit H3 index, in one place.
///
/// From the high bit down: 1 reserved high bit, 4 mode bits, 3 reserved bits, 4 resolution
/// bits, 7 base-cell bits, then 15 digits of 3 bits each (digit 1 is the coarsest). Unused
/// digits below the cell's resolution hold 7. (H3 documentation, "H3 Index Representations".)
/// No other file shifts or masks an index with literal numbers.
enum H3IndexBits {
    /// Offset of the high (always zero) bit.
    static let highBitOffset: UInt64 = 63
    /// Offset of the 4-bit mode field (1 for a cell).
    static let modeOffset: UInt64 = 59
    /// Offset of the 3 reserved bits (zero for a cell).
    static let reservedOffset: UInt64 = 56
    /// Offset of the 4-bit resolution field.
    static let resolutionOffset: UInt64 = 52
    /// Offset of the 7-bit base-cell field.
    static let baseCellOffset: UInt64 = 45
    /// Width of one digit in bits.
    static let bitsPerDigit: UInt64 = 3

    /// Width of the mode field in bits.
    static let modeWidth: UInt64 = 4
    /// Width of the reserved (mode-dependent) field in bits.
    static let reservedWidth: UInt64 = 3

    /// Mask of the mode field.
    static let modeMask: UInt64 = ((1 << modeWidth) - 1) << modeOffset
    /// Mask of the 3 reserved bits: zero in a cell, the direction in a directed edge, the
    /// vertex number in a vertex.
    static let reservedMask: UInt64 = ((1 << reservedWidth) - 1) << reservedOffset
    /// Mask of the resolution field.
    static let resolutionMask: UInt64 = 15 << resolutionOffset
    /// Mask of the base-cell field.
    static let baseCellMask: UInt64 = 127 << baseCellOffset
    /// Mask of one digit, unshifted.
    static let digitMask: UInt64 = 7
    /// Mask of all 15 digits.
    static let allDigitsMask: UInt64 = (1 << 45) - 1
    /// The mode value of a cell index.
    static let cellMode: UInt64 = 1
    /// The mode value of a directed edge index.
    static let directedEdgeMode: UInt64 = 2
    /// The mode value of a vertex index.
    static let vertexMode: UInt64 = 4
    /// The top 8 bits (high bit, mode, reserved) of every valid cell: `0_0001_000`.
    static let cellTopByte: UInt64 = 0b0000_1000

    /// A cell index at resolution 0, base cell 0, every digit 7: the template `setH3Index` starts from.
    static let initial: UInt64 = (cellMode << modeOffset) | allDigitsMask

    /// Offset of digit `r` (1...15).
    @inline(__always)
    static func digitOffset(_ r: Int) -> UInt64 { UInt64(15 - r) &* bitsPerDigit }

    @inline(__always)
    static func mode(_ h: UInt64) -> UInt64 { (h & modeMask) >> modeOffset }

    @inline(__always)
    static func setMode(_ h: UInt64, _ mode: UInt64) -> UInt64 {
        (h & ~modeMask) | (mode << modeOffset)
    }

    @inline(__always)
    static func reservedBits(_ h: UInt64) -> Int { Int((h & reservedMask) >> reservedOffset) }

    @inline(__always)
    static func setReservedBits(_ h: UInt64, _ v: Int) -> UInt64 {
        (h & ~reservedMask) | (UInt64(v) << reservedOffset)
    }

    /// The cell that a directed edge starts at or a vertex belongs to: the index with cell mode
    /// and reserved bits zero (H3's `getDirectedEdgeOrigin`, and the owner in `vertexToLatLng`).
    /// Not validated.
    @inline(__always)
    static func cellPart(_ h: UInt64) -> UInt64 { setReservedBits(setMode(h, cellMode), 0) }

    @inline(__always)
    static func resolution(_ h: UInt64) -> Int { Int((h & resolutionMask) >> resolutionOffset) }

    @inline(__always)
    static func setResolution(_ h: UInt64, _ res: Int) -> UInt64 {
        (h & ~resolutionMask) | (UInt64(res) << resolutionOffset)
    }

    /// The ancestor of `h` at resolution `res` (not finer than h's): the resolution set, and
    /// the digits below it 7, as `cellToParent` leaves them.
    @inline(__always)
    static func truncated(_ h: UInt64, toResolution res: Int) -> UInt64 {
        setResolution(h, res) | ((1 &<< digitOffset(res)) &- 1)
    }

    @inline(__always)
    static func baseCell(_ h: UInt64) -> Int { Int((h & baseCellMask) >> baseCellOffset) }

    @inline(__always)
    static func setBaseCell(_ h: UInt64, _ bc: Int) -> UInt64 {
        (h & ~baseCellMask) | (UInt64(bc) << baseCellOffset)
    }

    @inline(__always)
    static func digit(_ h: UInt64, _ r: Int) -> Direction {
        Direction(unchecked: UInt8(truncatingIfNeeded: (h >> digitOffset(r)) & digitMask))
    }

    @inline(__always)
    static func setDigit(_ h: UInt64, _ r: Int, _ d: Direction) -> UInt64 {
        let off = digitOffset(r)
        return (h & ~(digitMask << off)) | (UInt64(d.rawValue) << off)
    }

    /// `h` with its digits 1...`res` replaced by those of `digits` (each at its place, the
    /// other bits of `digits` zero).
    @inline(__always)
    static func settingDigits(_ h: UInt64, through res: Int, to digits: UInt64) -> UInt64 {
        let places = ((1 &<< (UInt64(res) &* bitsPerDigit)) &- 1) &<< digitOffset(res)
        return (h & ~places) | digits
    }

    /// The first non-zero digit from the coarsest down, or `.center` when all are zero.
    @inline(__always)
    static func leadingNonZeroDigit(_ h: UInt64) -> Direction {
        let res = resolution(h)
        var r = 1
        while r <= res {
            let d = digit(h, r)
            if d != .center { return d }
            r += 1
        }
        return .center
    }
}
