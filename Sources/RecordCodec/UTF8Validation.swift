/// Strict UTF-8 as Python's `bytes.decode("utf-8")` checks it (Unicode table 3-7): no overlong
/// forms, no encoded surrogates (ED A0–BF), nothing above U+10FFFF (F4 90+ and F5–FF), no
/// truncated or stray continuation bytes. NUL is valid.
enum UTF8Validation {
    /// The length (2–4) of the valid multi-byte sequence at `i`, or 0 when it is invalid.
    /// `p[i]` must be >= 0x80.
    @inline(__always)
    static func sequenceLength(_ p: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
        let b0 = p[i]
        if b0 < 0xC2 { return 0 }  // continuation byte, or C0/C1 (always overlong)
        if b0 < 0xE0 {
            return i + 1 < end && p[i + 1] & 0xC0 == 0x80 ? 2 : 0
        }
        if b0 < 0xF0 {
            guard i + 2 < end else { return 0 }
            let b1 = p[i + 1]
            let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80   // E0 80–9F would be overlong
            let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF  // ED A0–BF would be a surrogate
            return b1 >= low && b1 <= high && p[i + 2] & 0xC0 == 0x80 ? 3 : 0
        }
        if b0 < 0xF5 {
            guard i + 3 < end else { return 0 }
            let b1 = p[i + 1]
            let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80   // F0 80–8F would be overlong
            let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF  // F4 90+ is above U+10FFFF
            return b1 >= low && b1 <= high && p[i + 2] & 0xC0 == 0x80 && p[i + 3] & 0xC0 == 0x80 ? 4 : 0
        }
        return 0
    }

    /// Whether all of `bytes` is strict UTF-8.
    /// - Complexity: O(n), eight ASCII bytes per step.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        while i < n {
            if i + 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            if p[i] < 0x80 {
                i += 1
                continue
            }
            let length = sequenceLength(p, at: i, end: n)
            if length == 0 { return false }
            i += length
        }
        return true
    }
}
