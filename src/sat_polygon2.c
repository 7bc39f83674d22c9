// Convex polygons in the plane by separating axes: a convex polygon
// (gjk2_make_convex_polygon) against another, a box, a triangle or a
// segment (a capsule's core), answered from the edges' normals without GJK
// or EPA when the answer is clear of touching. The general form of sat2.c,
// whose four axes of two boxes have closed forms.
//
// The edges of D = A − B are those of A and of −B (the Minkowski sum merges
// them by angle), so over the outward normals of both polygons' edges the
// largest separation
//     s = max over edges (r0, r1) of one, n outward, of
//         min over vertices x of the other of n · (x − r0)
// is −(the depth) when the cores overlap: the origin's nearest edge of D,
// whose foot lies on that edge, as every interior point's nearest edge line
// of a convex polygon does (the reference and incident edges of Box2D's
// b2CollidePolygons). When the cores are apart, s is a lower bound on their
// distance, reached when the nearest point of D lies on an edge of D: a
// vertex (or edge) of one polygon against an edge of the other. Two vertices
// nearest leave it below the distance, and the general path answers.
//
// Every edge of each polygon is tried against every vertex of the other:
// O(n m) dot products for n + m ≤ 32 vertices, two edges a step with SSE2,
// four with AVX2 where the CPU has it and eight edges or more are left
// with no early stop in sight (two 16-gons overlapping: 503 → 417 ns).
// Each separation is then the true one but for the rounding of its dot
// products, whatever the order of the edges and however short they are.
// (A merge of both polygons' edges by angle, as the Minkowski sum is built,
// pairs each edge with its incident vertex in O(n + m) steps, the rotating
// calipers of Toussaint, 1983; it was the form here until it measured
// slower: its choice of the next edge is a branch the processor cannot
// predict, and an edge whose angle is within rounding of its neighbour's
// came out of order and paired the edges after it with wrong vertices, an
// overestimate each review found new cases of. Two 8-gons overlapping:
// 334 → 250 ns a query for gjk2_intersect; two 16-gons 598 → 506.)
//
// With an early stop (gjk2_intersect's band; a penetration query's contact
// margin, options.max_distance), the first edges tried are the two at each
// polygon's vertex farthest toward the other, where a separating edge of
// cores apart is likeliest, and the first separation past the stop
// answers: a lower bound, as the walk's early stop gives.
//
// The witness pair, as in sat2.c: the reference edge against the incident
// vertex, or the incident edge when a neighbour of the vertex rises along n
// by at most tol / 8, clipped to the reference edge's extent widened by tol;
// the middle of what remains is the incident point, its projection on the
// reference edge the reference point.
#include "internal2.h"
#include "support2.h"

#if GJK_HAVE_AVX2_SCAN
#include <immintrin.h>
#endif
#if !GJK_USE_FLOAT && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define MIN_DOT_SSE2 1
#else
#define MIN_DOT_SSE2 0
#endif

