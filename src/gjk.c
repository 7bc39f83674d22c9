// The GJK walk: a simplex inside the Minkowski difference D = A − B of the
// two cores moves toward the origin.
//
// Gilbert, Johnson and Keerthi (1988); stopping rules after van den Bergen
// (1999) and Montanari et al. (2017). With v the point of the simplex closest
// to the origin and w = s_D(−v) the support point against it:
//   upper bound on the distance: |v|;
//   lower bound:                 v·w / |v| (the plane through w normal to v
//                                separates D from the origin when v·w > 0);
// the walk stops when the two bounds are within the absolute tolerance, when
// w adds nothing new, when |v| stops decreasing (rounding), when the origin
// lies in the simplex, or when a caller's early-exit bound is proved.
#include "internal.h"

static bool simplex_has(const gjk_simplex *s, gjk_vec3 w) {
    for (int m = 0; m < s->count; ++m) {
        if ((s->v[m].w.x == w.x) & (s->v[m].w.y == w.y) & (s->v[m].w.z == w.z)) {
            return true;
        }
    }
    return false;
}

static void trace_iteration(const gjk_pair *pair, const gjk_walk *walk, gjk_vec3 d, gjk_vec3 w) {
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_GJK;
    ev.iteration = walk->iterations;
    ev.simplex_count = walk->simplex.count;
    for (int m = 0; m < walk->simplex.count; ++m) {
        ev.simplex[m] = gjk_mat3_mul(pair->rot_a, walk->simplex.v[m].w);
    }
    ev.closest = gjk_mat3_mul(pair->rot_a, walk->v);
    ev.direction = gjk_mat3_mul(pair->rot_a, gjk_neg(d));
    ev.support = gjk_mat3_mul(pair->rot_a, w);
    ev.lower = walk->lower;
    ev.upper = gjk_length(walk->v);
    pair->trace(pair->trace_data, &ev);
}

/// True when the starting points prove the cores farther apart than
/// walk->stop_beyond. With stop_widen the margin is the tolerance at the
/// shapes' whole extent, not at the scale of the few points seen so far:
/// pairs that touch within the tolerance the full walk would reach must
/// not be called apart here (the queries must agree on the status).
static bool start_apart(const gjk_pair *pair, const gjk_walk *walk) {
    if (!(walk->lower > walk->stop_beyond)) {
        return false; // the cheap test first: widening only raises the bar
    }
    if (!walk->stop_widen) {
        return walk->stop_beyond > 0;
    }
    gjk_real extent = gjk_shape_bound(pair->a) + gjk_shape_bound(pair->b);
    gjk_real beyond = walk->stop_beyond + pair->rel_tol * (pair->scale + extent + pair->radius);
    return beyond > 0 && walk->lower > beyond;
}

gjk_walk_end gjk_walk_run(gjk_pair *pair, gjk_walk *walk) {
    gjk_simplex *s = &walk->simplex;
    walk->iterations = 0;
    walk->lower = 0;

    if (s->count == 0) {
        // Start from a point of D: the support against the direction from
        // A's origin to B's origin, a cheap guess at the separating axis.
        gjk_vec3 d = pair->pos_b;
        if (!(gjk_length_sq(d) > 0)) {
            d = gjk_v3(1, 0, 0);
        }
        s->v[0] = gjk_pair_support(pair, d);
        s->count = 1;
    }
    // Each starting point w is D's support point along its direction d, so
    // D lies behind the plane d̂·x = d̂·w: the origin is at least −d̂·w from
    // D. Far apart shapes are often proved apart here, by the first support
    // call, one iteration early (the test MPR starts with).
    for (int m = 0; m < s->count; ++m) {
        gjk_real dd = gjk_length_sq(s->v[m].d);
        if (dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX) {
            walk->lower = gjk_max(-gjk_dot(s->v[m].d, s->v[m].w) / gjk_sqrt(dd), walk->lower);
        }
    }
    gjk_vec3 v = gjk_simplex_solve(s);
    if (pair->bad_support) {
        return GJK_WALK_BAD_SUPPORT;
    }
    if (start_apart(pair, walk)) {
        walk->v = v;
        return GJK_WALK_APART;
    }

    gjk_real vv = gjk_length_sq(v);
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
        gjk_real tol = gjk_pair_tolerance(pair);
        gjk_real vlen = gjk_sqrt(vv);
        if (s->count == 4 || vlen <= tol) {
            return GJK_WALK_OVERLAP;
        }
        gjk_real within = walk->stop_widen ? walk->stop_within - tol : walk->stop_within;
        if (within > 0 && vlen < within) {
            return GJK_WALK_WITHIN;
        }
        if (walk->iterations >= walk->max_iterations) {
            return GJK_WALK_MAX_ITER;
        }
        ++walk->iterations;

        gjk_vec3 d = gjk_simplex_direction(s, v);
        gjk_support_point p = gjk_pair_support(pair, gjk_neg(d));
        if (pair->bad_support) {
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real lower = gjk_dot(d, p.w) / gjk_length(d);
        walk->lower = gjk_max(lower, walk->lower); // a select, not a branch (a NaN lower is ignored)
        if (pair->trace != NULL) {
            trace_iteration(pair, walk, d, p.w);
        }
        gjk_real beyond = walk->stop_widen ? walk->stop_beyond + gjk_pair_tolerance(pair) : walk->stop_beyond;
        if (beyond > 0 && walk->lower > beyond) {
            return GJK_WALK_APART;
        }
        // Duality gap |v| − v̂·w, measured against the tolerance at the
        // scale that includes the new point.
        tol = gjk_pair_tolerance(pair);
        if (vlen - lower <= tol || simplex_has(s, p.w)) {
            return GJK_WALK_CONVERGED;
        }

        gjk_vec3 v_new;
        if (!gjk_simplex_try_add(s, &p, vv, &v_new)) {
            // No progress: rounding has taken over. Keep the better simplex.
            return GJK_WALK_CONVERGED;
        }
        v = v_new;
        vv = gjk_length_sq(v_new);
    }
}
