// The 2D GJK walk: a simplex inside the Minkowski difference D = A − B of
// the two cores moves toward the origin. The twin of gjk.c, with the same
// bounds and stopping rules: with v the point of the simplex closest to the
// origin and w = s_D(−v) the support point against it,
//   upper bound on the distance: |v|;
//   lower bound:                 v·w / |v|;
// the walk stops when the two bounds are within the absolute tolerance, when
// w adds nothing new, when |v| stops decreasing (rounding), when the origin
// lies in the simplex (a triangle encloses it), or when a caller's
// early-exit bound is proved. One difference from gjk.c: when it stops on
// the bounds or on rounding, the last support point is still added if it
// turns the simplex into an edge of D with the closest point inside, since
// the answer's normal is then the edge's exact perpendicular rather than
// the direction of a vertex that is only within tolerance of the edge (in
// float that was a normal off by 3e-4 rad next to a long edge).
//
// Momentum: as in gjk.c (Nesterov's, after Montaut et al., GJK++, IEEE T-RO
// 2024), for pairs with an ellipse or a custom core on either side, inside
// the same zone of distances (a hundredth to half of the shapes' reach) and
// with the same safeguards: a momentum point that proves nothing is asked
// again along v and momentum is dropped for good, and only a plain step ends
// the walk, so the answer is certified as before.
#include "internal2.h"

static void trace_iteration(const gjk2_pair *pair, const gjk2_walk *walk, gjk_vec2 d, gjk_vec2 w) {
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_GJK;
    ev.iteration = walk->iterations;
    ev.simplex_count = walk->simplex.count;
    for (int m = 0; m < walk->simplex.count; ++m) {
        ev.simplex[m] = gjk2_trace_point(pair, walk->simplex.v[m].w);
    }
    ev.closest = gjk2_trace_point(pair, walk->v);
    ev.direction = gjk2_trace_point(pair, gjk_neg2(d));
    ev.support = gjk2_trace_point(pair, w);
    ev.lower = walk->lower;
    ev.upper = gjk_length2(walk->v);
    pair->trace(pair->trace_data, &ev);
}

/// True when `lower`, the starting points' bound, proves the cores farther
/// apart than walk->stop_beyond, beyond the tolerance at the scale seen so
/// far (the bound's rounding grows with the points' coordinates: f41 in 3D,
/// gjk.c). With stop_widen the margin is the tolerance at the shapes' whole
/// extent, not at the scale of the few points seen so far: pairs that touch
/// within the tolerance the full walk would reach must not be called apart
/// here (the queries must agree on the status).
static bool start_apart(const gjk2_pair *pair, const gjk2_walk *walk, gjk_real lower) {
    if (!(lower > walk->stop_beyond)) {
        return false; // the cheap test first: widening only raises the bar
    }
    if (!walk->stop_widen) {
        return walk->stop_beyond > 0 && lower > walk->stop_beyond + gjk2_pair_apart_margin(pair, 0);
    }
    gjk_real extent = gjk2_shape_bound(pair->a) + gjk2_shape_bound(pair->b);
    gjk_real beyond = walk->stop_beyond + gjk2_pair_apart_margin(pair, extent);
    return beyond > 0 && lower > beyond;
}

/// True when the shape's core is strictly convex as far as its type tells:
/// an ellipse, or a user shape (taken as curved).
static bool core_round(const gjk2_shape *shape) {
    return shape->type == GJK2_SHAPE_ELLIPSE || shape->type == GJK2_SHAPE_CUSTOM;
}

#if defined(__GNUC__) || defined(__clang__)
#define WALK_INLINE static inline __attribute__((always_inline))
#else
#define WALK_INLINE static inline
#endif

/// walk_loop's answer when momentum is dropped: go on with the plain loop.
#define WALK_GO_PLAIN (-1)

