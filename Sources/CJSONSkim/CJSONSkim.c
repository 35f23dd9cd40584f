// Everything is in include/CJSONSkim.h (static inline); SwiftPM wants a source file per C target.
#include "CJSONSkim.h"