bool gjk2_polygon_view_of(const gjk2_shape *s, gjk2_polygon_view *view) {
    switch (s->type) {
    case GJK2_SHAPE_POLYGON:
        if (!s->polygon.convex) {
            return false;
        }
        view->v = s->polygon.vertices;
        view->n = s->polygon.count;
        return true;
    case GJK2_SHAPE_BOX: {
        gjk_real x = s->box.half_extents.x, y = s->box.half_extents.y;
        view->own[0] = gjk_v2(-x, -y);
        view->own[1] = gjk_v2(x, -y);
        view->own[2] = gjk_v2(x, y);
        view->own[3] = gjk_v2(-x, y);
        view->n = 4;
        break;
    }
    case GJK2_SHAPE_TRIANGLE: {
        // Counter-clockwise; a triangle too thin for the sign of its area
        // to be sure (within the rounding of the cross product) has none.
        gjk_vec2 a = s->triangle.a, b = s->triangle.b, c = s->triangle.c;
        gjk_vec2 e1 = gjk_sub2(b, a), e2 = gjk_sub2(c, a);
        gjk_real area2 = gjk_cross2(e1, e2);
        gjk_real m = gjk_max(gjk2_max_abs(e1), gjk2_max_abs(e2));
        if (!(gjk_abs(area2) > 16 * GJK_REAL_EPSILON * m * m)) {
            return false;
        }
        view->own[0] = a;
        view->own[1] = area2 > 0 ? b : c;
        view->own[2] = area2 > 0 ? c : b;
        view->n = 3;
        break;
    }
    case GJK2_SHAPE_SEGMENT:
    case GJK2_SHAPE_CAPSULE: {
        // A polygon of two vertices: its edges a→b and b→a, with the two
        // normals ±perp of a segment (a point has none, and is left to the
        // general path).
        gjk_vec2 a = s->type == GJK2_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
        gjk_vec2 b = s->type == GJK2_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
        if (a.x == b.x && a.y == b.y) {
            return false;
        }
        view->own[0] = a;
        view->own[1] = b;
        view->n = 2;
        break;
    }
    default: return false;
    }
    view->v = view->own;
    return true;
}

void gjk2_polygon_view_measure(gjk2_polygon_view *view) {
    gjk_real extent = 0, reach2 = 0;
    for (int i = 0; i < view->n; ++i) {
        gjk_vec2 v = view->v[i];
        extent = gjk_max(extent, gjk2_max_abs(v));
        reach2 = gjk_max(reach2, gjk_length_sq2(v));
    }
    view->extent = extent;
    view->reach = gjk_sqrt(reach2);
}

/// The largest separation over both polygons' edges, and where.
typedef struct axis_best {
    gjk_real s; ///< The separation; −GJK_REAL_MAX before any edge.
    bool on_b;  ///< The reference edge is B's (else A's).
    int edge;   ///< The reference edge: its polygon's vertices edge, edge + 1.
    int vertex; ///< The other polygon's vertex farthest along −n.
} axis_best;

/// The map of the incident polygon's frame into the reference polygon's,
/// x_ref = r x + t: B's pose in A's frame when A is the reference, its
/// inverse when B is.
static void inc_to_ref(const gjk2_pair *p, bool on_b, gjk_rot2 *r, gjk_vec2 *t) {
    if (!on_b) {
        *r = p->rot_b;
        *t = p->pos_b;
    } else {
        r->c = p->rot_b.c;
        r->s = -p->rot_b.s;
        *t = gjk_neg2(gjk_rot2_inv_apply(p->rot_b, p->pos_b));
    }
}

/// The reference edge of out (its polygon's vertices edge, edge + 1) and
/// its unit outward normal, in its polygon's frame; false for an edge of
/// no length.
static bool ref_edge(const gjk2_polygon_view *ref, int edge, gjk_vec2 *r0, gjk_vec2 *r1, gjk_vec2 *n) {
    *r0 = ref->v[edge];
    *r1 = ref->v[edge + 1 == ref->n ? 0 : edge + 1];
    gjk_vec2 e = gjk_sub2(*r1, *r0);
    *n = gjk_normalize2(gjk_v2(e.y, -e.x)); // scaled first: a tiny edge's square underflows
    return n->x != 0 || n->y != 0;
}

