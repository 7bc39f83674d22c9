// Private declarations shared by the 2D query files: the pair of shapes in
// A's frame, the simplex, the GJK walk and EPA. The 2D twin of internal.h;
// the walk ends in the same ways (gjk_walk_end).
#ifndef GJK_INTERNAL2_H
#define GJK_INTERNAL2_H

#include <stddef.h>

#include "internal.h"
#include "support2.h"

/// True when the shape's parameters are valid; with every_vertex false a
/// polygon's vertices past the first are not read (shape2.c).
bool gjk2_shape_check(const gjk2_shape *shape, bool every_vertex);

/// A cheap estimate of the shape's extent in its local frame (shape2.c).
gjk_real gjk2_shape_size(const gjk2_shape *shape);

/// Two shapes set up for one query, everything in A's local frame: B's pose
/// relative to A is computed once (see gjk_pair).
typedef struct gjk2_pair {
    const gjk2_shape *a;
    const gjk2_shape *b;
    gjk_rot2 rot_b;   ///< B's rotation in A's frame.
    gjk_vec2 pos_b;   ///< B's origin in A's frame.
    gjk_real radius;  ///< Sum of the two rounding radii.
    gjk_real rel_tol; ///< Relative tolerance.
    gjk_real scale;   ///< Length scale seen so far (grows as points are seen).
    bool bad_support; ///< A support point was not finite.
    int hint_a, hint_b; ///< Last support vertices of convex polygons (−1: none; gjk2_support_climb).
    gjk_rot2 rot_a;   ///< A's rotation, to report trace points in world orientation.
    gjk_trace_fn trace;
    void *trace_data;
} gjk2_pair;

/// A point of the Minkowski difference of the cores, w = a − b, with the
/// points of A and of B (both in A's frame) that made it.
typedef struct gjk2_support_point {
    gjk_vec2 w, a, b;
    gjk_vec2 d; ///< The direction (A's frame) it is the support point for.
    int ia, ib; ///< The pair's hints after the call: for a climbing convex polygon the vertex that gave a (b).
} gjk2_support_point;

/// max(|x|, |y|): the 2D twin of gjk_max_abs.
static inline gjk_real gjk2_max_abs(gjk_vec2 v) { return gjk_max(gjk_abs(v.x), gjk_abs(v.y)); }

/// True when the transform's numbers are finite and its rotation (c, s) non-zero.
bool gjk2_transform_valid(gjk_transform2 t);

/// (c, s) scaled to unit length by dividing by the larger first, so that
/// tiny or huge pairs neither underflow nor overflow when squared ((c, s)
/// finite and not zero; pair2.c).
gjk_rot2 gjk2_rot2_normalize_slow(gjk_rot2 r);

/// gjk2_transform_valid(*t) with the common case in one test: a squared
/// norm c² + s² inside the normal range means finite, non-zero (c, s).
static inline bool gjk2_transform_check(const gjk_transform2 *t) {
    gjk_real s2 = t->rotation.c * t->rotation.c + t->rotation.s * t->rotation.s;
    if (s2 > GJK_SQUARE_MIN && s2 < GJK_SQUARE_MAX) {
        return gjk_is_valid_vec2(t->position);
    }
    return gjk2_transform_valid(*t);
}

/// True when gjk2_transform_valid(*t); *unit then receives *t with its
/// rotation normalised, from the same squared norm as the check (the 2D
/// twin of gjk_transform_unit). Inline: every query starts here.
static inline bool gjk2_transform_unit(const gjk_transform2 *t, gjk_transform2 *unit) {
    gjk_rot2 r = t->rotation;
    unit->position = t->position;
    gjk_real s2 = r.c * r.c + r.s * r.s;
    if (s2 > GJK_SQUARE_MIN && s2 < GJK_SQUARE_MAX) {
        gjk_real k = gjk_inv_sqrt_rotation(s2);
        unit->rotation.c = k * r.c;
        unit->rotation.s = k * r.s;
        return gjk_is_valid_vec2(t->position);
    }
    if (!gjk2_transform_valid(*t)) {
        return false;
    }
    unit->rotation = gjk2_rot2_normalize_slow(r);
    return true;
}

/// Checks two shapes and their transforms and sets up the pair in A's frame;
/// *xa receives A's transform with its rotation normalised (pair2.c). The
/// options are checked by the caller (gjk_options_valid).
bool gjk2_pair_init(gjk2_pair *p, const gjk2_shape *a, const gjk_transform2 *transform_a, const gjk2_shape *b,
                    const gjk_transform2 *transform_b, const gjk_options *o, gjk_transform2 *xa);

/// A bound on |p| over the shape, rounding included, in its local frame
/// (shape2.c). Reads every vertex of a polygon.
gjk_real gjk2_shape_bound(const gjk2_shape *shape);

