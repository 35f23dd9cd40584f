#ifndef GEO_ENRICH_CZLIB_SHIM_H
#define GEO_ENRICH_CZLIB_SHIM_H
// zlib's streaming inflate, for `enrich` inputs compressed with gzip.
#include <zlib.h>
#endif