/// The separation of ref's edge `edge` (vertices edge, edge + 1) against
/// inc, whose vertex x is r x + t in ref's frame: min over inc's vertices of
/// n · (r x + t − r0), n the edge's unit outward normal, evaluated as
/// (rᵀn) · x + n · (t − r0) (inc's vertices in their own frame: no vertex
/// is moved). *arg: the vertex that gives it (the first of equals). False
/// for an edge of no length.
static GJK_INLINE bool edge_separation(const gjk2_polygon_view *ref, int edge, const gjk2_polygon_view *inc, gjk_rot2 r,
                                       gjk_vec2 t, gjk_real *sep, int *arg) {
    gjk_vec2 r0, r1, n;
    if (!ref_edge(ref, edge, &r0, &r1, &n)) {
        return false;
    }
    gjk_vec2 m = gjk_rot2_inv_apply(r, n); // n in inc's frame
    gjk_real lo = gjk_dot2(m, inc->v[0]);
    int at = 0;
    for (int k = 1; k < inc->n; ++k) {
        gjk_real v = gjk_dot2(m, inc->v[k]);
        at = v < lo ? k : at;
        lo = gjk_min(lo, v);
    }
    *sep = lo + gjk_dot2(n, gjk_sub2(t, r0));
    *arg = at;
    return true;
}

/// The separation of ref's edge e against inc (x ↦ r x + t into ref's
/// frame), with the edge's outward normal unnormalised, n = (d.y, −d.x) for
/// its direction d: (min over inc's vertices x of (rᵀn)·x + n·(t − r0)) / |d|.
/// False (and *sep untouched) when |d|² leaves the normal range: the
/// caller then takes edge_separation's scaled unit normal.
static GJK_INLINE bool edge_quick(const gjk2_polygon_view *ref, int e, const gjk2_polygon_view *inc, gjk_rot2 r,
                                  gjk_vec2 t, gjk_real *sep) {
    gjk_vec2 r0 = ref->v[e], r1 = ref->v[e + 1 == ref->n ? 0 : e + 1];
    gjk_vec2 d = gjk_sub2(r1, r0), n = gjk_v2(d.y, -d.x);
    gjk_real ee = gjk_dot2(d, d);
    if (!(ee >= GJK_SQUARE_MIN && ee <= GJK_SQUARE_MAX)) {
        return false;
    }
    gjk_vec2 q = gjk_rot2_inv_apply(r, n);
    gjk_real lo = gjk_dot2(q, inc->v[0]);
    for (int k = 1; k < inc->n; ++k) {
        lo = gjk_min(lo, gjk_dot2(q, inc->v[k]));
    }
    *sep = (lo + gjk_dot2(n, gjk_sub2(t, r0))) / gjk_sqrt(ee);
    return true;
}

