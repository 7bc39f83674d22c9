// The exact 3D reference of the differential tests: the triangulated convex
// hull of a point set (in practice the Minkowski difference of two
// polytopes), built with libqhull (reentrant API), and the signed distance
// of a point to it, always in double precision. Test-only; linked into the
// tests that need it (tests/CMakeLists.txt).
#ifndef GJK_TEST_QHULL_REFERENCE_H
#define GJK_TEST_QHULL_REFERENCE_H

#include <stdio.h>

#include "test_util.h"

typedef struct tri {
    d3 n;       ///< Outward unit normal.
    double off; ///< n·x + off = 0 on the plane.
    d3 v[3];
} tri;

typedef struct hull {
    tri *t;
    int nt;
    int *vid; ///< Indices of the input points that are hull vertices.
    int nv;
} hull;

/// Where qhull writes its messages (default: stderr). Set it before the first
/// hull_build, e.g. to a tmpfile().
extern FILE *g_qhull_err;

/// The triangulated hull of n points (3n doubles). Returns 0 on success;
/// degenerate hulls (fewer than 4 vertices or facets) fail.
int hull_build(hull *h, double *pts, int n);

void hull_free(hull *h);

/// Signed distance from p to the hull: the distance when outside (minimum
/// over every facet), minus the distance to the nearest facet plane when
/// inside.
double hull_sdist(const hull *h, d3 p);

/// As hull_sdist, but outside only the facets whose plane has p on its outer
/// side are searched for the closest point.
double hull_sdist_outer_facets(const hull *h, d3 p);

#endif // GJK_TEST_QHULL_REFERENCE_H
