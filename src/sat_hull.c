// Two small hulls by separating axes: gjk_intersect's status and
// gjk_penetration's depth, normal and witness points, without GJK or EPA
// when the answer is clear.
//
// The facets of the Minkowski difference D = A − B of two convex polytopes
// have as normals the face normals of A, those of B, and cross products of
// an edge of A with an edge of B (Gottschalk, Lin and Manocha, "OBBTree",
// SIGGRAPH 1996; Ericson §4.4.1; for polyhedra, Gregorius, "The Separating
// Axis Test between Convex Polyhedra", GDC 2013). Along a unit axis u the
// shapes' projections are apart by
//     s(u) = max(min_B u·b − max_A u·a,  min_A u·a − max_B u·b),
// which for every u is at most their signed distance: the distance when
// apart bounds every such gap from above, and when they overlap the depth
// is the least push along any direction. So the largest s over the axes is
// the signed distance of overlapping polytopes (−depth), reached along the
// facet of D nearest the origin, and a lower bound on the distance of
// polytopes apart. Parallel edges share an axis, so the edge axes are the
// cross products of the hulls' edge directions (gjk_hull.edge_directions):
// 3 × 3 for two boxes. Each is tried with both signs.
//
// Rounding: an edge axis L = e × f with |L| small is ε/|L| off in
// direction; one with |L| below min_len (ε/|L| × scale under half the
// tolerance) is left out, and "overlapping" is then not claimed unless it
// is parallel within the rounding of a rotation matrix (8ε), the same
// pose within the rounding of its input (as sat.c's boxes). The model of
// each hull by its faces is exact to about the faces' bend, at most 64 ε
// of its size (hull_pack.c, edge_directions), which the queries allow
// only at a relative tolerance of 2^17 ε or more (gjk_hull_hull_usable).
#include "internal.h"

#if !GJK_USE_FLOAT && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define RANGE_SSE2 1
#else
#define RANGE_SSE2 0
#endif

/// The hull of a polytope shape made by gjk_make_hull.
static GJK_INLINE const gjk_hull *hull_of(const gjk_shape *s) { return s->polytope.hull; }

/// A hull's vertices in A's frame, coordinates in blocks (as
/// gjk_hull.scan), n of them rounded up to even, the last padded with a
/// copy of the first (which changes no least or largest projection).
typedef struct hull_points {
    const gjk_real *x, *y, *z;
    int n;
} hull_points;

/// The least and the largest of d·v over the points.
static GJK_INLINE void range(const hull_points *h, gjk_vec3 d, gjk_real *lo, gjk_real *hi) {
#if RANGE_SSE2
    const __m128d dx = _mm_set1_pd(d.x), dy = _mm_set1_pd(d.y), dz = _mm_set1_pd(d.z);
    __m128d l = _mm_set1_pd(GJK_REAL_MAX), u = _mm_set1_pd(-GJK_REAL_MAX);
    for (int v = 0; v < h->n; v += 2) {
        __m128d t = _mm_add_pd(_mm_add_pd(_mm_mul_pd(dx, _mm_loadu_pd(h->x + v)), _mm_mul_pd(dy, _mm_loadu_pd(h->y + v))),
                               _mm_mul_pd(dz, _mm_loadu_pd(h->z + v)));
        l = _mm_min_pd(l, t);
        u = _mm_max_pd(u, t);
    }
    *lo = _mm_cvtsd_f64(_mm_min_sd(l, _mm_unpackhi_pd(l, l)));
    *hi = _mm_cvtsd_f64(_mm_max_sd(u, _mm_unpackhi_pd(u, u)));
#else
    gjk_real l = GJK_REAL_MAX, u = -GJK_REAL_MAX;
    for (int v = 0; v < h->n; ++v) {
        gjk_real t = d.x * h->x[v] + d.y * h->y[v] + d.z * h->z[v];
        l = gjk_min(l, t);
        u = gjk_max(u, t);
    }
    *lo = l, *hi = u;
#endif
}