#if MIN_DOT_SSE2
/// edge_quick for ref's edges e and e + 1 (mod n) at once, one
/// per lane, every operation the scalar one (the minimum, exact, in
/// another order): sep[0], sep[1], the scalar values but for the sign of a
/// zero (compared only by >). ok[k] false where edge_quick's would be.
static GJK_INLINE void edge_quick2(const gjk2_polygon_view *ref, int e, const gjk2_polygon_view *inc, gjk_rot2 r,
                                   gjk_vec2 t, gjk_real sep[2], bool ok[2]) {
    const gjk_vec2 *v = ref->v;
    const int e1 = e + 1 == ref->n ? 0 : e + 1, e2 = e1 + 1 == ref->n ? 0 : e1 + 1;
    __m128d p0 = _mm_loadu_pd(&v[e].x), p1 = _mm_loadu_pd(&v[e1].x), p2 = _mm_loadu_pd(&v[e2].x);
    __m128d r0x = _mm_unpacklo_pd(p0, p1), r0y = _mm_unpackhi_pd(p0, p1);
    __m128d dx = _mm_sub_pd(_mm_unpacklo_pd(p1, p2), r0x), dy = _mm_sub_pd(_mm_unpackhi_pd(p1, p2), r0y);
    __m128d nx = dy, ny = _mm_xor_pd(dx, _mm_set1_pd(-0.0));
    __m128d ee = _mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy));
    __m128d c = _mm_set1_pd(r.c), s = _mm_set1_pd(r.s), ms = _mm_set1_pd(-r.s);
    __m128d qx = _mm_add_pd(_mm_mul_pd(c, nx), _mm_mul_pd(s, ny));
    __m128d qy = _mm_add_pd(_mm_mul_pd(ms, nx), _mm_mul_pd(c, ny));
    // q·x of each vertex x for both edges; two vertices a step, into two
    // minima (the minimum does not depend on the order).
    const gjk_vec2 *x = inc->v;
    const int m = inc->n;
    __m128d v0 = _mm_loadu_pd(&x[0].x), v1 = _mm_loadu_pd(&x[m - 1].x);
    __m128d lo0 = _mm_add_pd(_mm_mul_pd(qx, _mm_unpacklo_pd(v0, v0)), _mm_mul_pd(qy, _mm_unpackhi_pd(v0, v0)));
    __m128d lo1 = _mm_add_pd(_mm_mul_pd(qx, _mm_unpacklo_pd(v1, v1)), _mm_mul_pd(qy, _mm_unpackhi_pd(v1, v1)));
    for (int k = 1; k + 1 < m; k += 2) {
        v0 = _mm_loadu_pd(&x[k].x);
        v1 = _mm_loadu_pd(&x[k + 1].x);
        lo0 = _mm_min_pd(lo0, _mm_add_pd(_mm_mul_pd(qx, _mm_unpacklo_pd(v0, v0)), _mm_mul_pd(qy, _mm_unpackhi_pd(v0, v0))));
        lo1 = _mm_min_pd(lo1, _mm_add_pd(_mm_mul_pd(qx, _mm_unpacklo_pd(v1, v1)), _mm_mul_pd(qy, _mm_unpackhi_pd(v1, v1))));
    }
    __m128d lo = _mm_min_pd(lo0, lo1);
    __m128d off = _mm_add_pd(_mm_mul_pd(nx, _mm_sub_pd(_mm_set1_pd(t.x), r0x)),
                             _mm_mul_pd(ny, _mm_sub_pd(_mm_set1_pd(t.y), r0y)));
    __m128d sp = _mm_div_pd(_mm_add_pd(lo, off), _mm_sqrt_pd(ee));
    int in = _mm_movemask_pd(_mm_and_pd(_mm_cmpge_pd(ee, _mm_set1_pd(GJK_SQUARE_MIN)),
                                        _mm_cmple_pd(ee, _mm_set1_pd(GJK_SQUARE_MAX))));
    _mm_storeu_pd(sep, sp);
    ok[0] = (in & 1) != 0;
    ok[1] = (in & 2) != 0;
}
#endif

