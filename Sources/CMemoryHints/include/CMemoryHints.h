#ifndef GEO_ENRICH_CMEMORYHINTS_H
#define GEO_ENRICH_CMEMORYHINTS_H

/// Asks the processor to bring the cache line at `address` in for reading, without waiting for
/// it and without faulting. Swift callers pass a pointer into memory they own (forming one out
/// of bounds is undefined in Swift, though the instruction would not fault). Swift has no
/// prefetch of its own; this header is inlined into Swift callers by the Clang importer.
static inline void geo_prefetch_for_reading(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
