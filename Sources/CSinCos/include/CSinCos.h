#ifndef GEO_ENRICH_CSINCOS_H
#define GEO_ENRICH_CSINCOS_H

#if defined(__GLIBC__) || defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif
#include <math.h>

/// The sine and cosine of `x`, bit for bit those of `sin(x)` and `cos(x)`, from one call where
/// the C library has one that is: glibc's `sincos` runs the same code paths as its `sin` and
/// `cos`, less one argument reduction and one call (H3Core's cell geometry calls it for every
/// vertex; Swift's Glibc module does not export it, as it is a GNU extension). Elsewhere the two
/// functions are called, so the values are always the C library's `sin` and `cos`.
static inline void geo_sincos(double x, double *sine, double *cosine) {
#if defined(__GLIBC__)
    sincos(x, sine, cosine);
#else
    *sine = sin(x);
    *cosine = cos(x);
#endif
}

#endif