#if GJK_HAVE_AVX2_SCAN
/// edge_quick for ref's edges e .. e + 3 (mod n) at once with AVX2 (four
/// lanes, the CPU asked by the caller), as edge_quick2 does two: sep[k],
/// the scalar values but for the sign of a zero; bit k of the answer set
/// where edge_quick's ok would be. Out of line: the AVX2 target keeps it
/// from being inlined into code built without it.
static __attribute__((target("avx2"))) GJK_NOINLINE int edge_quick4(const gjk2_polygon_view *ref, int e,
                                                                    const gjk2_polygon_view *inc, gjk_rot2 r,
                                                                    gjk_vec2 t, gjk_real sep[4]) {
    const gjk_vec2 *v = ref->v;
    const int n = ref->n;
    int idx[5];
    idx[0] = e;
    for (int k = 1; k < 5; ++k) {
        idx[k] = idx[k - 1] + 1 == n ? 0 : idx[k - 1] + 1;
    }
    gjk_vec2 p0 = v[idx[0]], p1 = v[idx[1]], p2 = v[idx[2]], p3 = v[idx[3]], p4 = v[idx[4]];
    __m256d r0x = _mm256_set_pd(p3.x, p2.x, p1.x, p0.x), r0y = _mm256_set_pd(p3.y, p2.y, p1.y, p0.y);
    __m256d dx = _mm256_sub_pd(_mm256_set_pd(p4.x, p3.x, p2.x, p1.x), r0x);
    __m256d dy = _mm256_sub_pd(_mm256_set_pd(p4.y, p3.y, p2.y, p1.y), r0y);
    __m256d nx = dy, ny = _mm256_xor_pd(dx, _mm256_set1_pd(-0.0));
    __m256d ee = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
    __m256d c = _mm256_set1_pd(r.c), sn = _mm256_set1_pd(r.s), ms = _mm256_set1_pd(-r.s);
    __m256d qx = _mm256_add_pd(_mm256_mul_pd(c, nx), _mm256_mul_pd(sn, ny));
    __m256d qy = _mm256_add_pd(_mm256_mul_pd(ms, nx), _mm256_mul_pd(c, ny));
    // q·x of each vertex x for the four edges; two vertices a step, into
    // two minima.
    const gjk_vec2 *x = inc->v;
    const int m = inc->n;
    __m256d lo0 = _mm256_add_pd(_mm256_mul_pd(qx, _mm256_broadcast_sd(&x[0].x)),
                                _mm256_mul_pd(qy, _mm256_broadcast_sd(&x[0].y)));
    __m256d lo1 = _mm256_add_pd(_mm256_mul_pd(qx, _mm256_broadcast_sd(&x[m - 1].x)),
                                _mm256_mul_pd(qy, _mm256_broadcast_sd(&x[m - 1].y)));
    for (int k = 1; k + 1 < m; k += 2) {
        lo0 = _mm256_min_pd(lo0, _mm256_add_pd(_mm256_mul_pd(qx, _mm256_broadcast_sd(&x[k].x)),
                                               _mm256_mul_pd(qy, _mm256_broadcast_sd(&x[k].y))));
        lo1 = _mm256_min_pd(lo1, _mm256_add_pd(_mm256_mul_pd(qx, _mm256_broadcast_sd(&x[k + 1].x)),
                                               _mm256_mul_pd(qy, _mm256_broadcast_sd(&x[k + 1].y))));
    }
    __m256d lo = _mm256_min_pd(lo0, lo1);
    __m256d off = _mm256_add_pd(_mm256_mul_pd(nx, _mm256_sub_pd(_mm256_set1_pd(t.x), r0x)),
                                _mm256_mul_pd(ny, _mm256_sub_pd(_mm256_set1_pd(t.y), r0y)));
    _mm256_storeu_pd(sep, _mm256_div_pd(_mm256_add_pd(lo, off), _mm256_sqrt_pd(ee)));
    return _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(ee, _mm256_set1_pd(GJK_SQUARE_MIN), _CMP_GE_OQ),
                                            _mm256_cmp_pd(ee, _mm256_set1_pd(GJK_SQUARE_MAX), _CMP_LE_OQ)));
}
#endif

/// One polygon's edges as reference against the other's vertices: inc's
/// vertex x is r x + t in ref's frame. The edges are taken from `start`
/// on, which faces the other polygon.
typedef struct side_edges {
    const gjk2_polygon_view *ref, *inc;
    gjk_rot2 r;
    gjk_vec2 t;
    bool on_b;
    int start;
} side_edges;

/// The side's edge e, of separation `sep` from edge_quick (or with !ok,
/// edge_separation's, for an edge whose square leaves the normal range),
/// into the best: false when the separation is not finite; *stopped when it
/// exceeds `stop`.
static GJK_INLINE bool take_axis(const side_edges *s, int e, bool ok, gjk_real sep, gjk_real stop, axis_best *out,
                                 bool *found, bool *stopped) {
    if (!ok) {
        int arg;
        if (!edge_separation(s->ref, e, s->inc, s->r, s->t, &sep, &arg)) {
            return true; // an edge of no length: no axis
        }
    }
    if (!gjk_is_valid_real(sep)) {
        return false;
    }
    if (sep > out->s) {
        *found = true;
        out->s = sep;
        out->on_b = s->on_b;
        out->edge = e;
        *stopped = sep > stop;
    }
    return true;
}

