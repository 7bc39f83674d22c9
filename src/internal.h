// Private declarations shared by the query files: the pair of shapes in A's
// frame, the simplex, the GJK walk and EPA.
#ifndef GJK_INTERNAL_H
#define GJK_INTERNAL_H

#include <stddef.h>

#include "support.h"

/// frexp and ldexp in the precision of gjk_real, for scaling by exact powers
/// of two, fma (a product's rounding error, simplex.c), and the smallest
/// normal number (a product below it has lost digits to underflow).
#if GJK_USE_FLOAT
#define gjk_frexp frexpf
#define gjk_ldexp ldexpf
#define gjk_fma fmaf
#define GJK_REAL_MIN_NORMAL 1.17549435e-38f
#else
#define gjk_frexp frexp
#define gjk_ldexp ldexp
#define gjk_fma fma
#define GJK_REAL_MIN_NORMAL 2.2250738585072014e-308
#endif

/// The largest coordinate of a point of D the queries accept: 2^510
/// (2^62 in float). Up to it a difference of two points is at most 2^511,
/// a product of two differences 2^1022 and a cross product's component
/// 2^1023, all finite; beyond it the walk's search directions and their
/// lengths overflowed, and answers were wrong rather than refused (random
/// pairs of sizes 2^511 to 2^512.5: up to 4 in 640 with the wrong status,
/// 23 with a wrong distance, and non-finite directions handed to user
/// support functions). A support point beyond it makes the query answer
/// GJK_INVALID_INPUT, as a non-finite one does; a query whose walk never
/// meets one answers as usual.
#if GJK_USE_FLOAT
#define GJK_POINT_MAX 0x1p62f
#else
#define GJK_POINT_MAX 0x1p510
#endif

/// The binary exponent e of m (m·2^−e in [0.5, 1)) when m lies outside
/// [lo, hi]; 0 inside it, and for m zero or not finite. Clamped to
/// [−1000, 1021] ([−120, 125] in float), so that 2^−e is a finite normal
/// number (a subnormal factor reads as 0 where the program flushes
/// subnormals, -ffast-math): a subnormal m then comes to at least 2^−74
/// (2^−29 in float), the largest below 8.
static inline int gjk_shift_outside(gjk_real m, gjk_real lo, gjk_real hi) {
#if GJK_USE_FLOAT
    const int least = -120, most = 125;
#else
    const int least = -1000, most = 1021;
#endif
    if ((m >= lo && m <= hi) || !(m > 0) || !(m <= GJK_REAL_MAX)) {
        return 0;
    }
    int e;
    (void)gjk_frexp(m, &e);
    return e < least ? least : (e > most ? most : e);
}

