#ifndef GEO_ENRICH_CPROJ_SHIM_H
#define GEO_ENRICH_CPROJ_SHIM_H
// PROJ's public C API: the geodesic routines of geodesic.h (Karney's algorithms, used for the
// WGS84 distance filter) and proj.h (version and context handling).
#include <proj.h>
#include <geodesic.h>
#endif