/// With `seek`, the edges start at the vertex farthest toward the other
/// polygon's origin, where a separating edge of cores apart is likeliest
/// (for an early stop); else at edge 0.
static void side_of(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b, bool on_b, bool seek,
                    side_edges *s) {
    s->ref = on_b ? b : a;
    s->inc = on_b ? a : b;
    s->on_b = on_b;
    inc_to_ref(p, on_b, &s->r, &s->t);
    s->start = 0;
    if (seek) {
        int v = gjk2_scan(s->ref->v, s->ref->n, s->t);
        s->start = v == 0 ? s->ref->n - 1 : v - 1;
    }
}

/// The side's edges start + i, i ∈ [from, to) (mod n), into the best: two a
/// step with SSE2. False on a separation that is not finite; *stopped at the
/// first separation above `stop`.
static GJK_INLINE bool side_axes(const side_edges *s, int from, int to, bool wide, gjk_real stop, axis_best *out,
                                 bool *found, bool *stopped) {
    const int n = s->ref->n;
    to = to < n ? to : n;
    int i = from, e = s->start + from >= n ? s->start + from - n : s->start + from;
    (void)wide; // (no wider steps without AVX2)
#if GJK_HAVE_AVX2_SCAN
    // From eight edges on (fewer measured no faster: two 8-gons' six edges
    // after the first two, 261 -> 272 ns overlapping).
    if (wide && i + 7 < to && __builtin_cpu_supports("avx2")) {
        for (; i + 3 < to && !*stopped; i += 4) {
            gjk_real sep[4];
            int ok = edge_quick4(s->ref, e, s->inc, s->r, s->t, sep);
            for (int k = 0; k < 4 && !*stopped; ++k) {
                if (!take_axis(s, e, (ok >> k) & 1, sep[k], stop, out, found, stopped)) {
                    return false;
                }
                e = e + 1 == n ? 0 : e + 1;
            }
        }
    }
#endif
#if MIN_DOT_SSE2
    for (; i + 1 < to && !*stopped; i += 2) {
        gjk_real sep[2];
        bool ok[2];
        edge_quick2(s->ref, e, s->inc, s->r, s->t, sep, ok);
        if (!take_axis(s, e, ok[0], sep[0], stop, out, found, stopped)) {
            return false;
        }
        e = e + 1 == n ? 0 : e + 1;
        if (!*stopped && !take_axis(s, e, ok[1], sep[1], stop, out, found, stopped)) {
            return false;
        }
        e = e + 1 == n ? 0 : e + 1;
    }
#endif
    for (; i < to && !*stopped; ++i) {
        gjk_real sep = 0;
        bool ok = edge_quick(s->ref, e, s->inc, s->r, s->t, &sep);
        if (!take_axis(s, e, ok, sep, stop, out, found, stopped)) {
            return false;
        }
        e = e + 1 == n ? 0 : e + 1;
    }
    return true;
}