/// Axes in blocks (all x, all y, all z), as many as a hull has faces (32
/// at most: gjk_hull_hull_usable), or as there are edge axes (64 at most),
/// the count rounded up to four with copies of the first.
#define AXES_MAX (GJK_HULL_MAX_EDGE_DIRECTIONS * GJK_HULL_MAX_EDGE_DIRECTIONS)
_Static_assert(AXES_MAX >= 2 * GJK_HULL_SAT_MAX_VERTICES && AXES_MAX % 4 == 0, "an axis block holds every axis");
typedef struct axis_block {
    gjk_real x[AXES_MAX], y[AXES_MAX], z[AXES_MAX];
    int n;
} axis_block;

static GJK_INLINE void axis_set(axis_block *b, int k, gjk_vec3 u) { b->x[k] = u.x, b->y[k] = u.y, b->z[k] = u.z; }

/// Rounds the block's count up to four with copies of axis 0.
static GJK_INLINE void axis_pad(axis_block *b) {
    while (b->n & 3) {
        b->x[b->n] = b->x[0], b->y[b->n] = b->y[0], b->z[b->n] = b->z[0];
        ++b->n;
    }
}

#if GJK_HAVE_AVX2_SCAN
#include <immintrin.h>
#define SAT_AVX2 __attribute__((target("avx2")))

/// ranges with AVX2: four axes a step against every point, each point's
/// coordinates broadcast, rounded as range rounds (no fused multiply-add),
/// so that both give the same numbers.
static SAT_AVX2 void ranges_avx2(const hull_points *h, const axis_block *b, gjk_real *lo, gjk_real *hi) {
    for (int k = 0; k < b->n; k += 4) {
        const __m256d ux = _mm256_loadu_pd(b->x + k), uy = _mm256_loadu_pd(b->y + k), uz = _mm256_loadu_pd(b->z + k);
        __m256d l = _mm256_set1_pd(GJK_REAL_MAX), u = _mm256_set1_pd(-GJK_REAL_MAX);
        for (int v = 0; v < h->n; ++v) {
            __m256d t = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ux, _mm256_broadcast_sd(h->x + v)),
                                                    _mm256_mul_pd(uy, _mm256_broadcast_sd(h->y + v))),
                                      _mm256_mul_pd(uz, _mm256_broadcast_sd(h->z + v)));
            l = _mm256_min_pd(l, t);
            u = _mm256_max_pd(u, t);
        }
        _mm256_storeu_pd(lo + k, l);
        _mm256_storeu_pd(hi + k, u);
    }
}
#endif

/// range for each axis of the block (its padded count).
static void ranges(const hull_points *h, const axis_block *b, bool wide, gjk_real *lo, gjk_real *hi) {
#if GJK_HAVE_AVX2_SCAN
    if (wide) {
        ranges_avx2(h, b, lo, hi);
        return;
    }
#else
    (void)wide;
#endif
    for (int k = 0; k < b->n; ++k) {
        range(h, gjk_v3(b->x[k], b->y[k], b->z[k]), &lo[k], &hi[k]);
    }
}

/// The best axis found: its separation, unit direction u from A to B (A's
/// frame: B lies farther along it).
typedef struct hull_axis {
    gjk_real s;
    gjk_vec3 u;
    int kind;   ///< 0 a face of A, 1 a face of B, 2 two edges.
    int ea, eb; ///< Edge axis: the directions' indices.
} hull_axis;

/// The axes of two hulls (A's frame; B by p->rot_b and p->pos_b).
typedef struct hull_axes {
    const gjk_hull *a, *b;
    hull_points pa, pb;
    /// B's vertices in A's frame, in blocks (as gjk_hull.scan: all x, all
    /// y, all z, each bv_stride long, the count rounded up to eight with
    /// copies of the first).
    gjk_real bv[3 * GJK_HULL_SAT_MAX_VERTICES];
    int bv_stride;
    gjk_vec3 fb[GJK_HULL_MAX_EDGE_DIRECTIONS]; ///< B's edge directions in A's frame.
    hull_axis best;
    bool left_out; ///< A nearly (not exactly) parallel edge pair was left out.
    bool wide;     ///< AVX2 (the hulls' scans chose it when they were built).
} hull_axes;

