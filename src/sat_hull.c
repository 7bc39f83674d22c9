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
// each hull by its faces is exact to about 2^15 ε of its size
// (hull_pack.c, edge_directions), which the queries allow only at a
// relative tolerance of 2^17 ε or more (gjk_hull_hull_usable).
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

/// The least of d·v over the points.
static GJK_INLINE gjk_real least(const hull_points *h, gjk_vec3 d) {
    gjk_real lo, hi;
    range(h, d, &lo, &hi); // the largest costs one instruction more a step
    return lo;
}

/// The first point reaching the least (sign −1) or the largest (+1) of
/// d·v: the vertex's index.
static int extreme(const hull_points *h, gjk_vec3 d, gjk_real sign) {
    int best = 0;
    gjk_real top = -GJK_REAL_MAX;
    for (int v = 0; v < h->n; ++v) {
        gjk_real t = sign * (d.x * h->x[v] + d.y * h->y[v] + d.z * h->z[v]);
        best = t > top ? v : best;
        top = t > top ? t : top;
    }
    return best;
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
    gjk_real bx[GJK_HULL_SAT_MAX_VERTICES], by[GJK_HULL_SAT_MAX_VERTICES], bz[GJK_HULL_SAT_MAX_VERTICES];
    gjk_vec3 fb[GJK_HULL_MAX_EDGE_DIRECTIONS]; ///< B's edge directions in A's frame.
    hull_axis best;
    bool left_out; ///< A nearly (not exactly) parallel edge pair was left out.
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
    for (int f = 0; f < x->a->face_count && !(x->best.s > stop); ++f) {
        gjk_vec3 n = x->a->face_normals[f];
        keep(x, least(&x->pb, n) - x->a->face_offsets[f], n, 0, f, 0);
    }
    for (int g = 0; g < x->b->face_count && !(x->best.s > stop); ++g) {
        gjk_vec3 n = gjk_mat3_mul(p->rot_b, x->b->face_normals[g]);
        keep(x, least(&x->pa, n) - x->b->face_offsets[g] - gjk_dot(n, p->pos_b), gjk_neg(n), 1, g, 0);
    }
    return x->best.s;
}

/// The edge axes, each with both signs, until one separates by more than
/// `stop`; returns the best separation.
static gjk_real edge_axes(hull_axes *x, gjk_real min_len, gjk_real stop) {
    const gjk_real min_len2 = min_len * min_len;
    for (int j = 0; j < x->b->edge_direction_count && !(x->best.s > stop); ++j) {
        for (int i = 0; i < x->a->edge_direction_count; ++i) {
            gjk_vec3 L = gjk_cross(x->a->edge_directions[i], x->fb[j]);
            gjk_real len2 = gjk_length_sq(L);
            if (len2 >= min_len2) {
                gjk_vec3 u = gjk_scale(1 / gjk_sqrt(len2), L);
                gjk_real alo, ahi, blo, bhi;
                range(&x->pa, u, &alo, &ahi);
                range(&x->pb, u, &blo, &bhi);
                gjk_real s_plus = blo - ahi, s_minus = alo - bhi;
                keep(x, gjk_max(s_plus, s_minus), s_plus >= s_minus ? u : gjk_neg(u), 2, i, j);
            } else {
                // Parallel edges make no facet of D; within the rounding of
                // a rotation matrix (|L| ≤ 8ε) they count as parallel.
                x->left_out = x->left_out || len2 > 64 * GJK_REAL_EPSILON * GJK_REAL_EPSILON;
            }
        }
    }
    return x->best.s;
}

bool gjk_hull_hull_usable(const gjk_pair *p) {
    if (p->a->type != GJK_SHAPE_POLYTOPE || p->b->type != GJK_SHAPE_POLYTOPE) {
        return false;
    }
    const gjk_hull *a = hull_of(p->a), *b = hull_of(p->b);
    if (a == NULL || b == NULL) {
        return false;
    }
    int na = a->edge_direction_count, nb = b->edge_direction_count;
    return na > 0 && nb > 0 && na <= GJK_HULL_MAX_EDGE_DIRECTIONS && nb <= GJK_HULL_MAX_EDGE_DIRECTIONS &&
           na * nb <= GJK_HULL_SAT_MAX_EDGE_AXES && a->face_count <= 2 * GJK_HULL_SAT_MAX_VERTICES &&
           b->face_count <= 2 * GJK_HULL_SAT_MAX_VERTICES && p->rel_tol >= 131072 * GJK_REAL_EPSILON;
}

gjk_real gjk_hull_hull_tolerance(const gjk_pair *p) {
    gjk_real size = gjk_max_abs(p->pos_b) + 2 * (hull_of(p->a)->radius + hull_of(p->b)->radius) + p->radius;
    return p->rel_tol * size;
}

/// The shortest |L| of an edge axis kept: ε/|L| × scale ≤ tol / 2.
static gjk_real min_edge_len(const gjk_pair *p) { return 2 * GJK_REAL_EPSILON / p->rel_tol; }

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
    int nb = (b->vertex_count + 1) & ~1;
    for (int v = 0; v < nb; ++v) {
        gjk_vec3 q = gjk_add(gjk_mat3_mul(p->rot_b, b->vertices[v < b->vertex_count ? v : 0]), p->pos_b);
        x->bx[v] = q.x, x->by[v] = q.y, x->bz[v] = q.z;
    }
    x->pb = (hull_points){x->bx, x->by, x->bz, nb};
    for (int j = 0; j < b->edge_direction_count; ++j) {
        x->fb[j] = gjk_mat3_mul(p->rot_b, b->edge_directions[j]);
    }
    x->best.s = -GJK_REAL_MAX;
    x->left_out = false;
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
        best = edge_axes(&x, min_edge_len(p), stop);
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
        best = edge_axes(&x, min_edge_len(p), 0);
    }
    if (x.left_out || !(best < 0) || !(best - p->radius < -band)) {
        return false; // apart or touching cores, or an axis left out: GJK's
    }
    const hull_axis *ax = &x.best;
    // The vertices that reach the separation: A's largest along u, B's
    // least (B's are in A's frame already).
    int ia = extreme(&x.pa, ax->u, 1), ib = extreme(&x.pb, ax->u, -1);
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