/// Every edge of both polygons against every vertex of the other: the
/// largest separation directly, O(n m), with no order to get wrong (each
/// edge's from edge_quick, two edges a step with SSE2, four with AVX2).
/// Stops at the first
/// edge whose separation so computed exceeds `stop`, trying first the two
/// edges of each polygon at its vertex farthest toward the other. The best
/// edge's separation and incident vertex are then edge_separation's (with a
/// unit normal: it may differ by rounding, and so lie a few ulps at or
/// below `stop` after a stop; the callers then find the pair within their
/// band and leave it to GJK, or certify the pair they return). False on a
/// separation that is not finite, or when neither polygon has an edge.
static GJK_INLINE bool all_axes(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b,
                                gjk_real stop, axis_best *out) {
    out->s = -GJK_REAL_MAX;
    out->on_b = false;
    out->edge = out->vertex = 0;
    bool found = false, stopped = false;
    side_edges sa, sb;
    const bool seek = stop < GJK_REAL_MAX;
    side_of(p, a, b, false, seek, &sa);
    side_of(p, a, b, true, seek, &sb);
    if (!side_axes(&sa, 0, 2, false, stop, out, &found, &stopped) ||
        !side_axes(&sb, 0, 2, false, stop, out, &found, &stopped)) {
        return false;
    }
    // Four edges a step (AVX2) where no early stop is likely: none is asked
    // for, or the edges facing the other polygon found no gap (overlapping
    // cores, most likely). Near a stop, the four-edge steps computed edges
    // past it (two 16-gons 1e-3 apart, gjk2_intersect: 187 -> 211 ns).
    const bool wide = !seek || !(out->s > 0);
    if (!side_axes(&sa, 2, a->n, wide, stop, out, &found, &stopped) ||
        !side_axes(&sb, 2, b->n, wide, stop, out, &found, &stopped) || !found) {
        return false;
    }
    const side_edges *s = out->on_b ? &sb : &sa;
    return edge_separation(s->ref, out->edge, s->inc, s->r, s->t, &out->s, &out->vertex);
}

bool gjk2_polygon_decide(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b,
                         gjk_real band, gjk_status *status) {
    axis_best best;
    if (!all_axes(p, a, b, p->radius + band, &best)) {
        return false;
    }
    gjk_real sd = best.s - p->radius;
    if (sd > band) {
        *status = GJK_SEPARATED; // (a lower bound when apart)
        return true;
    }
    if (best.s < 0 && sd < -band) {
        *status = GJK_PENETRATING; // best is −(the depth of the cores)
        return true;
    }
    return false;
}

/// The witness pair of reference edge r0–r1 (unit outward normal n, ref's
/// frame) against inc's vertex j at separation s: *on_ref on the edge,
/// *on_inc on inc's feature (both in ref's frame). False when the clipped
/// feature is empty or the pair is not s·n apart within 2 tol.
static bool edge_witness(gjk_vec2 r0, gjk_vec2 r1, gjk_vec2 n, gjk_real s, const gjk2_polygon_view *inc, int j,
                         gjk_rot2 r, gjk_vec2 t, gjk_real tol, gjk_vec2 *on_ref, gjk_vec2 *on_inc) {
    const int m = inc->n;
    gjk_vec2 f0 = gjk_add2(gjk_rot2_apply(r, inc->v[j]), t);
    // The incident edge: the neighbour that rises least along n, if it
    // rises by at most tol / 8.
    gjk_vec2 prev = gjk_add2(gjk_rot2_apply(r, inc->v[j == 0 ? m - 1 : j - 1]), t);
    gjk_vec2 next = gjk_add2(gjk_rot2_apply(r, inc->v[j + 1 == m ? 0 : j + 1]), t);
    gjk_real rise_p = gjk_dot2(n, gjk_sub2(prev, f0)), rise_n = gjk_dot2(n, gjk_sub2(next, f0));
    gjk_vec2 f1 = rise_p <= rise_n ? prev : next;
    if (!(gjk_min(rise_p, rise_n) <= tol / 8)) {
        f1 = f0;
    }
    // Clip f0 + τ (f1 − f0), τ ∈ [0, 1], to the edge's extent along its
    // direction u, widened by tol.
    gjk_vec2 e = gjk_sub2(r1, r0);
    gjk_vec2 u = gjk_perp2(n); // the edge's direction (n is its outward normal)
    gjk_real len = gjk_dot2(u, e);
    gjk_real u0 = gjk_dot2(u, gjk_sub2(f0, r0)), du = gjk_dot2(u, gjk_sub2(f1, f0));
    gjk_real lo = 0, hi = 1;
    if (du != 0) {
        gjk_real t1 = (-tol - u0) / du, t2 = (len + tol - u0) / du;
        lo = gjk_max(lo, gjk_min(t1, t2));
        hi = gjk_min(hi, gjk_max(t1, t2));
    } else if (!(u0 >= -tol && u0 <= len + tol)) {
        return false;
    }
    if (!(lo <= hi)) {
        return false;
    }
    *on_inc = gjk_mul_add2(f0, GJK_R(0.5) * (lo + hi), gjk_sub2(f1, f0));
    gjk_real along = gjk_min(gjk_max(gjk_dot2(u, gjk_sub2(*on_inc, r0)), 0), len);
    *on_ref = gjk_mul_add2(r0, along, u);
    // The certificate, as in sat2.c: the pair is s·n apart, each coordinate
    // within twice the tolerance.
    gjk_vec2 off = gjk_sub2(gjk_sub2(*on_inc, *on_ref), gjk_scale2(s, n));
    return gjk2_max_abs(off) <= 2 * tol;
}