/// Keeps the axis u (unit, A's frame) with separation s when it is the best.
static GJK_INLINE void keep(hull_axes *x, gjk_real s, gjk_vec3 u, int kind, int ea, int eb) {
    if (s > x->best.s) {
        x->best = (hull_axis){s, u, kind, ea, eb};
    }
}

/// The face axes of A, then of B, until one separates by more than `stop`;
/// returns the best separation. Along A's face normal n (offset o: A's
/// largest projection) s = min_B n·b − o; along B's outward normal n'
/// (A's frame, offset o' + n'·t), with u = −n', s = min_A n'·a − o' − n'·t.
static gjk_real face_axes(hull_axes *x, const gjk_pair *p, gjk_real stop) {
    axis_block b;
    gjk_real lo[AXES_MAX], hi[AXES_MAX];
    const gjk_hull *ha = x->a, *hb = x->b;
    b.n = ha->face_count;
    for (int f = 0; f < ha->face_count; ++f) {
        axis_set(&b, f, ha->face_normals[f]);
    }
    axis_pad(&b);
    ranges(&x->pb, &b, x->wide, lo, hi);
    for (int f = 0; f < ha->face_count; ++f) {
        keep(x, lo[f] - ha->face_offsets[f], ha->face_normals[f], 0, f, 0);
    }
    if (x->best.s > stop) {
        return x->best.s;
    }
    b.n = hb->face_count;
    for (int g = 0; g < hb->face_count; ++g) {
        axis_set(&b, g, gjk_mat3_mul(p->rot_b, hb->face_normals[g]));
    }
    axis_pad(&b);
    ranges(&x->pa, &b, x->wide, lo, hi);
    for (int g = 0; g < hb->face_count; ++g) {
        gjk_vec3 n = gjk_v3(b.x[g], b.y[g], b.z[g]);
        keep(x, lo[g] - hb->face_offsets[g] - gjk_dot(n, p->pos_b), gjk_neg(n), 1, g, 0);
    }
    return x->best.s;
}

/// The edge axes, each with both signs; returns the best separation.
static gjk_real edge_axes(hull_axes *x, gjk_real min_len) {
    const gjk_real min_len2 = min_len * min_len;
    axis_block b;
    int ea[AXES_MAX], eb[AXES_MAX];
    b.n = 0;
    for (int j = 0; j < x->b->edge_direction_count; ++j) {
        for (int i = 0; i < x->a->edge_direction_count; ++i) {
            gjk_vec3 L = gjk_cross(x->a->edge_directions[i], x->fb[j]);
            gjk_real len2 = gjk_length_sq(L);
            if (len2 >= min_len2) {
                ea[b.n] = i, eb[b.n] = j;
                axis_set(&b, b.n++, gjk_scale(1 / gjk_sqrt(len2), L));
            } else {
                x->left_out = x->left_out || gjk_sat_left_out(len2);
            }
        }
    }
    int count = b.n;
    if (count == 0) {
        return x->best.s;
    }
    axis_pad(&b);
    gjk_real alo[AXES_MAX], ahi[AXES_MAX], blo[AXES_MAX], bhi[AXES_MAX];
    ranges(&x->pa, &b, x->wide, alo, ahi);
    ranges(&x->pb, &b, x->wide, blo, bhi);
    for (int k = 0; k < count; ++k) {
        gjk_vec3 u = gjk_v3(b.x[k], b.y[k], b.z[k]);
        gjk_real s_plus = blo[k] - ahi[k], s_minus = alo[k] - bhi[k];
        keep(x, gjk_max(s_plus, s_minus), s_plus >= s_minus ? u : gjk_neg(u), 2, ea[k], eb[k]);
    }
    return x->best.s;
}

