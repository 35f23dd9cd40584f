// Everything is in include/CMemoryHints.h (static inline); SwiftPM wants a source file per C target.
#include "CMemoryHints.h"