bool gjk2_polygon_signed(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b, gjk_real tol,
                         gjk_real band, gjk_real beyond, gjk2_box_answer *out) {
    axis_best best;
    // With beyond, the edges start where a separating axis is likeliest
    // and stop at the first one past it: the answer is then that axis's
    // separation, a lower bound on the distance.
    bool early = beyond > 0;
    if (!all_axes(p, a, b, early ? p->radius + beyond + band : GJK_REAL_MAX, &best)) {
        return false;
    }
    // Overlapping cores: best is −(their depth). Apart: the pair below
    // proves it their distance. Either way the rounded shapes' signed
    // distance must be beyond ±band.
    gjk_real sd = best.s - p->radius;
    if (!(sd > band || sd < -band)) {
        return false;
    }
    // The flatness test and the clip need a tolerance above the rounding.
    gjk_real size = gjk2_max_abs(p->pos_b) + a->extent + b->extent;
    tol = gjk_max(tol, 64 * GJK_REAL_EPSILON * size);
    // The pair in the reference polygon's frame, then in A's: as it is when
    // the edge is A's, by x_A = R x_B + t when it is B's, whose outward
    // normal points from B to A.
    const gjk2_polygon_view *ref = best.on_b ? b : a, *inc = best.on_b ? a : b;
    gjk_vec2 r0, r1, n, t, on_ref, on_inc;
    gjk_rot2 r;
    inc_to_ref(p, best.on_b, &r, &t);
    if (!ref_edge(ref, best.edge, &r0, &r1, &n)) {
        return false;
    }
    if (early && best.s - p->radius > beyond + band) {
        // Apart beyond `beyond`: the incident vertex, and the point of the
        // reference edge nearest to it (both on their polygons), at least
        // the separation apart along n.
        on_inc = gjk_add2(gjk_rot2_apply(r, inc->v[best.vertex]), t);
        gjk_vec2 e = gjk_sub2(r1, r0), u = gjk_perp2(n);
        gjk_real along = gjk_min(gjk_max(gjk_dot2(u, gjk_sub2(on_inc, r0)), 0), gjk_dot2(u, e));
        on_ref = gjk_mul_add2(r0, along, u);
    } else if (!edge_witness(r0, r1, n, best.s, inc, best.vertex, r, t, tol, &on_ref, &on_inc)) {
        return false;
    }
    gjk_vec2 pa = best.on_b ? on_inc : on_ref;
    gjk_vec2 pb = best.on_b ? on_ref : on_inc;
    if (best.on_b) {
        pa = gjk_add2(gjk_rot2_apply(p->rot_b, pa), p->pos_b);
        pb = gjk_add2(gjk_rot2_apply(p->rot_b, pb), p->pos_b);
        n = gjk_neg2(gjk_rot2_apply(p->rot_b, n));
    }
    out->a = pa;
    out->b = pb;
    out->normal = n;
    out->distance = best.s;
    return true;
}