bool gjk_hull_hull_usable(const gjk_pair *p, int max_edge_axes) {
    if (p->a->type != GJK_SHAPE_POLYTOPE || p->b->type != GJK_SHAPE_POLYTOPE) {
        return false;
    }
    const gjk_hull *a = hull_of(p->a), *b = hull_of(p->b);
    if (a == NULL || b == NULL) {
        return false;
    }
    // Counts as edge_directions sets them (a hull changed by hand may hold
    // anything: B's vertices fill arrays of GJK_HULL_SAT_MAX_VERTICES).
    int na = a->edge_direction_count, nb = b->edge_direction_count;
    return a->vertex_count <= GJK_HULL_SAT_MAX_VERTICES && b->vertex_count <= GJK_HULL_SAT_MAX_VERTICES && na > 0 &&
           nb > 0 && na <= GJK_HULL_MAX_EDGE_DIRECTIONS && nb <= GJK_HULL_MAX_EDGE_DIRECTIONS &&
           na * nb <= max_edge_axes && a->face_count <= 2 * GJK_HULL_SAT_MAX_VERTICES &&
           b->face_count <= 2 * GJK_HULL_SAT_MAX_VERTICES && p->rel_tol >= 131072 * GJK_REAL_EPSILON;
}

gjk_real gjk_hull_hull_tolerance(const gjk_pair *p) {
    gjk_real size = gjk_max_abs(p->pos_b) + 2 * (hull_of(p->a)->radius + hull_of(p->b)->radius) + p->radius;
    return p->rel_tol * size;
}

/// True when no separation can overflow (as sat.c's in_range).
static bool in_range(const gjk_pair *p) {
    gjk_real r = hull_of(p->a)->radius + hull_of(p->b)->radius;
    return gjk_max(gjk_max_abs(p->pos_b), r) <= GJK_REAL_MAX / 8;
}

static void axes_init(hull_axes *x, const gjk_pair *p) {
    x->a = hull_of(p->a);
    x->b = hull_of(p->b);
    const gjk_hull *a = x->a, *b = x->b;
    x->pa = (hull_points){a->scan, a->scan + a->scan_stride, a->scan + 2 * a->scan_stride, (a->vertex_count + 1) & ~1};
    const int nb = b->vertex_count, S = (nb + 7) & ~7;
    for (int v = 0; v < S; ++v) {
        gjk_vec3 q = gjk_add(gjk_mat3_mul(p->rot_b, b->vertices[v < nb ? v : 0]), p->pos_b);
        x->bv[v] = q.x, x->bv[S + v] = q.y, x->bv[2 * S + v] = q.z;
    }
    x->bv_stride = S;
    x->pb = (hull_points){x->bv, x->bv + S, x->bv + 2 * S, (nb + 1) & ~1};
    for (int j = 0; j < b->edge_direction_count; ++j) {
        x->fb[j] = gjk_mat3_mul(p->rot_b, b->edge_directions[j]);
    }
    x->best.s = -GJK_REAL_MAX;
    x->left_out = false;
    x->wide = a->scan_kind == 1 && b->scan_kind == 1;
}

bool gjk_hull_hull_decide(const gjk_pair *p, gjk_real band, gjk_status *status) {
    if (!in_range(p)) {
        return false;
    }
    hull_axes x;
    axes_init(&x, p);
    gjk_real stop = band + p->radius;
    gjk_real best = face_axes(&x, p, stop);
    if (!(best > stop)) {
        best = edge_axes(&x, gjk_sat_min_edge_len(p));
    }
    if (best > stop) {
        *status = GJK_SEPARATED;
        return true;
    }
    if (!x.left_out && best < 0 && best - p->radius < -band) {
        // Overlapping cores: best is −(their depth). (Apart cores: best is
        // only a lower bound on their distance, which may still exceed the
        // radii.)
        *status = GJK_PENETRATING;
        return true;
    }
    return false; // too close to call here: GJK decides
}

/// Whether the point q of A's frame lies in hull h, in that frame, to
/// within tol: below every face's plane.
static bool inside_a(const gjk_hull *h, gjk_vec3 q, gjk_real tol) {
    bool in = true;
    for (int f = 0; f < h->face_count; ++f) {
        in &= gjk_dot(h->face_normals[f], q) - h->face_offsets[f] <= tol;
    }
    return in;
}

