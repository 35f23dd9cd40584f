/// `⌊x⌋` of a finite double within `Int`'s range, inlined: the truncation, less one where it
/// rounded up (a negative fraction). Swift's `rounded(.down)` is a call to libm's `floor` on
/// x86-64 without SSE4.1 (the baseline the release builds target): opening the postal file
/// called it twice for each of its points, 1.4 % of the start-up's samples (perf). The country
/// tiles' lookup, the postal file's check and the fence grid's cells share it.
@inline(__always)
func floorToInt(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) > x ? truncated &- 1 : truncated
}