/// Coordinate k (0, 1, 2: x, y, z) of v.
static inline gjk_real gjk_vec3_at(gjk_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/// ±1: the sign of x, + for zero (−0 + 0 = +0; no branch). The boxes' axes
/// (sat.c, sat2.c).
static inline gjk_real gjk_sign_of(gjk_real x) { return gjk_copysign(GJK_R(1), x + 0); }

/// Narrows [*lo, *hi] to the τ with |f + τ d| ≤ w (a feature f + τ·u clipped
/// by a slab of half width w along one axis, f and d its coordinates there;
/// the boxes' witnesses, sat.c and sat2.c). False when no τ is inside
/// (d = 0 and |f| > w); the interval may come out empty (*lo > *hi).
static inline bool gjk_clip_interval(gjk_real f, gjk_real d, gjk_real w, gjk_real *lo, gjk_real *hi) {
    if (d != 0) {
        gjk_real t1 = (-w - f) / d, t2 = (w - f) / d;
        *lo = gjk_max(*lo, gjk_min(t1, t2));
        *hi = gjk_min(*hi, gjk_max(t1, t2));
        return true;
    }
    return gjk_abs(f) <= w;
}

/// The middle *c and unit direction *u (zero when a = b) of the segment
/// a–b; returns its half length.
static inline gjk_real gjk_segment_axis(gjk_vec3 a, gjk_vec3 b, gjk_vec3 *c, gjk_vec3 *u) {
    gjk_vec3 e = gjk_sub(b, a);
    *u = gjk_normalize(e);
    *c = gjk_mul_add(a, GJK_R(0.5), e);
    return GJK_R(0.5) * gjk_dot(*u, e);
}

/// Unit vectors *x, *y with x × y = z for the unit vector z, continuous in
/// z but at z.z = 0's sign change (Duff et al., "Building an orthonormal
/// basis, revisited", JCGT 2017).
static inline void gjk_orthonormal_basis(gjk_vec3 z, gjk_vec3 *x, gjk_vec3 *y) {
    gjk_real sign = z.z < 0 ? GJK_R(-1) : GJK_R(1);
    gjk_real k = -1 / (sign + z.z), m = z.x * z.y * k;
    *x = gjk_v3(1 + sign * z.x * z.x * k, sign * m, -sign * z.x);
    *y = gjk_v3(m, sign + z.y * z.y * k, -z.y);
}

/// gjk_shift_outside for [√GJK_SQUARE_MIN, √GJK_SQUARE_MAX], where squares
/// and products of two such magnitudes leave the normal range. EPA
/// (epa.c, epa2.c) works on D's points multiplied by 2^−e.
static inline int gjk_range_shift(gjk_real m) {
#if GJK_USE_FLOAT
    return gjk_shift_outside(m, 1e-15f, 1e15f);
#else
    return gjk_shift_outside(m, 1e-140, 1e140);
#endif
}

/// True when the shape's parameters are valid; with every_vertex false a
/// polytope's vertices past the first are not read (shape.c).
bool gjk_shape_check(const gjk_shape *shape, bool every_vertex);

/// A cheap estimate of the shape's extent in its local frame (shape.c).
gjk_real gjk_shape_size(const gjk_shape *shape);

/// Two shapes set up for one query. Everything is expressed in A's local
/// frame: B's pose relative to A is computed once, so that shapes far from
/// the world origin never subtract two large coordinates inside the loop.
typedef struct gjk_pair {
    const gjk_shape *a;
    const gjk_shape *b;
    gjk_mat3 rot_b;   ///< B's rotation in A's frame.
    gjk_vec3 pos_b;   ///< B's origin in A's frame.
    gjk_real radius;  ///< Sum of the two rounding radii.
    gjk_real rel_tol; ///< Relative tolerance.
    gjk_real scale;   ///< Length scale seen so far (grows as points are seen).
    bool bad_support; ///< A support point was not finite.
    gjk_mat3 rot_a;   ///< A's rotation, to report trace points in world orientation.
    gjk_trace_fn trace;
    void *trace_data;
    int hint_a, hint_b; ///< Last support vertices of hull polytopes (−1: none).
    bool warm;          ///< The walk started from a cache: hints are tried first (gjk_support_hull).
    bool climb_both;    ///< Both shapes are hulls that climb: their climbs interleave (gjk_support_hull_pair).
} gjk_pair;

/// A point of the Minkowski difference of the cores, w = a − b, with the
/// points of A and of B (both in A's frame) that made it.
typedef struct gjk_support_point {
    gjk_vec3 w, a, b;
    gjk_vec3 d; ///< The direction (A's frame) it was asked for.
    int ia, ib; ///< Hull polytopes: the vertex indices of a and b (else unused).
    /// True when w is D's support point along d: D lies behind the plane
    /// through w normal to d. False for a point rebuilt from a cache's hull
    /// vertices: a point of D, but no bound.
    bool bounds;
} gjk_support_point;

/// True when the transform's numbers are finite and its quaternion non-zero.
static inline bool gjk_transform_valid(const gjk_transform *t);

/// gjk_transform_valid for a transform whose quaternion's squared norm is
/// outside [GJK_SQUARE_MIN, GJK_SQUARE_MAX] (pair.c).
bool gjk_transform_valid_slow(gjk_transform t);

/// True when the shapes are proved farther apart than `beyond` (≥ 0) by the
/// balls about their origins that hold them alone (query.c): the origins
/// lie farther apart than the balls' radii and `beyond` by more than the
/// tolerance at the pair's whole scale (above the tolerance any query
/// classifies with, so that the answers agree). Only for shapes whose ball
/// costs nothing to find (not a user shape, nor a polytope without hull).
/// The inputs are checked as the queries check them, but only once the
/// test has succeeded: false for anything invalid, which the full path
/// then reports, and for a traced query (its trace shows the walk). Far
/// pairs answer so without any pose setup.
bool gjk_balls_apart(const gjk_query_input *in, gjk_real beyond);

/// An answer without a simplex (a closed form, two boxes' axes, the
/// balls): a cache (may be NULL) starts the next query fresh.
static inline void gjk_cache_clear(gjk_simplex_cache *cache) {
    if (cache != NULL) {
        cache->count = 0;
    }
}

/// The common case of the transform checks in one test: a quaternion whose
/// squared norm *s2 lies inside the normal range has finite, non-zero
/// components, and gjk_quat_normalize's quick path applies to it.
static inline bool gjk_quat_norm_in_range(gjk_quat q, gjk_real *s2) {
    *s2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    return *s2 > GJK_SQUARE_MIN && *s2 < GJK_SQUARE_MAX;
}

/// 1/√s2 for s2 in the normal range, the factor that makes a rotation of
/// squared norm s2 unit. Rotations come nearly unit (from cos and sin, or a
/// normalised quaternion: s2 within a few ulps of 1), and there, in double,
/// one Newton step from 1 gives it, 1.5 − s2/2, whose error 3(s2 − 1)²/8
/// lies below 2^-61 for |s2 − 1| below 2^-30: within the rounding of the
/// square root and division it replaces, whose latency (about 35 cycles)
/// stood first in every query's chain of dependent operations (two 2D
/// capsules' intersect 96 → 89 ns, distance 101 → 92; two boxes' distance
/// 219 → 212). Float keeps the square root: a step there (within 2^-13 of
/// 1) moved the last bits of the rotation enough that gjk_intersect and
/// gjk_distance disagreed on the status of two float pairs at the edge of
/// touching (test_regression's float poses).
static inline gjk_real gjk_inv_sqrt_rotation(gjk_real s2) {
#if !GJK_USE_FLOAT
    if (gjk_abs(s2 - 1) < 0x1p-30) {
        return GJK_R(1.5) - GJK_R(0.5) * s2;
    }
#endif
    return 1 / gjk_sqrt(s2);
}

/// True when gjk_transform_valid(*t); *unit then receives *t with its
/// rotation normalised. Inline: every query starts here.
static inline bool gjk_transform_unit(const gjk_transform *t, gjk_transform *unit) {
    gjk_quat q = t->rotation;
    unit->position = t->position;
    gjk_real s2;
    if (gjk_quat_norm_in_range(q, &s2)) {
        gjk_real k = gjk_inv_sqrt_rotation(s2);
        unit->rotation = gjk_quat_make(k * q.w, k * q.x, k * q.y, k * q.z);
        return gjk_is_valid_vec3(t->position);
    }
    unit->rotation = gjk_quat_normalize(q);
    return gjk_transform_valid_slow(*t);
}

/// True when a and b are the same point, exactly (no branches).
static inline bool gjk_same_point(gjk_vec3 a, gjk_vec3 b) { return (a.x == b.x) & (a.y == b.y) & (a.z == b.z); }

/// A rotation applied without normalising its quaternion first: q as
/// given and k = 2/|q|², so that R v = v + w t + u × t with t = k (u × v)
/// for a quaternion of any length (the Rodrigues form of q v q* / |q|²:
/// ((w² − u·u) v + 2 (u·v) u + 2 w (u × v)) / |q|²). One division where
/// normalising took a square root and a division, both on the way to
/// every answer of a closed form (two capsules' distance is bound by the
/// latency of its chain of square roots and divisions, not by its
/// instructions: 72 -> 63 ns).
typedef struct gjk_scaled_rotation {
    gjk_quat q;
    gjk_real k;
} gjk_scaled_rotation;

/// The transform's rotation as a gjk_scaled_rotation; false for an invalid
/// transform, as gjk_transform_unit. A quaternion far from unit length
/// (|q|² outside (1/4, 4)) is normalised first (k = 2): a tiny one's k
/// would turn t's rounding into overflow on large cores.
static inline bool gjk_scaled_rotation_of(const gjk_transform *t, gjk_scaled_rotation *r) {
    gjk_real s2;
    if (gjk_quat_norm_in_range(t->rotation, &s2) && s2 > GJK_R(0.25) && s2 < 4) {
        r->q = t->rotation;
        r->k = 2 / s2;
        return gjk_is_valid_vec3(t->position);
    }
    gjk_transform unit;
    if (!gjk_transform_unit(t, &unit)) {
        return false;
    }
    r->q = unit.rotation;
    r->k = 2;
    return true;
}

/// v rotated by r.
static inline gjk_vec3 gjk_rotate_scaled(gjk_scaled_rotation r, gjk_vec3 v) {
    gjk_vec3 u = gjk_v3(r.q.x, r.q.y, r.q.z);
    gjk_vec3 t = gjk_scale(r.k, gjk_cross(u, v));
    return gjk_add(gjk_mul_add(v, r.q.w, t), gjk_cross(u, t));
}

/// v rotated by the inverse of r (its conjugate, as gjk_quat_inv_rotate).
static inline gjk_vec3 gjk_inv_rotate_scaled(gjk_scaled_rotation r, gjk_vec3 v) {
    r.q = gjk_quat_conj(r.q);
    return gjk_rotate_scaled(r, v);
}

static inline bool gjk_transform_valid(const gjk_transform *t) {
    gjk_real s2;
    if (gjk_quat_norm_in_range(t->rotation, &s2)) {
        return gjk_is_valid_vec3(t->position);
    }
    return gjk_transform_valid_slow(*t);
}

/// True when the options are in range. One combined test (NaN fails every
/// comparison, +inf the upper bound); inline, as every query starts here.
static inline bool gjk_options_valid(const gjk_options *o) {
    return (o->tolerance >= 0) & (o->tolerance < 1) & (o->max_distance >= 0) & (o->max_distance <= GJK_REAL_MAX) &
           (o->max_iterations >= 0) & (o->max_epa_iterations >= 0);
}

/// The relative tolerance the options ask for: options.tolerance (at least
/// GJK_MIN_TOLERANCE), or GJK_DEFAULT_TOLERANCE when it is 0.
static inline gjk_real gjk_options_tolerance(const gjk_options *o) {
    return o->tolerance > 0 ? gjk_max(o->tolerance, GJK_MIN_TOLERANCE) : GJK_DEFAULT_TOLERANCE;
}

/// The positive root of r s + c s²/2 = b (b > 0, c ≥ 0), in a form that
/// keeps its digits for either sign of r (0 where r² overflows or a
/// number is NaN; GJK_REAL_MAX where c = 0 and r < 0: no root): how long a
/// gap b lasts against a closing rate r and acceleration c (the
/// second-order steps of toi.c and toi2.c).
static inline gjk_real gjk_step_root(gjk_real r, gjk_real c, gjk_real b) {
    // Each form adds numbers of one sign: 2b / (r + q) for a closing r,
    // (q − r) / c for an opening one. (2b / (r + q) for both cancelled
    // where r < 0 and 2bc ≪ r²: the root came out far too long, or
    // infinite, and a step declared a miss past a contact, review.)
    gjk_real q = gjk_sqrt(r * r + 2 * b * c);
    if (!(q <= GJK_REAL_MAX)) {
        return 0; // (and NaN)
    }
    if (r >= 0) {
        return 2 * b / (r + q);
    }
    return c > 0 ? (q - r) / c : GJK_REAL_MAX;
}

/// The search of a second-order step (toi.c, toi2.c) over its probes: the
/// gap stays above the target for s up to the root of r s + c s²/2 = budget
/// where r is the first-order terms' mean rate L(p)/p over a probe [0, p]
/// (L convex, L(0) = 0: L(s) ≤ s L(p)/p there). Each probe p is the root
/// for the last r, and `safe` the length certified so far, at most rest.
typedef struct gjk_step_search {
    gjk_real r, c, budget, rest, p, safe;
} gjk_step_search;

/// The next probe, in st->p; false when it would certify nothing more.
static inline bool gjk_step_probe(gjk_step_search *st) {
    st->p = gjk_min(gjk_step_root(st->r, st->c, st->budget), st->rest);
    return st->p > st->safe;
}

/// Takes L(p) at the probe: true when the search is over (its answer in
/// st->safe). The bound's root inside the probe ends it (a NaN: nothing
/// more); the whole probe clear, the next looks further (r only grows
/// beyond p).
static inline bool gjk_step_take(gjk_step_search *st, gjk_real lin) {
    st->r = lin / st->p;
    gjk_real s = gjk_step_root(st->r, st->c, st->budget);
    if (!(s >= st->p)) {
        st->safe = s > st->safe ? s : st->safe;
        return true;
    }
    st->safe = st->p;
    return st->p >= st->rest;
}

/// Checks two shapes and their transforms and sets up the pair in A's frame;
/// *xa receives A's transform with its rotation normalised (pair.c; on
/// failure *xa is left undefined).
bool gjk_pair_init(gjk_pair *p, const gjk_shape *a, const gjk_transform *transform_a, const gjk_shape *b,
                   const gjk_transform *transform_b, const gjk_options *o, gjk_transform *xa);

/// A bound on |p| over the shape, rounding included, in its local frame
/// (shape.c). Reads every vertex of a polytope.
gjk_real gjk_shape_bound(const gjk_shape *shape);

/// gjk_shape_bound without the rounding: a bound on |p| over the core.
gjk_real gjk_shape_core_bound(const gjk_shape *shape);

/// The status of a cast's contact at the start of the motion (a shape
/// cast's λ = 0, a time of impact's first step), from the penetration
/// query's status `pen` at the poses of q: GJK_INITIALLY_OVERLAPPING for
/// shapes that overlap beyond the tolerance, GJK_HIT for shapes within it
/// (or within the target), GJK_NOT_CONVERGED when neither is known,
/// GJK_INVALID_INPUT when gjk_intersect refuses the input (a user's
/// support that fails only in some directions). Where
/// the penetration query did not converge (EPA at its cap: a point inside a
/// user's ball at the default cap, any overlap at a cap of 2), gjk_intersect
/// decides: its EPA stops once the depth is proved past the tolerance, and
/// the penetration's normal, a direction that separates the shapes, serves
/// (cast.c).
gjk_status gjk_cast_start_status(const gjk_query_input *q, gjk_status pen);

/// A cast answer, or GJK_INVALID_INPUT with every number zero when finite
/// inputs overflowed on the way: the contract never returns an infinity.
static inline gjk_cast_output gjk_cast_finite(gjk_cast_output o) {
    if (!gjk_is_valid_real(o.t) || !gjk_is_valid_vec3(o.point) || !gjk_is_valid_vec3(o.normal)) {
        gjk_cast_output zero = {GJK_INVALID_INPUT, false, 0, {0, 0, 0}, {0, 0, 0}, 0};
        return zero;
    }
    return o;
}

/// A point of the difference of the cores for direction d (A's frame),
/// d ≠ 0: the support point along d, except that with `cached` a hull
/// polytope's point is its vertex p->hint_a (p->hint_b) when that is one, as
/// a cache stored it (then s.bounds is false).
static GJK_INLINE gjk_support_point gjk_pair_point(gjk_pair *p, gjk_vec3 d, const bool cached) {
    gjk_support_point s;
    s.d = d;
    const gjk_vec3 *va = cached ? gjk_hull_vertex(p->a, p->hint_a) : NULL;
    const gjk_vec3 *vb = cached ? gjk_hull_vertex(p->b, p->hint_b) : NULL;
    s.bounds = va == NULL && vb == NULL;
    gjk_vec3 lb;
    if (!cached && p->climb_both) {
        const gjk_hull *ha = p->a->polytope.hull, *hb = p->b->polytope.hull;
        gjk_support_hull_pair(ha, d, &p->hint_a, hb, gjk_mat3_tmul(p->rot_b, gjk_neg(d)), &p->hint_b, p->warm);
        s.a = ha->vertices[p->hint_a];
        lb = hb->vertices[p->hint_b];
    } else {
        s.a = va != NULL ? *va : gjk_core_support_hint(p->a, d, &p->hint_a, p->warm);
        lb = vb != NULL ? *vb : gjk_core_support_hint(p->b, gjk_mat3_tmul(p->rot_b, gjk_neg(d)), &p->hint_b, p->warm);
    }
    s.ia = p->hint_a;
    s.ib = p->hint_b;
    s.b = gjk_add(gjk_mat3_mul(p->rot_b, lb), p->pos_b);
    s.w = gjk_sub(s.a, s.b);
    gjk_real m = gjk_max_abs(s.w);
    if (!gjk_is_valid_vec3(s.w) || m > GJK_POINT_MAX) {
        // NaN or infinite (a user support function, or a sum that
        // overflowed), or beyond GJK_POINT_MAX: flag it and return
        // something finite.
        p->bad_support = true;
        s.a = s.b = s.w = s.d = gjk_v3_zero();
    } else {
        p->scale = m > p->scale ? m : p->scale;
    }
    return s;
}

/// Support of the difference of the cores along d (A's frame), d ≠ 0.
static GJK_INLINE gjk_support_point gjk_pair_support(gjk_pair *p, gjk_vec3 d) { return gjk_pair_point(p, d, false); }

/// The first search direction of a walk or a cast: from A's origin to B's, a
/// cheap guess at the separating axis, or x when they coincide. Scaled down
/// when its coordinates are near the largest finite numbers, where turning
/// it into B's frame would overflow and hand a user's support function a
/// direction that is not finite.
static inline gjk_vec3 gjk_pair_start_direction(const gjk_pair *p) {
    if (!(gjk_length_sq(p->pos_b) > 0)) {
        return gjk_v3(1, 0, 0);
    }
    gjk_real m = gjk_max_abs(p->pos_b);
    return m > GJK_SQUARE_MAX ? gjk_scale(1 / m, p->pos_b) : p->pos_b;
}

/// Absolute tolerance of the pair at the scale seen so far.
static inline gjk_real gjk_pair_tolerance(const gjk_pair *p) { return p->rel_tol * (p->scale + p->radius); }

/// The margin by which a bound on the distance proves the cores apart
/// beyond a threshold: the tolerance at the pair's scale (plus `extent`),
/// but never less than such a bound's own rounding there (a dot product of
/// points of that size: a few ε of it), whatever options.tolerance asks.
/// At a tolerance of 1e-160 the rounding of 1e11 on a bound from points of
/// a box 4.8e26 long passed for a proof, and a warm gjk_distance answered
/// "apart" with a zero normal for a ball inside the box (fuzz seed 925, the
/// class of f41).
static inline gjk_real gjk_pair_apart_margin(const gjk_pair *p, gjk_real extent) {
    return gjk_max(p->rel_tol, 4 * GJK_REAL_EPSILON) * (p->scale + extent + p->radius);
}

/// A simplex of 1 to 4 support points with the barycentric coordinates of
/// its point closest to the origin.
typedef struct gjk_simplex {
    int count;
    gjk_support_point v[4];
    gjk_real lambda[4];
} gjk_simplex;

/// True when w is already a point of the simplex (bit for bit).
static inline bool gjk_simplex_has(const gjk_simplex *s, gjk_vec3 w) {
    for (int m = 0; m < s->count; ++m) {
        if ((s->v[m].w.x == w.x) & (s->v[m].w.y == w.y) & (s->v[m].w.z == w.z)) {
            return true;
        }
    }
    return false;
}

/// Reduces the simplex to the smallest sub-simplex whose convex hull holds
/// the point of the simplex closest to the origin, sets the barycentric
/// coordinates and returns that point (signed volumes, simplex.c).
gjk_vec3 gjk_simplex_solve(gjk_simplex *s);

/// Adds q (s->count < 4) and solves, unless that makes no progress: when
/// the new simplex is not a tetrahedron and its closest point is not
/// strictly nearer than vv (the old squared distance), s is left unchanged
/// and false returned. Otherwise *v receives the new closest point. When a
/// tetrahedron is solved back to a face no nearer than vv and `farther` is
/// not NULL, *farther receives the simplex as it was before (gjk.c keeps
/// its least simplex so, paying a copy only when a stall begins).
bool gjk_simplex_try_add(gjk_simplex *s, const gjk_support_point *q, gjk_real vv, gjk_vec3 *v, gjk_simplex *farther);

/// A vector along v (the simplex's closest point, v ≠ 0), computed as
/// accurately as the simplex allows: the search direction of GJK.
gjk_vec3 gjk_simplex_direction(const gjk_simplex *s, gjk_vec3 v);

/// The triangle s->v[0..2] (whatever s->count) solved in its own frame, a
/// needle's (its longest edge's axis and the normal square to it), where
/// the usual solve's signed areas slide a needle's foot along it by
/// ε·L²/w (L its length, w its width) and may pick the wrong edge: true,
/// with s the answer's simplex (the triangle or an edge) and *v its
/// closest point; false, s unchanged, out of range. Asked where a walk
/// stalls on a segment (walk_end.c), which takes the answer only where it comes
/// nearer by more than the tolerance.
bool gjk_simplex_needle_solve(gjk_simplex *s, gjk_vec3 *v);

/// v, the solver's closest point Σ λ p of the simplex, or for a triangle
/// with the origin's foot inside it (all three weights positive) that foot
/// when it is nearer, its normal taken at its largest angle. The weights of
/// a sliver (a long edge and a short one, as a walk near contact on a
/// curved shape builds) carry errors of ε·|p|²/area, which Σ λ p turns
/// into an error along the plane of ε·|p|³/area: a sliver 2.2 long and
/// 5.8e-6 wide whose plane passed 4.6e-15 from the origin gave
/// |Σ λ p| = 1.3e-11 (fuzz finding f34). The foot is a vertex's offset along
/// the normal, accurate to ε·|p|. For the end of a walk that stalled.
gjk_vec3 gjk_simplex_polish(const gjk_simplex *s, gjk_vec3 v);

/// True when the simplex is a triangle and the tetrahedron of it and p
/// holds the origin strictly inside, each face's side taken with its normal
/// at its largest angle: a walk that stalls on a sliver (the tetrahedron's
/// solve loses the sign of the sliver's tiny sub-volume) still sees the
/// cores overlap.
bool gjk_simplex_encloses(const gjk_simplex *s, gjk_vec3 p);

/// The closest point of the triangle (p0, p1, p2) to the origin, with its
/// barycentric coordinates in lambda[3] (zero for unused vertices).
gjk_vec3 gjk_triangle_closest(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 p2, gjk_real lambda[3]);

/// Witness points of the simplex: Σ λ a and Σ λ b.
void gjk_simplex_witness(const gjk_simplex *s, gjk_vec3 *pa, gjk_vec3 *pb);

/// How a GJK walk ended.
typedef enum gjk_walk_end {
    GJK_WALK_CONVERGED,   ///< |v| is the core distance within tolerance (or a stall
                          ///< accepted as rounding, within eight: walk_end.c, gjk_walk_no_progress).
    GJK_WALK_APART,       ///< Proved the core distance exceeds walk.stop_beyond.
    GJK_WALK_WITHIN,      ///< Proved the core distance is below walk.stop_within.
    GJK_WALK_OVERLAP,     ///< The cores overlap or touch: |v| ≤ tolerance or a
                          ///< tetrahedron encloses the origin.
    GJK_WALK_MAX_ITER,    ///< Iteration cap.
    GJK_WALK_BAD_SUPPORT, ///< A support point was not finite.
} gjk_walk_end;

/// The state and answer of a GJK walk.
typedef struct gjk_walk {
    gjk_simplex simplex; ///< In: the starting simplex (count 0: start fresh). Out: the final one.
    gjk_vec3 v;          ///< Out: closest point of the simplex to the origin.
    gjk_real lower;      ///< Out: best lower bound on the core distance.
    gjk_real stop_beyond;///< In: stop once the core distance is proved > this (≤ 0: never).
    gjk_real stop_within;///< In: stop once the core distance is proved < this (≤ 0: never).
    bool stop_widen;     ///< In: both bounds widened by the pair's tolerance at each test
                         ///< (stop_beyond + tol, stop_within − tol); the tolerance grows
                         ///< with the points seen, so a fixed margin would be stale.
    int max_iterations;  ///< In.
    int iterations;      ///< Out: iterations of the walk's loop, one support point each (the
                         ///< stall handling's extra support points are not counted).
    int accelerated;     ///< Out: how many of them along a secant direction (gjk.c).
    bool polished;       ///< Out: v is gjk_simplex_polish's, not Σ λ p (gjk_walk_witness).
    /// Out: zero, or the unit normal (from A to B) of an apart end whose
    /// simplex direction is no normal (walk_end.c, excluded_enclosure_end), or of
    /// a walk stopped apart by a bound (its starting points' or a step's:
    /// that bound's direction, along which the gap is the bound).
    gjk_vec3 normal;
    /// Out: the direction (a support point's d) of the loop's best bound,
    /// walk->lower; zero before any.
    gjk_vec3 lower_dir;
} gjk_walk;

/// The witnesses of a walk's simplex (gjk_simplex_witness, a − b = Σ λ w),
/// shifted by half of (Σ λ w − v) each when the walk polished v, so that
/// they still differ by v: the distance and normal come from v.
void gjk_walk_witness(const gjk_walk *walk, gjk_vec3 *pa, gjk_vec3 *pb);

/// The lower bound on the cores' distance along d (D lies beyond the origin
/// along it: the simplex's direction) from one support call, d̂·s_D(−d);
/// −MAX when there is none (a zero direction, or a refused point, whose
/// flag is cleared: the answer stands without the check; EPA, which asks
/// again, reports it).
gjk_real gjk_pair_bound_along(gjk_pair *pair, gjk_vec3 d);

/// Which search directions a walk may use: besides the plain direction v,
/// secant steps (gjk.c, "Secant steps"; gjk2.c in 2D). The names are those
/// of the method the walks used before, Nesterov's momentum.
typedef enum gjk_walk_momentum {
    GJK_MOMENTUM_AUTO, ///< Accelerated when either core is curved (gjk_walk_run's choice).
    GJK_MOMENTUM_OFF,  ///< The plain direction v at every iteration.
    GJK_MOMENTUM_ON,   ///< Accelerated, whatever the shapes.
} gjk_walk_momentum;

/// Runs GJK on the pair's cores: gjk_walk_run_momentum with GJK_MOMENTUM_AUTO.
gjk_walk_end gjk_walk_run(gjk_pair *pair, gjk_walk *walk);

/// Runs GJK on the pair's cores with the given choice of search directions.
/// The stopping rules, and so the accuracy of the answer, do not depend on
/// it; only the support points asked for do.
gjk_walk_end gjk_walk_run_momentum(gjk_pair *pair, gjk_walk *walk, gjk_walk_momentum momentum);

/// The answer of EPA on the cores.
typedef struct gjk_epa_result {
    bool converged;     ///< False when the iteration cap was reached.
    bool deeper;        ///< Stopped early: the depth exceeds the caller's stop_depth.
    gjk_real depth;     ///< Penetration depth of the cores (≥ 0).
    gjk_vec3 normal;    ///< Unit, from A to B (A's frame).
    gjk_vec3 point_a;   ///< Deepest point of A's core (A's frame).
    gjk_vec3 point_b;   ///< Deepest point of B's core (A's frame).
    int iterations;
} gjk_epa_result;

/// Runs EPA from the final simplex of a walk that ended in GJK_WALK_OVERLAP.
/// With stop_depth > 0 it stops as soon as the depth is proved larger
/// (out->deeper: then the depth is the nearest face's distance, a lower
/// bound, and the witness points are not searched for: zero). When it
/// stops unconverged it reports its upper bound (a direction and overlap
/// that do separate the shapes). Returns false only when a support point
/// was not finite.
bool gjk_epa_run(gjk_pair *pair, const gjk_simplex *simplex, int max_iterations, gjk_real stop_depth,
                 gjk_epa_result *out);

/// A point core (a point or sphere) inside a solid hull polytope
/// (gjk_make_hull, not flat), either way round: the depth, normal and
/// witness points of the cores from the hull's face planes, exact to their
/// rounding (the nearest face plane; its foot lies on the face), written
/// over *out, which is then converged. False, *out untouched, for any other
/// pair, or when the point lies outside the hull by more than the pair's
/// tolerance (point_shape.c).
bool gjk_point_hull_depth(const gjk_pair *p, gjk_epa_result *out);

/// A point against a box, cylinder, cone, ellipsoid or triangle core, in
/// the core's local frame (point_shape.c).
typedef struct gjk_point_answer {
    gjk_real sd; ///< Signed distance of the point to the core (minus the depth inside).
    gjk_vec3 q;  ///< The core's boundary point nearest the point.
    gjk_vec3 u;  ///< The core's outward unit normal at q.
} gjk_point_answer;

/// The exponent k by which gjk_point_core takes its point scaled (p·2^−k,
/// exactly): by the size m of the point and the core together, so that the
/// squares stay in the normal range.
int gjk_point_core_shift(const gjk_shape *shape, gjk_real m);

/// The point p·2^−k (the core's local frame, k from gjk_point_core_shift)
/// against the core of `shape`: true with *out (unscaled) for a box,
/// cylinder, cone, ellipsoid or triangle core; false for any other type, a
/// cone of no size, an ellipsoid too flat for its iteration or a sliver of
/// a triangle. The shape is valid.
bool gjk_point_core(const gjk_shape *shape, gjk_vec3 p, gjk_real m, int k, gjk_point_answer *out);

/// gjk_point_core for the point `local` (the core's frame, unscaled),
/// scaled by gjk_point_core_shift for it (point_shape.c).
bool gjk_point_core_at(const gjk_shape *shape, gjk_vec3 local, gjk_point_answer *ans);

/// The depth of the point p (A's frame) inside B's core (b_side) or A's,
/// by its closed form (gjk_point_core): true with *depth > 0, the core's
/// nearest boundary point *q and its outward unit normal *u there (A's
/// frame). False outside, or for a core with no closed form
/// (point_shape.c).
bool gjk_pair_point_inside(const gjk_pair *pair, bool b_side, gjk_vec3 p, gjk_real *depth, gjk_vec3 *q, gjk_vec3 *u);

/// The scan routine this machine supports (scan.c): 1 when the CPU has AVX2
/// and gjk_real is double, else 0.
int gjk_hull_scan_kind(void);

/// A closed-form answer: two shapes whose cores are points or segments
/// (closed_form.c), or a point core against a box, cylinder, cone,
/// ellipsoid or triangle core (point_shape.c), in a frame with the world's
/// orientation whose origin is one of the shapes' positions.
typedef struct gjk_closed_answer {
    gjk_vec3 origin;  ///< The frame's origin (world): add it to reach world points.
    gjk_vec3 ca, cb;  ///< Closest points of the cores (inside: the point core and its nearest boundary point).
    gjk_vec3 n;       ///< Unit, from A to B.
    gjk_real core;    ///< Signed core distance: > tol for segments; minus the depth for a point core inside.
    gjk_real ra, rb;  ///< Rounding radii.
    gjk_real tol;     ///< Absolute tolerance of the pair.
    gjk_real inner_t; ///< core ≤ 0 only: the point core, a point of both shapes, is ca + inner_t·(cb − ca).
} gjk_closed_answer;

/// True with *s filled when both shapes are points, spheres, segments or
/// capsules, the input is valid and their cores are apart by more than the
/// tolerance; false otherwise (the general path then answers, and reports
/// invalid input) (closed_form.c). `in` and its shapes are not NULL (query.c
/// checks).
bool gjk_segment_closed_form(const gjk_query_input *in, gjk_closed_answer *s);

/// True with *s filled when one shape is a point or sphere and the other a
/// box, cylinder, cone, ellipsoid or triangle (either rounded) and the input
/// is valid; false otherwise (point_shape.c). `in` and its shapes are not NULL
/// (query.c checks).
bool gjk_point_closed_form(const gjk_query_input *in, gjk_closed_answer *s);

/// The shortest |L| of a separating axis L = e × f (e, f unit edge
/// directions) that two polytopes' axes keep (sat.c, sat_hull.c): L̂ is
/// about ε/|L| off in direction, so ε/|L| × scale ≤ tol / 2 with
/// tol = rel_tol × scale.
static inline gjk_real gjk_sat_min_edge_len(const gjk_pair *p) { return 2 * GJK_REAL_EPSILON / p->rel_tol; }

/// Whether an edge axis shorter than gjk_sat_min_edge_len, of squared
/// length len2, leaves the overlap open: parallel edges make no facet of D,
/// and edges parallel within the rounding of a rotation matrix (|L| ≤ 8ε,
/// such as a quarter turn's) count as parallel; between those and the
/// shortest kept, an axis left out might have separated the shapes.
static inline bool gjk_sat_left_out(gjk_real len2) { return len2 > 64 * GJK_REAL_EPSILON * GJK_REAL_EPSILON; }

/// Two boxes (p->a and p->b of type GJK_SHAPE_BOX): true with *status
/// GJK_SEPARATED or GJK_PENETRATING when their 15 separating axes show the
/// signed distance (rounding included) beyond ±band; false when it is
/// nearer than that to zero, or a nearly degenerate axis leaves it open
/// (sat.c).
bool gjk_box_box_decide(const gjk_pair *p, gjk_real band, gjk_status *status);

/// The signed distance answer of two boxes' cores, in A's frame.
typedef struct gjk_box_answer {
    gjk_vec3 a, b;     ///< Witness points of the cores: b − a = distance·normal.
    gjk_vec3 normal;   ///< Unit, from A to B.
    gjk_real distance; ///< Signed distance of the cores (negative: −depth).
} gjk_box_answer;

/// Two boxes (p->a and p->b of type GJK_SHAPE_BOX): true with *out filled
/// when their 15 separating axes show the signed distance of the rounded
/// boxes (rounding included) beyond ±band: overlapping cores when no axis
/// was left out as nearly degenerate, apart cores when the best axis is
/// reached by a pair of points (a face against a corner, edge or face, or
/// two edges) or a corner's nearest point is proved by the gap along it;
/// false otherwise (the general path then answers). tol: the pair's
/// absolute tolerance, which bounds the answer's rounding (sat.c).
bool gjk_box_box_signed(const gjk_pair *p, gjk_real tol, gjk_real band, gjk_box_answer *out);

/// A point common to both boxes (A's frame), within tol, from an answer of
/// gjk_box_box_signed with the cores overlapping (alternating projections
/// from its witness on A); false when four steps do not find one.
bool gjk_box_box_common(const gjk_pair *p, const gjk_box_answer *box, gjk_real tol, gjk_vec3 *point);

/// The most edge axes (the product of the two hulls' edge direction counts)
/// with which gjk_intersect takes two hulls' separating axes: beyond, GJK
/// decides overlapping pairs sooner (two octahedra, 36 edge axes: 601 ns
/// by GJK, 763 by the axes). gjk_penetration takes them up to 64 (all),
/// in place of EPA (two octahedra 4000 → 1675 ns).
#define GJK_HULL_SAT_MAX_EDGE_AXES 16

/// True when p->a and p->b are hull polytopes (gjk_make_hull) that keep
/// their edge directions, with at most max_edge_axes edge axes between
/// them, and the relative tolerance allows their faces' model (2^17 ε or
/// more): their separating axes may answer (sat_hull.c).
bool gjk_hull_hull_usable(const gjk_pair *p, int max_edge_axes);

/// The absolute tolerance of two such hulls at the whole pair's scale (the
/// walk's grows to about this as it sees points).
gjk_real gjk_hull_hull_tolerance(const gjk_pair *p);

/// Two usable hulls (gjk_hull_hull_usable): true with *status
/// GJK_SEPARATED or GJK_PENETRATING when their separating axes show the
/// signed distance of the rounded shapes beyond ±band; false when it is
/// nearer than that to zero, or a nearly degenerate axis leaves it open.
bool gjk_hull_hull_decide(const gjk_pair *p, gjk_real band, gjk_status *status);

/// Two usable hulls: true with *out (A's frame: the exact depth as −distance,
/// its normal and witness points) when the cores overlap with the rounded
/// shapes' signed distance below −band, no axis was left out, and the
/// witness points of the supporting features check; false otherwise (GJK
/// and EPA answer).
bool gjk_hull_hull_signed(const gjk_pair *p, gjk_real tol, gjk_real band, gjk_box_answer *out);

/// Two solids of revolution (cylinders, cones, capsules, segments, and
/// ellipsoids with two equal radii) whose axes are parallel within
/// rounding: true with *out (the cores' signed distance, normal and witness
/// points, A's frame) when the 2D penetration query on their sections in
/// the plane of both axes answers, with the rounded shapes' signed distance
/// beyond ±band; *iterations and *epa_iterations are its own (axial.c).
/// False for every other pair, which GJK and EPA answer. tol: the pair's
/// absolute tolerance, which bounds the error of axes parallel only within
/// rounding.
bool gjk_axial_signed(const gjk_pair *p, const gjk_options *o, gjk_real tol, gjk_real band, gjk_box_answer *out,
                      int *iterations, int *epa_iterations);

/// The penetration query that may stop once the shapes are proved farther
/// apart than max_distance (> 0; 0: never), returning GJK_SEPARATED with a
/// lower bound on the distance: the first step of the contact manifold,
/// which needs nothing of pairs beyond its speculative distance (query.c).
gjk_penetration_output gjk_penetration_bounded(const gjk_query_input *input, gjk_simplex_cache *cache,
                                               gjk_real max_distance);

#endif // GJK_INTERNAL_H