/// inside_a for B's hull h, q in A's frame.
static bool inside_b(const gjk_hull *h, const gjk_pair *p, gjk_vec3 q, gjk_real tol) {
    return inside_a(h, gjk_mat3_tmul(p->rot_b, gjk_sub(q, p->pos_b)), tol);
}

// ---- Witness points -----------------------------------------------------
//
// With the cores overlapping and no axis left out, the best separation s is
// exactly −depth, along u: the facet of D nearest the origin, on which the
// origin's foot −s·u lies. The witness points are a ∈ A and b ∈ B with
// a − b = −s·u, on A's supporting plane along u and B's along −u. Where
// the supporting features are a vertex against a face, the vertex is one
// of them and the other is it moved by −s·u (a face of A: b is B's vertex
// and a = b − s·u; a face of B: the reverse). Two edges: the nearest points
// of their lines (Ericson §5.1.8), through the vertices that reach the
// separation. Each point is then checked to lie in its hull (within the
// tolerance): where the supporting feature is larger than the one guessed
// (a face against a face or an edge, as stacked boxes touch), the point
// can fall outside, and GJK and EPA answer.

bool gjk_hull_hull_signed(const gjk_pair *p, gjk_real tol, gjk_real band, gjk_box_answer *out) {
    if (!in_range(p)) {
        return false;
    }
    hull_axes x;
    axes_init(&x, p);
    // The first axis that separates the cores ends the search: their
    // distance is GJK's.
    gjk_real best = face_axes(&x, p, 0);
    if (!(best > 0)) {
        best = edge_axes(&x, gjk_sat_min_edge_len(p));
    }
    if (x.left_out || !(best < 0) || !(best - p->radius < -band)) {
        return false; // apart or touching cores, or an axis left out: GJK's
    }
    const hull_axis *ax = &x.best;
    // The vertices that reach the separation, found by the hulls' scans:
    // A's largest along u, B's least (B's are in A's frame already).
    int ia = ax->kind == 0 ? 0 : gjk_hull_scan_points(x.a, x.a->scan, x.a->scan_stride, x.a->vertex_count, ax->u);
    int ib = ax->kind == 1 ? 0 : gjk_hull_scan_points(x.b, x.bv, x.bv_stride, x.b->vertex_count, gjk_neg(ax->u));
    gjk_vec3 va = gjk_v3(x.pa.x[ia], x.pa.y[ia], x.pa.z[ia]), vb = gjk_v3(x.pb.x[ib], x.pb.y[ib], x.pb.z[ib]);
    gjk_vec3 a, b;
    if (ax->kind == 0) {
        b = vb;
        a = gjk_mul_add(vb, -best, ax->u);
    } else if (ax->kind == 1) {
        a = va;
        b = gjk_mul_add(va, best, ax->u);
    } else {
        // Lines va + σe and vb + τf: the nearest points solve
        // e·(r + σe − τf) = 0 and f·(r + σe − τf) = 0, r = va − vb, with
        // |e| = |f| = 1 and 1 − (e·f)² = |e × f|² ≥ min_len² (taken as the
        // latter, which keeps its digits for nearly parallel edges).
        gjk_vec3 e = x.a->edge_directions[ax->ea], f = x.fb[ax->eb];
        gjk_vec3 r = gjk_sub(va, vb);
        gjk_real c = gjk_dot(e, f), re = gjk_dot(r, e), rf = gjk_dot(r, f);
        gjk_real sigma = (c * rf - re) / gjk_length_sq(gjk_cross(e, f)), tau = rf + sigma * c;
        a = gjk_mul_add(va, sigma, e);
        b = gjk_mul_add(vb, tau, f);
    }
    if (!inside_a(x.a, a, tol) || !inside_b(x.b, p, b, tol)) {
        return false;
    }
    out->a = a;
    out->b = b;
    out->normal = ax->u;
    out->distance = best;
    return true;
}
