#ifndef GEO_ENRICH_CJSONSKIM_H
#define GEO_ENRICH_CJSONSKIM_H

#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The bytes of `bytes[0..<16]` that end a run of plain bytes in a JSON string, bit k for byte k:
/// a quote, a backslash, a control byte (below 0x20) or a byte of a non-ASCII character (0x80
/// and above). For the record scanner (RecordCodec's `JSONLineScanner`), whose strings were
/// tested eight bytes a word in Swift, 19 instructions a word: about 320 instructions a line
/// of the benchmark stream (callgrind), most of the strings being keys of 8 to 10 bytes and
/// their quote, two words. Compared as signed bytes, 0x80 and above are negative, so one
/// `less than 0x20` finds the control bytes and the non-ASCII ones.
static inline unsigned geo_json_string_specials16(const unsigned char *bytes) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)bytes);
    __m128i quotes = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslashes = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), low));
#else
    unsigned mask = 0;
    for (int k = 0; k < 16; k++) {
        unsigned char c = bytes[k];
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) mask |= 1u << k;
    }
    return mask;
#endif
}

/// The index just past the string whose first byte (after its opening quote) is `bytes[i]`: past
/// the next quote that no backslash escapes; -1 when `bytes[end]` comes first. Sixteen bytes
/// at a time where no backslash comes before the quote (the member names and ids of a fence
/// file have none): byte by byte, they took 12 M more of the 53 M instructions that finding
/// 20,000 fences' features took (callgrind).
static inline ptrdiff_t geo_json_string_end(const unsigned char *bytes, ptrdiff_t i, ptrdiff_t end) {
#if defined(__SSE2__)
    while (i + 16 <= end) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
        unsigned quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        unsigned escapes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        if (escapes == 0 || (quotes != 0 && __builtin_ctz(quotes) < __builtin_ctz(escapes))) {
            if (quotes != 0) return i + __builtin_ctz(quotes) + 1;
            i += 16;
            continue;
        }
        // a backslash first: past it and the byte it escapes, then on
        i += __builtin_ctz(escapes) + 2;
    }
#endif
    for (;;) {
        if (i >= end) return -1;
        unsigned char c = bytes[i];
        i += c == '\\' ? 2 : 1;
        if (c == '"') return i;
    }
}

/// The index just past the JSON object or array that starts at `bytes[start]` (a `{` or `[`),
/// found by matching brackets outside strings (a string runs from a quote to the next quote
/// that no backslash escapes); -1 when `bytes[end]` comes first. Nothing else is checked:
/// this finds where a value of valid JSON ends, and a caller reads what it returns as JSON.
///
/// Sixteen bytes are tested at a time (SSE2, which every x86-64 processor has): a block with
/// no quote, whose closing brackets cannot bring the depth to zero, is passed counting its
/// brackets; any other goes to its first quote or bracket. `[` and `{`, `]` and `}` differ only
/// in bit 0x20, so two comparisons find the four. In Swift, SIMD16 comparisons compiled to a
/// loop over the lanes, and eight bytes a word took 17 instructions a byte of a fence file
/// (callgrind); this takes about 2. Elsewhere, a byte at a time.
static inline ptrdiff_t geo_json_nested_end(const unsigned char *bytes, ptrdiff_t start, ptrdiff_t end) {
    ptrdiff_t i = start;
    ptrdiff_t depth = 0;
    while (i < end) {
#if defined(__SSE2__)
        if (i + 16 <= end) {
            __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
            __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
            unsigned quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
            unsigned opens = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')));
            unsigned closes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('}')));
            ptrdiff_t closing = __builtin_popcount(closes);
            if (quotes == 0 && closing < depth) {
                depth += __builtin_popcount(opens) - closing;
                i += 16;
                continue;
            }
            unsigned special = quotes | opens | closes;
            if (special == 0) {
                i += 16;
                continue;
            }
            i += __builtin_ctz(special);
        } else
#endif
        {
            unsigned char c = bytes[i];
            if (c != '"' && c != '{' && c != '[' && c != '}' && c != ']') {
                i += 1;
                continue;
            }
        }
        unsigned char b = bytes[i];
        i += 1;
        if (b == '"') {
            i = geo_json_string_end(bytes, i, end);
            if (i < 0) return -1;
        } else if (b == '{' || b == '[') {
            depth += 1;
        } else {
            depth -= 1;
            if (depth == 0) return i;
        }
    }
    return -1;
}

/// The ASCII digits of `bytes[0..<16]`, bit k for byte k (the record scanner's numbers). Compared
/// as signed bytes, 0x80 and above are negative: below '0', so not digits.
static inline unsigned geo_json_digits16(const unsigned char *bytes) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)bytes);
    __m128i atLeastZero = _mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1));
    __m128i atMostNine = _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1));
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(atLeastZero, atMostNine));
#else
    unsigned mask = 0;
    for (int k = 0; k < 16; k++) {
        if (bytes[k] >= '0' && bytes[k] <= '9') mask |= 1u << k;
    }
    return mask;
#endif
}

#endif