/// gjk2_shape_bound without the rounding: a bound on |p| over the core.
gjk_real gjk2_shape_core_bound(const gjk2_shape *shape);

/// gjk_cast_start_status in 2D, by gjk2_intersect (cast2.c).
gjk_status gjk2_cast_start_status(const gjk2_query_input *q, gjk_status pen);

/// A 2D cast answer, or GJK_INVALID_INPUT with every number zero when finite
/// inputs overflowed on the way.
static inline gjk2_cast_output gjk2_cast_finite(gjk2_cast_output o) {
    if (!gjk_is_valid_real(o.t) || !gjk_is_valid_vec2(o.point) || !gjk_is_valid_vec2(o.normal)) {
        gjk2_cast_output zero = {GJK_INVALID_INPUT, false, 0, {0, 0}, {0, 0}, 0};
        return zero;
    }
    return o;
}

/// Support of the difference of the cores along d (A's frame), d ≠ 0.
static GJK_INLINE gjk2_support_point gjk2_pair_support(gjk2_pair *p, gjk_vec2 d) {
    gjk2_support_point s;
    s.d = d;
    s.a = gjk2_core_support_hint(p->a, d, &p->hint_a);
    gjk_vec2 lb = gjk2_core_support_hint(p->b, gjk_rot2_inv_apply(p->rot_b, gjk_neg2(d)), &p->hint_b);
    s.ia = p->hint_a;
    s.ib = p->hint_b;
    s.b = gjk_add2(gjk_rot2_apply(p->rot_b, lb), p->pos_b);
    s.w = gjk_sub2(s.a, s.b);
    // Test every component: a max of |x| and |y| would drop a NaN (every
    // comparison with NaN is false).
    gjk_real m = gjk2_max_abs(s.w);
    if (!gjk_is_valid_vec2(s.w) || m > GJK_POINT_MAX) {
        // NaN, infinite or beyond GJK_POINT_MAX: flag it and return
        // something finite.
        p->bad_support = true;
        s.a = s.b = s.w = s.d = gjk_v2(0, 0);
    } else if (m > p->scale) {
        p->scale = m;
    }
    return s;
}

/// The first search direction of a walk or a cast, as in 3D
/// (gjk_pair_start_direction): from A's origin to B's, or x when they
/// coincide, scaled down near the largest finite numbers.
static inline gjk_vec2 gjk2_pair_start_direction(const gjk2_pair *p) {
    if (!(gjk_length_sq2(p->pos_b) > 0)) {
        return gjk_v2(1, 0);
    }
    gjk_real m = gjk2_max_abs(p->pos_b);
    return m > GJK_SQUARE_MAX ? gjk_scale2(1 / m, p->pos_b) : p->pos_b;
}

/// Absolute tolerance of the pair at the scale seen so far.
static inline gjk_real gjk2_pair_tolerance(const gjk2_pair *p) { return p->rel_tol * (p->scale + p->radius); }

/// gjk_pair_apart_margin (internal.h) in 2D.
static inline gjk_real gjk2_pair_apart_margin(const gjk2_pair *p, gjk_real extent) {
    return gjk_max(p->rel_tol, 4 * GJK_REAL_EPSILON) * (p->scale + extent + p->radius);
}

/// A 2D vector as a trace point: rotated to world orientation, z = 0.
static inline gjk_vec3 gjk2_trace_point(const gjk2_pair *p, gjk_vec2 v) {
    gjk_vec2 r = gjk_rot2_apply(p->rot_a, v);
    return gjk_v3(r.x, r.y, 0);
}

/// A simplex of 1 to 3 support points with the barycentric coordinates of
/// its point closest to the origin.
typedef struct gjk2_simplex {
    int count;
    gjk2_support_point v[3];
    gjk_real lambda[3];
} gjk2_simplex;

/// True when w is already a point of the simplex (bit for bit).
static inline bool gjk2_simplex_has(const gjk2_simplex *s, gjk_vec2 w) {
    for (int m = 0; m < s->count; ++m) {
        if ((s->v[m].w.x == w.x) & (s->v[m].w.y == w.y)) {
            return true;
        }
    }
    return false;
}

/// Reduces the simplex to the smallest sub-simplex whose convex hull holds
/// the point of the simplex closest to the origin, sets the barycentric
/// coordinates and returns that point (signed volumes, simplex2.c):
/// gjk2_simplex_closest, then gjk2_simplex_keep.
gjk_vec2 gjk2_simplex_solve(gjk2_simplex *s);

/// The smallest sub-simplex holding the simplex's point closest to the
/// origin: which vertices remain (increasing indices), their weights, the
/// point and its squared distance to the origin.
typedef struct gjk2_simplex_answer {
    int count;
    int index[3];
    gjk_real lambda[3];
    gjk_vec2 point;
    gjk_real dist2;
} gjk2_simplex_answer;