/// The walk from the simplex's closest point *v, written once and compiled
/// plain (momentum false) and with momentum, as in gjk.c.
WALK_INLINE int walk_loop(gjk2_pair *pair, gjk2_walk *walk, gjk_vec2 *v_io, const bool momentum) {
    gjk2_simplex *s = &walk->simplex;
    gjk_vec2 v = *v_io;
    gjk_real vv = gjk_length_sq2(v);
    // Momentum state (see gjk.c): the step count, the last direction and
    // support point, and the shapes' reach that sets momentum's zone.
    int k = 0;
    gjk_vec2 d_prev = v, w_prev = v;
    gjk_real reach = momentum ? gjk2_shape_size(pair->a) + gjk2_shape_size(pair->b) : 0;
    for (;;) {
        walk->v = v;
        if (!(vv <= GJK_REAL_MAX)) {
            // |v|² overflowed (finite coordinates above √GJK_REAL_MAX): the
            // walk's lengths and bounds would be infinite, its search
            // direction too. Reported as an overflow, as a non-finite
            // support point is (the queries answer GJK_INVALID_INPUT).
            pair->bad_support = true;
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real tol = gjk2_pair_tolerance(pair);
        gjk_real vlen = gjk_sqrt(vv);
        if (s->count == 3 || vlen <= tol) {
            return GJK_WALK_OVERLAP;
        }
        gjk_real within = walk->stop_widen ? walk->stop_within - tol : walk->stop_within;
        if (within > 0 && vlen < within) {
            return GJK_WALK_WITHIN;
        }
        if (walk->iterations >= walk->max_iterations) {
            return GJK_WALK_MAX_ITER;
        }
        if (momentum && (walk->lower >= GJK_R(0.5) * reach || vlen <= GJK_R(0.01) * reach)) {
            // Out of momentum's zone for good (see gjk.c).
            *v_io = v;
            return WALK_GO_PLAIN;
        }
        ++walk->iterations;

        gjk_real gap_before = vlen - walk->lower;
        gjk_vec2 d = v;
        bool boost = false;
        if (momentum && k > 0 && walk->lower > GJK_R(0.01) * reach) {
            gjk_real delta = (gjk_real)(k + 1) / (gjk_real)(k + 3);
            gjk_vec2 y = gjk_add2(gjk_scale2(delta, v), gjk_scale2(1 - delta, w_prev));
            d = gjk_add2(gjk_scale2(delta, d_prev), gjk_scale2(1 - delta, y));
            // d is, up to rounding, a point of D: |d| ≥ the distance > 0.
            boost = gjk_length_sq2(d) > tol * tol;
        }
        if (!boost) {
            d = gjk2_simplex_direction(s, v);
        }
        gjk2_support_point p = gjk2_pair_support(pair, gjk_neg2(d));
        if (pair->bad_support) {
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real lower = gjk_dot2(d, p.w) / gjk_length2(d);
        if (lower > walk->lower) {
            walk->lower = lower;
        }
        if (pair->trace != NULL) {
            trace_iteration(pair, walk, d, p.w);
        }
        // Apart beyond stop_beyond by more than the tolerance at the scale
        // that includes the new point (see start_apart).
        gjk_real beyond = walk->stop_beyond + gjk2_pair_apart_margin(pair, 0);
        if ((walk->stop_widen || walk->stop_beyond > 0) && walk->lower > beyond) {
            return GJK_WALK_APART;
        }
        // Duality gap |v| − v̂·w, measured against the tolerance at the
        // scale that includes the new point.
        tol = gjk2_pair_tolerance(pair);
        gjk_vec2 v_new;
        gjk_real vv_new;
        if (boost) {
            ++walk->accelerated;
            // Within the tolerance (by d's bound or the plain test's gap at
            // w), already in the simplex, or no progress: plain steps from
            // here on, the next along v from the same simplex.
            if (vlen - lower <= tol || vlen - gjk_dot2(v, p.w) / vlen <= tol || gjk2_simplex_has(s, p.w)) {
                *v_io = v;
                return WALK_GO_PLAIN;
            }
            gjk2_simplex saved = *s;
            s->v[s->count++] = p;
            v_new = gjk2_simplex_solve(s);
            vv_new = gjk_length_sq2(v_new);
            if (s->count < 3 && vv_new >= vv) {
                *s = saved;
                *v_io = v;
                return WALK_GO_PLAIN;
            }
            // Kept while it shrinks the duality gap by a fifth per step.
            if (gjk_sqrt(vv_new) - walk->lower > GJK_R(0.8) * gap_before) {
                *v_io = v_new;
                return WALK_GO_PLAIN;
            }
        } else {
            if (gjk2_simplex_has(s, p.w)) {
                return GJK_WALK_CONVERGED;
            }
            bool done = vlen - lower <= tol;

            gjk2_simplex saved = *s;
            s->v[s->count++] = p;
            v_new = gjk2_simplex_solve(s);
            vv_new = gjk_length_sq2(v_new);
            if (s->count < 3 && vv_new >= vv) {
                // No progress: rounding has taken over. An edge with the closest
                // point inside is as close as the old simplex (it contains or
                // extends it) and gives the exact direction, its perpendicular:
                // keep it. Otherwise keep the old simplex.
                if (s->count == 2) {
                    walk->v = v_new;
                } else {
                    *s = saved;
                }
                return GJK_WALK_CONVERGED;
            }
            if (done) {
                // The distance is known within the tolerance, but the last point
                // still sharpens the simplex: a vertex that stopped within the
                // tolerance of an edge of D gives the edge's direction only to
                // about √(2·tol/|v|), the edge itself exactly. Keep it unless
                // the simplex would enclose the origin (only by rounding).
                if (s->count == 3) {
                    *s = saved;
                } else {
                    walk->v = v_new;
                }
                return GJK_WALK_CONVERGED;
            }
        }
        if (momentum) {
            ++k;
            d_prev = boost ? d : v;
            w_prev = p.w;
        }
        v = v_new;
        vv = vv_new;
    }
}

gjk_walk_end gjk2_walk_run(gjk2_pair *pair, gjk2_walk *walk) {
    return gjk2_walk_run_momentum(pair, walk, GJK_MOMENTUM_AUTO);
}

gjk_walk_end gjk2_walk_run_momentum(gjk2_pair *pair, gjk2_walk *walk, gjk_walk_momentum momentum) {
    gjk2_simplex *s = &walk->simplex;
    walk->iterations = 0;
    walk->accelerated = 0;
    walk->lower = 0;

    if (s->count == 0) {
        // Start from a point of D: the support against the direction from
        // A's origin to B's origin, a cheap guess at the separating axis.
        s->v[0] = gjk2_pair_support(pair, gjk2_pair_start_direction(pair));
        s->count = 1;
    }
    // The starting points' support planes bound the distance from below,
    // as in 3D (gjk.c): far apart shapes are proved apart at once.
    gjk_real start_lower = 0;
    for (int m = 0; m < s->count; ++m) {
        gjk_real dd = gjk_length_sq2(s->v[m].d);
        if (dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX) {
            start_lower = gjk_max(-gjk_dot2(s->v[m].d, s->v[m].w) / gjk_sqrt(dd), start_lower);
        }
    }
    gjk_vec2 v = gjk2_simplex_solve(s);
    if (pair->bad_support) {
        return GJK_WALK_BAD_SUPPORT;
    }
    // The walk itself starts its bound from 0: momentum's zone (above) is
    // measured on the bounds of its own steps.
    if (start_apart(pair, walk, start_lower)) {
        walk->v = v;
        walk->lower = start_lower;
        return GJK_WALK_APART;
    }
    if (momentum == GJK_MOMENTUM_ON || (momentum == GJK_MOMENTUM_AUTO && (core_round(pair->a) || core_round(pair->b)))) {
        int end = walk_loop(pair, walk, &v, true);
        if (end != WALK_GO_PLAIN) {
            return (gjk_walk_end)end;
        }
    }
    return (gjk_walk_end)walk_loop(pair, walk, &v, false);
}
