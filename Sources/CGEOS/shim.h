#ifndef GEO_ENRICH_CGEOS_SHIM_H
#define GEO_ENRICH_CGEOS_SHIM_H
// GEOS's stable C API. Only the reentrant (_r) functions are used: each GeoBridge object owns
// its GEOSContextHandle_t, so no global GEOS state is shared between threads.
#include <geos_c.h>
#endif