/// Solves the simplex without changing it, so that a caller may still
/// drop the answer and keep the simplex as it was (simplex2.c).
void gjk2_simplex_closest(const gjk2_simplex *s, gjk2_simplex_answer *r);

/// Reduces the simplex to the answer's vertices and weights (simplex2.c).
void gjk2_simplex_keep(gjk2_simplex *s, const gjk2_simplex_answer *r);

/// A vector along v (the simplex's closest point, v ≠ 0), computed as
/// accurately as the simplex allows: the search direction of GJK.
gjk_vec2 gjk2_simplex_direction(const gjk2_simplex *s, gjk_vec2 v);

/// The closest point of the segment (p0, p1) to the origin, with its
/// barycentric coordinates in lambda[2] (zero for an unused vertex).
gjk_vec2 gjk2_segment_closest(gjk_vec2 p0, gjk_vec2 p1, gjk_real lambda[2]);

/// Witness points of the simplex: Σ λ a and Σ λ b.
void gjk2_simplex_witness(const gjk2_simplex *s, gjk_vec2 *pa, gjk_vec2 *pb);

/// The state and answer of a 2D GJK walk (see gjk_walk). It ends in
/// GJK_WALK_OVERLAP when |v| ≤ tolerance or a triangle encloses the origin.
typedef struct gjk2_walk {
    gjk2_simplex simplex; ///< In: the starting simplex (count 0: start fresh). Out: the final one.
    gjk_vec2 v;           ///< Out: closest point of the simplex to the origin.
    gjk_real lower;       ///< Out: best lower bound on the core distance.
    /// Out: a walk stopped apart by a bound (its starting points' or a
    /// step's), or one that ended at a single vertex whose direction
    /// rounding leaves less sure than its last step's (vertex_normal): that
    /// bound's unit direction from A to B (else zero).
    gjk_vec2 normal;
    gjk_real stop_beyond; ///< In: stop once the core distance is proved > this (≤ 0: never).
    gjk_real stop_within; ///< In: stop once the core distance is proved < this (≤ 0: never).
    bool stop_widen;      ///< In: both bounds widened by the pair's tolerance at each test
                          ///< (stop_beyond + tol, stop_within − tol); the tolerance grows
                          ///< with the points seen, so a fixed margin would be stale.
    int max_iterations;   ///< In.
    int iterations;       ///< Out: support points asked for.
    int accelerated;      ///< Out: how many of them along a secant direction (gjk2.c).
} gjk2_walk;

/// Runs GJK on the pair's cores (gjk2.c): gjk2_walk_run_momentum with
/// GJK_MOMENTUM_AUTO.
gjk_walk_end gjk2_walk_run(gjk2_pair *pair, gjk2_walk *walk);

/// Runs GJK on the pair's cores with the given choice of search directions
/// (gjk2.c, as gjk_walk_run_momentum): the stopping rules, and so the
/// answer's accuracy, do not depend on it.
gjk_walk_end gjk2_walk_run_momentum(gjk2_pair *pair, gjk2_walk *walk, gjk_walk_momentum momentum);

/// The answer of 2D EPA on the cores.
typedef struct gjk2_epa_result {
    bool converged;   ///< False when the iteration cap was reached.
    bool deeper;      ///< Stopped early: the depth exceeds the caller's stop_depth.
    gjk_real depth;   ///< Penetration depth of the cores (≥ 0).
    gjk_vec2 normal;  ///< Unit, from A to B (A's frame).
    gjk_vec2 point_a; ///< Deepest point of A's core (A's frame).
    gjk_vec2 point_b; ///< Deepest point of B's core (A's frame).
    int iterations;
} gjk2_epa_result;

/// Runs EPA from the final simplex of a walk that ended in GJK_WALK_OVERLAP
/// (epa2.c). Returns false only when a support point was not finite.
bool gjk2_epa_run(gjk2_pair *pair, const gjk2_simplex *simplex, int max_iterations, gjk_real stop_depth,
                  gjk2_epa_result *out);

/// A closed-form 2D answer for two shapes whose cores are points or
/// segments, in a frame with A's origin at zero and the world's orientation.
typedef struct gjk2_segment_answer {
    gjk_vec2 origin;  ///< A's position (world): add it to reach world points.
    gjk_vec2 ca, cb;  ///< Closest points of the cores.
    gjk_vec2 n;       ///< Unit, from A to B.
    gjk_real core;    ///< Core distance (> tol).
    gjk_real ra, rb;  ///< Rounding radii.
    gjk_real tol;     ///< Absolute tolerance of the pair.
} gjk2_segment_answer;

