// Everything is in include/CSinCos.h (static inline); SwiftPM wants a source file per C target.
#include "CSinCos.h"
