// Private to the hull construction (hull.c: quickhull and the merging of
// coplanar triangles; hull_pack.c: the packed result and flat clouds): the
// construction's double vectors and its sets of polygon faces.
#ifndef GJK_HULL_BUILD_H
#define GJK_HULL_BUILD_H

#include <math.h>

#include "internal.h"

/// Vectors of the construction, in double whatever gjk_real is.
typedef struct hv3 {
    double x, y, z;
} hv3;

static inline hv3 hv(double x, double y, double z) {
    hv3 r = {x, y, z};
    return r;
}
static inline hv3 hsub(hv3 a, hv3 b) { return hv(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline hv3 hneg(hv3 a) { return hv(-a.x, -a.y, -a.z); }
static inline hv3 hscale(double s, hv3 a) { return hv(s * a.x, s * a.y, s * a.z); }
static inline double hdot(hv3 a, hv3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline hv3 hcross(hv3 a, hv3 b) { return hv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static inline double hlength_sq(hv3 a) { return hdot(a, a); }
static inline double hlength(hv3 a) { return sqrt(hdot(a, a)); }
/// a / |a| (scaled by the largest component first), or zero.
static inline hv3 hnormalize(hv3 a) {
    double m = fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z)));
    if (!(m > 0) || !isfinite(m)) {
        return hv(0, 0, 0);
    }
    a = hscale(1 / m, a);
    return hscale(1 / hlength(a), a);
}

/// A polygon face under construction: vertex indices into the input points.
typedef struct poly_set {
    int face_count;
    int index_count;
    int *first;   ///< face_count + 1
    int *indices;
    hv3 *normals;
    double *offsets;
} poly_set;

/// Allocates room for `faces` faces and `indices` vertex indices, empty;
/// false (nothing left allocated) when out of memory.
bool gjk_polys_alloc(poly_set *ps, int faces, int indices);

void gjk_polys_free(poly_set *ps);

/// Where the construction's coordinates lie: a point p as given is
/// 2^shift p' + centre, p' its construction point (the cloud centred on its
/// bounding box, then scaled by a power of two to a size near 1).
typedef struct hull_frame {
    int shift;
    hv3 centre;
} hull_frame;

/// Packs faces (indices into pts) into one hull block: renumbers the used
/// points, builds the vertex adjacency from the edges of `edges`' faces (the
/// construction's triangles; NULL: the polygon faces' own edges). The
/// faces' offsets are those of the construction's points, taken back to
/// the points' own by `frame`. NULL with *error set when out of memory.
gjk_hull *gjk_hull_pack(const gjk_vec3 *pts, int n, const poly_set *ps, const poly_set *edges, bool flat,
                        bool coplanar, hull_frame frame, gjk_hull_error *error);

/// The hull of points lying (within eps) in the plane through `origin` with
/// unit normal n (pts: the construction's points, see hull_frame; points:
/// as given), as two opposite faces.
gjk_hull *gjk_hull_flat(const gjk_vec3 *points, const hv3 *pts, int n, hv3 origin, hv3 u, hv3 nrm, double eps,
                        hull_frame frame, gjk_hull_error *error);

#endif // GJK_HULL_BUILD_H