/// True with *s filled when both shapes are points, circles, segments or
/// capsules, the input is valid and their cores are apart by more than the
/// tolerance; false otherwise (the general path then answers, and reports
/// invalid input) (closed_form2.c). `in` and its shapes are not NULL, and
/// the query is not traced (query2.c checks: a traced query's events show
/// the walk).
bool gjk2_segment_closed_form(const gjk2_query_input *in, gjk2_segment_answer *s);

/// The penetration query that may stop once the shapes are proved farther
/// apart than max_distance (> 0; 0: never), returning GJK_SEPARATED with a
/// lower bound on the distance: the first step of the contact manifold,
/// which needs nothing of pairs beyond its speculative distance (query2.c).
gjk2_penetration_output gjk2_penetration_bounded(const gjk2_query_input *input, gjk2_simplex_cache *cache,
                                               gjk_real max_distance);

/// The signed distance answer of two boxes' cores, in A's frame.
typedef struct gjk2_box_answer {
    gjk_vec2 a, b;     ///< Witness points of the cores: b − a = distance·normal.
    gjk_vec2 normal;   ///< Unit, from A to B.
    gjk_real distance; ///< Signed distance of the cores (negative: −depth).
} gjk2_box_answer;

/// Two boxes (p->a and p->b of type GJK2_SHAPE_BOX): true with *status
/// GJK_SEPARATED or GJK_PENETRATING when their four separating axes show
/// the signed distance beyond ±band; false when it is nearer than that to
/// zero (sat2.c).
bool gjk2_box_box_decide(const gjk2_pair *p, gjk_real band, gjk_status *status);

/// Two boxes: true with *out filled when their four separating axes show
/// the signed distance of the rounded boxes (rounding included) beyond
/// ±band, the cores overlapping, or apart with the best axis reached by a
/// pair of points or two corners proved nearest by the gap along them;
/// false otherwise (the general path then answers). tol: the pair's
/// absolute tolerance (sat2.c).
bool gjk2_box_box_signed(const gjk2_pair *p, gjk_real tol, gjk_real band, gjk2_box_answer *out);

/// A point common to both boxes (A's frame), within tol, from an answer of
/// gjk2_box_box_signed with the cores overlapping; false when four steps
/// of alternating projections do not find one.
bool gjk2_box_box_common(const gjk2_pair *p, const gjk2_box_answer *box, gjk_real tol, gjk_vec2 *point);

/// A convex polygon as sat_polygon2.c sees one: its vertices in
/// counter-clockwise order, in its shape's frame. Points into the shape's
/// own array, or into `own` (a box's, a triangle's or a segment's): fill it
/// where it stays, and do not copy it.
typedef struct gjk2_polygon_view {
    const gjk_vec2 *v;
    int n;
    gjk_real extent; ///< The largest |coordinate| of a vertex (gjk2_polygon_view_measure).
    gjk_real reach;  ///< The largest |vertex| (gjk2_polygon_view_measure).
    gjk_vec2 own[4];
} gjk2_polygon_view;

/// The polygon view of a convex polygon (gjk2_make_convex_polygon), a box,
/// a triangle whose orientation is sure, or a segment's or capsule's core of
/// nonzero length; false for every other shape (sat_polygon2.c). Reads no
/// vertex of a polygon: its extent and reach are left to
/// gjk2_polygon_view_measure.
bool gjk2_polygon_view_of(const gjk2_shape *shape, gjk2_polygon_view *view);

/// Sets the view's extent and reach (one pass over its vertices).
void gjk2_polygon_view_measure(gjk2_polygon_view *view);

/// Two polygon views (A's and B's, the pair's shapes): true with *status
/// GJK_SEPARATED or GJK_PENETRATING when their edges' separating axes show
/// the signed distance beyond ±band; false when it is nearer than that to
/// zero.
bool gjk2_polygon_decide(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b,
                         gjk_real band, gjk_status *status);

/// Two polygon views: true with *out filled (the cores' answer, as
/// gjk2_box_box_signed's) when the rounded shapes' signed distance is beyond
/// ±band and the cores either overlap (their depth, with the deepest points
/// as witnesses) or are apart with the best axis reached by a pair of
/// points; false otherwise. tol: the pair's absolute tolerance. With
/// beyond > 0 (a penetration query's options.max_distance), rounded shapes
/// whose separation along an axis exceeds beyond + band are answered at
/// the first such axis: out->distance is that separation, a lower bound on
/// the cores' distance, with a point of each core as witnesses.
bool gjk2_polygon_signed(const gjk2_pair *p, const gjk2_polygon_view *a, const gjk2_polygon_view *b, gjk_real tol,
                         gjk_real band, gjk_real beyond, gjk2_box_answer *out);

#endif // GJK_INTERNAL2_H
