// Private to the hull construction (hull.c: quickhull; hull_merge.c: the
// merging of coplanar triangles into polygons; hull_pack.c: the packed
// result and flat clouds): the construction's double vectors, its
// triangles and state, and its sets of polygon faces.
#ifndef GJK_HULL_BUILD_H
#define GJK_HULL_BUILD_H

#include <math.h>

#include "exact.h"
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

/// A triangle of the quickhull construction (hull.c).
typedef struct hull_face {
    int v[3];           ///< Counter-clockwise seen from outside.
    int adj[3];         ///< adj[k]: the face across the edge v[k] → v[k + 1].
    hv3 n;         ///< Unit outward normal.
    double d;         ///< Plane offset: dot(n, p) = d on the plane.
    int outside;        ///< First point of the outside set, or −1.
    int far_point;      ///< The farthest point of the outside set.
    double far_dist;  ///< Its height above the plane.
    int mark;           ///< Visit stamp of the flood fill.
    int child;          ///< Once removed: a new face made on one of its horizon edges, or −1.
    bool visible;       ///< Seen from the current point (valid when mark is current).
    bool alive;
} hull_face;

/// The quickhull construction's state (hull.c), which hull_merge.c reads.
typedef struct hull_builder {
    const hv3 *p;     ///< The points, scaled (the planes are fitted to them).
    const hv3 *g;     ///< The points snapped to the grid: integers, |c| ≤ 2^50.
    int n;
    double eps;       ///< Construction tolerance, in grid units: heights below it are "not above".
    double merge_eps; ///< Input resolution, in grid units: faces this close to coplanar merge.
    bool coplanar;    ///< Three or more neighbouring faces are coplanar within merge_eps.
    bool oom;         ///< An allocation failed (the construction then stops).
    hull_face *f;
    int fcount, fcap;
    int *next;       ///< Outside-set links, one per point.
    int *start_map;  ///< Horizon vertex → new face starting there, one per point (−1 otherwise).
    int *pending;    ///< Faces that may have outside points (a stack).
    int pending_count, pending_cap;
    int *list;       ///< Scratch list of faces (flood fill, horizon).
    int list_cap;
} hull_builder;

/// The height of point i above face f's plane, in grid units, rounded:
/// n·(g_i − g_v0), within 32 units in the last place of ‖g_i − g_v0‖₁ of
/// the exact value (the differences are exact; n, from the cross product
/// within 2u of each component (gjk_grid_cross) and normalised, is within
/// about 8 units of the unit normal, and the dot adds 3).
static inline double height(const hull_builder *b, const hull_face *f, int i) {
    return hdot(f->n, hsub(b->g[i], b->g[f->v[0]]));
}

/// Grid point i as the array the exact functions take.
static inline void grid_point(const hull_builder *b, int i, double out[3]) {
    out[0] = b->g[i].x, out[1] = b->g[i].y, out[2] = b->g[i].z;
}

/// The side of face f's plane point i lies on (1 above, −1 below, 0 on),
/// exactly: the rounded height where it exceeds its rounding bound, the
/// grid's integers otherwise.
static inline int side(const hull_builder *b, const hull_face *f, int i) {
    hv3 e = hsub(b->g[i], b->g[f->v[0]]);
    double h = hdot(f->n, e), bound = 32 * 0x1p-53 * (fabs(e.x) + fabs(e.y) + fabs(e.z));
    if (h > bound) {
        return 1;
    }
    if (h < -bound) {
        return -1;
    }
    double pa[3], pb[3], pc[3], pq[3];
    grid_point(b, f->v[0], pa), grid_point(b, f->v[1], pb), grid_point(b, f->v[2], pc), grid_point(b, i, pq);
    return gjk_exact_orient(pa, pb, pc, pq);
}

/// Builds the polygon faces from the construction's live triangles
/// (hull_merge.c): triangles coplanar within the input's resolution merged,
/// a group whose boundary is not one simple loop left as triangles; checks
/// local convexity. False with *error set when out of memory or not convex.
bool gjk_hull_polygons(hull_builder *b, poly_set *ps, gjk_hull_error *error);

/// Marks in keep[0..b->n) the vertices of the construction's live
/// triangles that are corners of the hull: not between two neighbours
/// within a quarter of the input's resolution of their line, or, if so, not
/// between the two corners (vertices that are not) ending that straight run
/// of neighbours (runs of at most 64 points; a vertex of more than 32
/// neighbours counts as a corner). Returns how
/// many vertices are not (points on an edge of the hull, which the
/// construction keeps when they came before the edge's ends, and which the
/// hull must not have as vertices, hull.h: the slivers of triangles beside
/// them hide the faces beyond from hill climbing), or −1 when out of memory.
int gjk_hull_edge_points(const hull_builder *b, bool *keep);

/// The construction's live triangles as a face set (the source of the
/// vertex adjacency: gjk_hull_pack); false when out of memory.
bool gjk_hull_live_triangles(const hull_builder *b, poly_set *tri);

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
