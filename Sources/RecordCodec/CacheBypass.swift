/// Whether a cache is worth consulting, judged by its recent hit rate: the reader's session ids
/// (``SessionIDCache``), its line layouts (``LineLayouts``) and the stream's rendered `geo`
/// objects each keep one.
///
/// A cache that hardly ever hits only adds its own misses to each lookup (with a million live
/// sessions, nearly every lookup finds another key). Lookups are counted in windows of
/// ``window``; a window with fewer than a quarter hits turns the cache off for 16 windows,
/// during which the caller does its work without it, then it is tried again.
package struct CacheBypass {
    package static let window = 4_096
    private var lookups = 0
    private var hits = 0
    private var offLeft = 0

    package init() {}

    /// Counts a lookup about to be made; `false` while the cache is off (the caller then does
    /// without it, and does not count a hit).
    @inline(__always)
    package mutating func shouldLookUp() -> Bool {
        if offLeft > 0 {
            offLeft -= 1
            return false
        }
        lookups += 1
        if lookups == Self.window {
            if hits < Self.window / 4 { offLeft = 16 * Self.window }
            lookups = 0
            hits = 0
        }
        return true
    }

    /// Counts a hit of the lookup just counted.
    @inline(__always)
    package mutating func hit() { hits += 1 }

    /// Whether the cache is off (too few hits lately).
    package var isOff: Bool { offLeft > 0 }
}
